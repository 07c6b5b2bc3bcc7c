#!/bin/sh
# The everyday conveniences: --version names the git revision, the man page
# covers every command and option the binary has, `make install` installs a
# man page that renders and a completion that works, and progress shows on a
# terminal only.
# usage: tests/conveniences/run.sh BUILD_DIR; last line "N passed, M failed".
set -u
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
lf="$build/leakfind"
man1=docs/leakfind.1
. "$top/tests/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The commands of the binary's own table, as `leakfind --help` lists them.
commands=$("$lf" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
[ -n "$commands" ] && ok "--help lists commands" || bad "--help lists commands" "none found"

# Option names on the option lines (two spaces, then a dash) of `leakfind CMD -h`,
# below the heading $2 ("Options:" or "Global options:") up to the next heading.
help_options() { # help_options CMD HEADING
    "$lf" "$1" -h | awk -v h="$2" '
        $0 == h { on = 1; next }
        on && /^[A-Z][a-z ]*:$/ { on = 0 }
        on && /^  -/ {
            split(substr($0, 3), part, /  +/)
            n = split(part[1], word, / /)
            for (i = 1; i <= n; i++) {
                w = word[i]; sub(/,$/, "", w)
                if (w !~ /^-/) break
                print w
            }
        }'
}

# ---- version ---------------------------------------------------------------
# "leakfind VERSION (REVISION)": REVISION is the build's `git describe
# --always --dirty`, so with no tags the short hash of HEAD, "-dirty" when
# the tree differs from HEAD.
version_line=$("$lf" --version)
revision=$(echo "$version_line" | sed -n 's/^leakfind [0-9][0-9.]* (\(.*\))$/\1/p')
if [ -e .git ] && head=$(git rev-parse --short HEAD 2>/dev/null); then
    want=$head
    git diff --quiet HEAD 2>/dev/null || want="$head-dirty"
    if [ -n "$(git tag --merged HEAD 2>/dev/null)" ]; then
        # a tag gives TAG-N-gHASH: the hash part still names HEAD
        case $revision in *"g$head"* | "$(git describe --always --dirty)") want=$revision ;; esac
    fi
    [ "$revision" = "$want" ] && ok "--version revision is HEAD ($want)" ||
        bad "--version revision is HEAD" "expected: $want" "line:     $version_line"
else
    [ "$revision" = unknown ] && ok "--version outside git says unknown" ||
        bad "--version outside git says unknown" "line: $version_line"
fi
[ "$("$lf" version)" = "$version_line" ] && ok "'leakfind version' = --version" ||
    bad "'leakfind version' = --version" "$("$lf" version)"

# ---- man page covers the binary ---------------------------------------------
# A section ".SS CMD" per command; each option of the command's -h in its
# section (roff writes a dash as \-), each global option under GLOBAL OPTIONS.
man_section() { # man_section HEADER: the roff text of ".SS NAME"/".SH NAME" up to the next
    awk -v h="$1" '$0 == h { on = 1; next } on && /^\.S[SH] / { exit } on' "$man1"
}
in_roff() { # in_roff OPTION TEXT: TEXT names OPTION (as \-\-name, not a longer one)
    pat=$(printf '%s' "$1" | sed 's/-/\\\\-/g')
    printf '%s\n' "$2" | grep -q -- "$pat\\([^a-z\\\\]\\|\\\\f\\|\$\\)"
}
missing=""
for c in $commands; do
    section=$(man_section ".SS $c")
    if [ -z "$section" ]; then
        missing="$missing [no section .SS $c]"
        continue
    fi
    for o in $(help_options "$c" "Options:"); do
        in_roff "$o" "$section" || missing="$missing [$c $o]"
    done
done
[ -z "$missing" ] && ok "man page: every command and its options" ||
    bad "man page: every command and its options" "missing:$missing"
globals=$(man_section ".SH GLOBAL OPTIONS")
missing=""
for o in $(help_options info "Global options:"); do
    in_roff "$o" "$globals" || missing="$missing $o"
