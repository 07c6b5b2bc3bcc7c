# tests/lib.sh - what every test runner shares: the tally and its verdicts.
# Source it ( . "$top/tests/lib.sh" ) after cd; a runner's last line is
# `finish`'s "N passed, M failed", and its exit status 0 only when none failed.
pass=0
fail=0
# ok [NAME]: a pass, named on its line; without a name only counted (the
# reruns of every golden case say only what failed)
ok() { pass=$((pass + 1)); [ $# -eq 0 ] || echo "ok   $1"; }
# bad NAME [DETAIL...]: a failure, each detail on a line of its own
bad() { fail=$((fail + 1)); echo "FAIL $1"; shift; [ $# -eq 0 ] || printf '     %s\n' "$@"; }
expect() { # expect NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "expected: $2" "actual:   $3"; fi
}
# tally LOG [NAME]: adds the "N passed, M failed" that ends LOG (a sub-runner's);
# a log without that line is one failure, named with the log's last lines
# (the runner ended early: what it was doing is there)
tally() {
    cat "$1"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    [ -n "$line" ] || {
        bad "${2:-$1}: ended without its tally" "$(tail -5 "$1" | sed '2,$s/^/     /')"
        return
    }
    pass=$((pass + $(echo "$line" | cut -d' ' -f1)))
    fail=$((fail + $(echo "$line" | cut -d' ' -f3)))
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }
