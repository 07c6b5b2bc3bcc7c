#!/bin/sh
# Golden CLI tests: each case runs leakfind and compares stdout, stderr and the
# exit code with what tests/cli/expected/NAME.{out,err} and the case say. The
# expected files were worked out by hand from the fixtures' construction (see
# the comments in fixtures/graphs/*.txt), not pasted from leakfind's output.
# usage: tests/cli/run.sh BUILD_DIR [NAME]   (prints "N passed, M failed" last)
#   CLI_FILES="cases v8_cases": only the cases of those files (tests/cli/*.sh);
#   CLI_SKIP="mutation": all but those.
#   NAME: only the case of that name (case_, rows_, help_, check_), from the case
#   files that mention it.
#   CLI_ACTUAL=DIR: a failing case_'s stdout and stderr are kept in DIR.
set -u
build=${1:-build}
only=${2:-}
LF=${LF:-"$build/leakfind"} # tests/spill/run.sh runs the cases through a wrapper
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
expected=tests/cli/expected
unset COLUMNS # tables are cut to $COLUMNS when set: the cases set it themselves
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the tally and its verdicts (pass, fail; ok, bad, expect): what every runner shares
. tests/lib.sh

# wanted NAME: whether this run runs the case NAME
wanted() { [ -z "$only" ] || [ "$1" = "$only" ]; }
# The helpers the case files call: with NAME, only that case, its messages
# on fd 3 (the files' own checks then write to /dev/null) and its result
# counted apart in npass/nfail.
exec 3>&1
npass=0
nfail=0
counted() {
    wanted "$2" || return 0
    p0=$pass f0=$fail
    "$@" >&3 2>&3
    npass=$((npass + pass - p0))
    nfail=$((nfail + fail - f0))
}
case_() { counted case_run "$@"; }
check_() { counted check_run "$@"; }
help_() { counted help_run "$@"; }
rows_() { counted rows_run "$@"; }

# case NAME EXIT_CODE ARGS... : stdout must equal NAME.out (when the file
# exists, else be empty), stderr NAME.err (same rule).
case_run() {
    name=$1 want=$2
    shift 2
    "$LF" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    sed "s|$tmp/|TMP/|g" "$tmp/err" >"$tmp/err.n" && mv "$tmp/err.n" "$tmp/err"
    ok=1
    [ "$code" = "$want" ] || { echo "FAIL $name: exit $code, expected $want"; ok=0; }
    for s in out err; do
        if [ -f "$expected/$name.$s" ]; then
            cmp -s "$expected/$name.$s" "$tmp/$s" || { echo "FAIL $name: std$s differs:"; diff "$expected/$name.$s" "$tmp/$s" | head -20; ok=0; }
        elif [ -s "$tmp/$s" ]; then
            echo "FAIL $name: unexpected std$s:"; head -5 "$tmp/$s"; ok=0
        fi
    done
    if [ $ok = 1 ]; then ok; else fail=$((fail + 1)); fi # its lines are printed above
    # CLI_ACTUAL=DIR keeps a failing case's output there, to read beside the
    # expected files (never to copy over them unread)
    if [ $ok = 0 ] && [ -n "${CLI_ACTUAL:-}" ]; then
        mkdir -p "$CLI_ACTUAL" && cp "$tmp/out" "$CLI_ACTUAL/$name.out" && cp "$tmp/err" "$CLI_ACTUAL/$name.err"
    fi
}

# check_ NAME COMMAND...: the command (a checker script) must exit 0.
check_run() {
    name=$1
    shift
    if "$@" >"$tmp/out" 2>&1; then
        ok
    else
        bad "$name:" "$(head -8 "$tmp/out")"
    fi
}

# help_ NAME ARGS... : -h exits 0 and prints a usage line naming the command.
help_run() {
    name=$1
    shift
    "$LF" "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
    if [ $code = 0 ] && head -1 "$tmp/out" | grep -q "^usage: leakfind" && [ ! -s "$tmp/err" ]; then
        ok
    else
        bad "$name: -h gave exit $code"
    fi
}

# rows_ NAME EXPECTED AWK ARGS... : leakfind ARGS must exit 0 and its stdout,
# filtered by the awk program, must be exactly EXPECTED (a newline-terminated
# text). For real dumps, where only some rows are worked out by hand.
rows_run() {
    name=$1 want=$2 prog=$3
    shift 3
    "$LF" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    got=$(awk -F'\t' "$prog" "$tmp/out")
    if [ $code = 0 ] && [ "$got" = "$want" ]; then
        ok
    else
        bad "$name: exit $code" "expected: $want" "got:      $got"
        head -3 "$tmp/err"
    fi
}

G=fixtures/graphs
J=fixtures/java/dumps
# With NAME: the files that mention it, or, for a name a file makes (like
# linked_list_full_listing_threads_$t), its longest prefix at a '_' that a
# file mentions. Their checks that are not case_/rows_/help_ run too.
# CLI_FILES, CLI_SKIP: which case files (run_all.sh shares them between its
# lanes; the reruns skip the mutation cases). oom_cases needs scale_cases.
files=${CLI_FILES:-"cases series_cases table_cases hprof_cases v8_cases domview_cases suspects_cases holder_cases collection_cases cache_cases pipe_cases inspect_cases strings_cases threads_cases query_cases mutation scale_cases oom_cases"}
for skip in ${CLI_SKIP:-}; do
    files=$(for f in $files; do [ "$f" = "$skip" ] || echo "$f"; done)
done
if [ -n "$only" ]; then
    probe=$only
    while [ -n "$probe" ] && ! grep -q -- "$probe" tests/cli/*.sh; do
        case $probe in *_*) probe=${probe%_*} ;; *) probe= ;; esac
    done
    files=$(cd tests/cli && grep -l -- "${probe:-/nothing/}" $(for f in $files; do echo "$f.sh"; done) | sed 's/\.sh$//')
fi
if [ -z "$only" ]; then
    for file in $files; do
        . "tests/cli/$file.sh"
    done
else
    for file in $files; do
        . "tests/cli/$file.sh" >/dev/null 2>&1
    done
    pass=$npass fail=$nfail
    if [ $((pass + fail)) = 0 ]; then
        echo "FAIL: no case named '$only'"
        fail=1
    fi
fi

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