done
[ -n "$(help_options info "Global options:")" ] && [ -z "$missing" ] &&
    ok "man page: every global option" || bad "man page: every global option" "missing:$missing"

# ---- make install ----------------------------------------------------------
prefix="$work/prefix"
if ${MAKE:-make} --no-print-directory -s install BUILD="$build" PREFIX="$prefix" >"$work/install.log" 2>&1 &&
    ${MAKE:-make} --no-print-directory -s install BUILD="$build" PREFIX=/usr DESTDIR="$work/dest" >>"$work/install.log" 2>&1; then
    ok "make install"
else
    bad "make install" "$(tail -5 "$work/install.log")"
fi
for f in bin/leakfind share/man/man1/leakfind.1 share/bash-completion/completions/leakfind; do
    [ -s "$prefix/$f" ] && [ -s "$work/dest/usr/$f" ] && ok "installed $f (PREFIX and DESTDIR)" ||
        bad "installed $f (PREFIX and DESTDIR)"
done
[ "$("$prefix/bin/leakfind" --version)" = "$version_line" ] && ok "installed binary runs" ||
    bad "installed binary runs"
# The installed page renders through man's own search path, with a heading per command.
MANPATH="$prefix/share/man" MANWIDTH=100 LC_ALL=C man leakfind >"$work/man.txt" 2>"$work/man.err"
missing=""
for c in $commands; do
    grep -q "^   $c\$" "$work/man.txt" || missing="$missing $c"
done
if [ -s "$work/man.txt" ] && [ -z "$missing" ] && grep -q "^NAME" "$work/man.txt" && ! grep -q . "$work/man.err"; then
    ok "man leakfind renders every command"
else
    bad "man leakfind renders every command" "missing:$missing" "$(head -3 "$work/man.err")"
fi
# groff's own warnings (a macro misspelt, a bad escape)
LC_ALL=C groff -man -Tascii -ww -z "$man1" >"$work/groff.err" 2>&1
[ ! -s "$work/groff.err" ] && ok "groff: no warnings" || bad "groff: no warnings" "$(head -3 "$work/groff.err")"

# ---- bash completion --------------------------------------------------------
# complete WORD...: the COMPREPLY of the installed completion for the line
# "WORD..." with the cursor at the end of the last word, one per line, sorted.
complete_line() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _leakfind
        printf "%s\n" "${COMPREPLY[@]}" | sort' complete \
        "$prefix/share/bash-completion/completions/leakfind" "$prefix/bin/leakfind" "$@"
}
expect_completion() { # expect_completion EXPECTED WORD...
    want=$1
    shift
    got=$(complete_line "$@" | tr '\n' ' ')
    [ "$got" = "$want" ] && ok "completion: leakfind $*<TAB>" ||
        bad "completion: leakfind $*<TAB>" "expected: $want" "actual:   $got"
}
expect_completion "dominators " dom
expect_completion "--sort " classes --so
expect_completion "json table tsv " classes --format ""
expect_completion "class count retained shallow " classes --sort ""
expect_completion "count est_bytes retained shallow site " sites --sort ""
expect_completion "all soft " diff --strong ""
expect_completion "--min-bytes --min-count " diff --min-
mkdir -p "$work/dumps" && : >"$work/dumps/heap.hprof" && : >"$work/dumps/heap.heapsnapshot"
expect_completion "$work/dumps/heap.heapsnapshot $work/dumps/heap.hprof " classes "$work/dumps/heap"
expect_completion "$work/dumps/heap.hprof " convert in.hprof -o "$work/dumps/heap.hp"
got=$(complete_line "")
missing=""
for c in $commands; do
    echo "$got" | grep -qx -- "$c" || missing="$missing $c"
done
[ -z "$missing" ] && ok "completion: every command" || bad "completion: every command" "missing:$missing"
missing=""
for c in $commands; do
    offered=$(complete_line "$c" -)
    for o in $(help_options "$c" "Options:") $(help_options "$c" "Global options:"); do
        echo "$offered" | grep -qx -- "$o" || missing="$missing [$c $o]"
    done
