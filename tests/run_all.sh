#!/bin/sh
# Runs every test against a build directory: unit tests, golden CLI tests, the
# fuzz corpora replayed through each fuzz target. Last line: "N passed, M failed".
# usage: tests/run_all.sh BUILD_DIR
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
pass=0
fail=0
tally() { # tally LOG: adds the "N passed, M failed" of a runner's last line
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
    p=$(echo "$line" | awk '{for (i = 2; i <= NF; i++) if ($i == "passed,") print $(i - 1)}')
    f=$(echo "$line" | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^failed/) print $(i - 1)}')
    [ -n "$line" ] || { p=0; f=1; }
    pass=$((pass + p))
    fail=$((fail + f))
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
suite() { # suite TITLE SCRIPT: runs a runner script on the build, shows and tallies it
    echo "== $1"
    sh "$2" "$build" >"$log" 2>&1
    cat "$log"; tally "$log"
}

echo "== unit tests"
"$build/unit_tests" >"$log" 2>&1
cat "$log" | grep -v '^ok ' ; tally "$log"

suite "CLI golden tests" tests/cli/run.sh
suite "spilling: the goldens again with --memory 1K, TMPDIR refusals, nothing left" tests/spill/run.sh
suite "wide edge offsets: the goldens again with 64-bit offsets" tests/wide/run.sh
suite "OCaml agent" tests/ocaml/run.sh
suite "version, man page, install, completion, progress" tests/conveniences/run.sh
suite "report (pages in headless Chromium)" tests/report/run.sh
echo "== fuzz corpora replay"
for corpus in tests/fuzz/corpus/*/; do
    t=$(basename "$corpus")
    if "$build/fuzz_$t" "$corpus" >"$log" 2>&1; then
        pass=$((pass + 1)); echo "ok   fuzz_$t: $(tail -1 "$log")"
    else
        fail=$((fail + 1)); echo "FAIL fuzz_$t"; tail -20 "$log"
    fi
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
