#!/bin/sh
# Golden CLI tests: each case runs leakfind and compares stdout, stderr and the
# exit code with what tests/cli/expected/NAME.{out,err} and the case say. The
# expected files were worked out by hand from the fixtures' construction (see
# the comments in fixtures/graphs/*.txt), not pasted from leakfind's output.
# usage: tests/cli/run.sh BUILD_DIR       (prints "N passed, M failed" last)
set -u
build=${1:-build}
LF=${LF:-"$build/leakfind"} # tests/spill/run.sh runs the cases through a wrapper
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
expected=tests/cli/expected
unset COLUMNS # tables are cut to $COLUMNS when set: the cases set it themselves
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# case NAME EXIT_CODE ARGS... : stdout must equal NAME.out (when the file
# exists, else be empty), stderr NAME.err (same rule).
case_() {
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
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

# help_ NAME ARGS... : -h exits 0 and prints a usage line naming the command.
help_() {
    name=$1
    shift
    "$LF" "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
    if [ $code = 0 ] && head -1 "$tmp/out" | grep -q "^usage: leakfind" && [ ! -s "$tmp/err" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: -h gave exit $code"; fail=$((fail + 1))
    fi
}

# rows_ NAME EXPECTED AWK ARGS... : leakfind ARGS must exit 0 and its stdout,
# filtered by the awk program, must be exactly EXPECTED (a newline-terminated
# text). For real dumps, where only some rows are worked out by hand.
rows_() {
    name=$1 want=$2 prog=$3
    shift 3
    "$LF" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    got=$(awk -F'\t' "$prog" "$tmp/out")
    if [ $code = 0 ] && [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $name: exit $code"; echo "  expected: $want"; echo "  got:      $got"
        head -3 "$tmp/err"
        fail=$((fail + 1))
    fi
}

G=fixtures/graphs
J=fixtures/java/dumps
. tests/cli/cases.sh
. tests/cli/hprof_cases.sh
. tests/cli/v8_cases.sh
. tests/cli/domview_cases.sh
. tests/cli/suspects_cases.sh
. tests/cli/holder_cases.sh
. tests/cli/collection_cases.sh
. tests/cli/cache_cases.sh
. tests/cli/pipe_cases.sh
. tests/cli/inspect_cases.sh
. tests/cli/mutation.sh
. tests/cli/scale_cases.sh
. tests/cli/oom_cases.sh

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