done
[ -z "$missing" ] && ok "completion: every option of every command's -h" ||
    bad "completion: every option of every command's -h" "missing:$missing"

# ---- progress ---------------------------------------------------------------
# On a terminal (script(1) gives the command a pty; its stdout goes to
# /dev/null, so what script prints is stderr) reading an HPROF dump shows
# "N of M (P%)" and clears the line at the end; never without a terminal or
# with --no-progress.
dump=fixtures/java/dumps/planted_leak.hprof
if command -v script >/dev/null; then
    script -qc "'$lf' classes -q '$dump' >/dev/null" /dev/null >"$work/tty.txt" 2>&1
    pcts=$(tr '\r' '\n' <"$work/tty.txt" | sed -n 's/.*reading .* of .* (\([0-9]*\)%).*/\1/p' | tr '\n' ' ')
    last=$(tail -c 4 "$work/tty.txt" | od -An -c | tr -s ' ')
    case $pcts in
    "0 "*"100 ") [ "$last" = " \r 033 [ K" ] && ok "progress on a terminal: 0% to 100%, then cleared" ||
        bad "progress on a terminal: 0% to 100%, then cleared" "ends with: $last" ;;
    *) bad "progress on a terminal: 0% to 100%, then cleared" "percents: $pcts" ;;
    esac
    script -qc "'$lf' classes -q '$dump' --no-progress >/dev/null" /dev/null >"$work/tty.txt" 2>&1
    [ ! -s "$work/tty.txt" ] && ok "no progress with --no-progress" ||
        bad "no progress with --no-progress" "$(od -c "$work/tty.txt" | head -2)"
else
    bad "progress on a terminal" "script(1) missing: sh tests/setup.sh installs bsdutils"
fi

# The other long stages, the same way: a gzip dump's inflation, a V8
# snapshot's JSON, and the analysis's five passes (counted in objects), on
# the 1,000,000-node linked list (87 MiB of JSON, 8 MiB gzipped).
# stage_percents FILE SED_PATTERN: the percents of the lines drawn for a stage.
stage_percents() {
    tr '\r' '\n' <"$1" | sed -n "$2" | tr '\n' ' '
}
expect_stage() { # expect_stage NAME PERCENTS EXPECTED_GLOB
    case $2 in
    $3) ok "progress on a terminal: $1" ;;
    *) bad "progress on a terminal: $1" "percents: $2" ;;
    esac
}
gz=fixtures/node/linked_list.heapsnapshot.gz
gunzip -c "$gz" >"$work/linked_list.heapsnapshot"
if command -v script >/dev/null; then
    script -qc "'$lf' classes -q '$gz' >/dev/null" /dev/null >"$work/tty.txt" 2>&1
    expect_stage "gzip inflation 0% to 100%" \
        "$(stage_percents "$work/tty.txt" 's/.*reading .*gz (inflating)  .* of 8.2 MiB (\([0-9]*\)%).*/\1/p')" "0 *100 "
    script -qc "'$lf' classes -q '$work/linked_list.heapsnapshot' >/dev/null" /dev/null >"$work/tty.txt" 2>&1
    expect_stage "V8 read 0% to 100%" \
        "$(stage_percents "$work/tty.txt" 's/.*reading .*heapsnapshot  .* of 87.1 MiB (\([0-9]*\)%).*/\1/p')" "0 *100 "
    # pass:percent of each line: 1:0 first, 5:100 last, the passes in order
    passes=$(stage_percents "$work/tty.txt" \
        's/.*computing dominators (pass \([1-5]\) of 5)  .* of 1\.0M objects (\([0-9]*\)%).*/\1:\2/p')
    ordered=$(echo "$passes" | tr ' ' '\n' | sed -n 's/:.*//p' | sort -c 2>&1 && echo yes)
    case $passes in
    "1:0 "*"2:0 "*"3:0 "*"4:0 "*"5:0 "*"5:100 ") [ "$ordered" = yes ] &&
        ok "progress on a terminal: dominators, passes 1 to 5, 0% to 100%" ||
        bad "progress on a terminal: dominators, passes 1 to 5, 0% to 100%" "passes out of order: $passes" ;;
    *) bad "progress on a terminal: dominators, passes 1 to 5, 0% to 100%" "passes: $passes" ;;
    esac
    last=$(tail -c 4 "$work/tty.txt" | od -An -c | tr -s ' ')
    [ "$last" = " \r 033 [ K" ] && ok "progress on a terminal: cleared after the analysis" ||
        bad "progress on a terminal: cleared after the analysis" "ends with: $last"
    # a leakfind file: its checksums are checked, a byte count of the file's size
    "$lf" convert -q "$work/linked_list.heapsnapshot" -o "$work/linked_list.lfs" --no-progress
    size=$(wc -c <"$work/linked_list.lfs")
    script -qc "'$lf' classes -q '$work/linked_list.lfs' >/dev/null" /dev/null >"$work/tty.txt" 2>&1
    expect_stage ".lfs check 0% to 100%" \
        "$(stage_percents "$work/tty.txt" "s/.*reading .*lfs (checking)  .* of .* (\\([0-9]*\\)%).*/\\1/p")" "0 *100 "
    mib=$(awk -v b="$size" 'BEGIN { printf "%.1f MiB", b / 1048576 }')
    tr '\r' '\n' <"$work/tty.txt" | grep -q "(checking)  $mib of $mib (100%)" &&
        ok "progress on a terminal: .lfs check counts the file's bytes" ||
        bad "progress on a terminal: .lfs check counts the file's bytes" "size: $size" "$(tr '\r' '\n' <"$work/tty.txt" | grep checking | tail -1)"
    for f in "$gz" "$work/linked_list.heapsnapshot"; do
        script -qc "'$lf' classes -q '$f' --no-progress >/dev/null" /dev/null >"$work/tty.txt" 2>&1
        [ ! -s "$work/tty.txt" ] && ok "no progress with --no-progress: $(basename "$f")" ||
            bad "no progress with --no-progress: $(basename "$f")" "$(od -c "$work/tty.txt" | head -2)"
    done
fi
for f in "$gz" "$work/linked_list.heapsnapshot"; do
    "$lf" classes -q "$f" >/dev/null 2>"$work/err.txt"
    [ ! -s "$work/err.txt" ] && ok "no progress when stderr is not a terminal: $(basename "$f")" ||
        bad "no progress when stderr is not a terminal: $(basename "$f")" "$(head -c 200 "$work/err.txt")"
done
"$lf" classes -q "$dump" >/dev/null 2>"$work/err.txt"
[ ! -s "$work/err.txt" ] && ok "no progress when stderr is not a terminal" ||
    bad "no progress when stderr is not a terminal" "$(head -c 200 "$work/err.txt")"

# The README's quick start (issue 38): its first command's leakfind part,
# run as the README gives it, must name what the README says it names.
quick=$(grep -A2 '^On a fresh Debian 12 machine' README.md | sed -n 's/^    .*&& \(\.\/build\/leakfind .*\)$/\1/p')
quick_args=${quick#./build/leakfind }
if [ -n "$quick" ] && "$build/leakfind" $quick_args --format tsv >"$work/quick.tsv" 2>"$work/quick.err" &&
    awk -F'\t' 'NR == 2 && $3 == 322840 && $10 == 300 && $11 == "com.acme.Listener" && $15 ~ /^static field com.acme.Registry.listeners / {ok = 1} END {exit !ok}' "$work/quick.tsv" &&
    grep -q 'com.acme.Registry.listeners`, 322,840 bytes, where 300 `com.acme.Listener`' README.md; then
    ok "README quick start: '$quick' names the list, 322,840 bytes, 300 Listener"
else
    bad "README quick start: '$quick'" "$(head -3 "$work/quick.tsv" "$work/quick.err" 2>/dev/null)"
fi

finish
