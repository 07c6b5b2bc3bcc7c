#!/bin/sh
# Tests of `leakfind report`: the command line (no -o, -o -, an output that
# cannot be written), the size bound on a generated dump of 3.6M objects, and
# the pages themselves in headless Chromium (check_report.js).
# usage: tests/report/run.sh BUILD_DIR    Last line: "N passed, M failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
lf=$build/leakfind
out=$build/report-test
mkdir -p "$out"
. tests/lib.sh
P=fixtures/java/dumps/planted_leak.hprof

# HTML is not for a terminal: without -o, a usage error and nothing on stdout
"$lf" report "$P" >"$out/stdout" 2>"$out/stderr"
rc=$?
if [ "$rc" = 2 ] && [ ! -s "$out/stdout" ] && grep -q 'needs -o' "$out/stderr"; then
    ok "report without -o: usage error"
else
    bad "report without -o: exit $rc, $(wc -c <"$out/stdout") bytes on stdout"
fi

# -o -: the whole page on standard output
"$lf" report fixtures/graphs/diamond.txt -o - >"$out/stdout.html" 2>"$out/stderr"
rc=$?
if [ "$rc" = 0 ] && head -1 "$out/stdout.html" | grep -q '^<!DOCTYPE html>' &&
    tail -1 "$out/stdout.html" | grep -q '^</html>$'; then
    ok "report -o -: the page on stdout"
else
    bad "report -o -: exit $rc"
fi

# an output that cannot be written fails before the dump is read (exit 4)
"$lf" report "$P" -o /nonexistent-dir/r.html >/dev/null 2>"$out/stderr"
rc=$?
[ "$rc" = 4 ] && ok "report -o into a missing directory: exit 4" || bad "report -o into a missing directory: exit $rc"

# a --workload that does not give one number per snapshot
"$lf" report "$P" "$P" --workload 1,2,3 -o "$out/x.html" >/dev/null 2>&1
rc=$?
[ "$rc" = 2 ] && [ ! -e "$out/x.html" ] && ok "report --workload of the wrong length: usage error" ||
    bad "report --workload of the wrong length: exit $rc"

# skip WHY: a check that cannot run here; a failure where the browser checks
# are required (LEAKFIND_REQUIRE_BROWSER=1, as .ci/run sets it)
skip() {
    if [ -n "${LEAKFIND_REQUIRE_BROWSER:-}" ]; then bad "required, cannot run: $1"; else echo "SKIP $1"; fi
}
if ! command -v node >/dev/null 2>&1; then
    skip "report size and page checks: node is not installed (tests/setup.sh installs it)"
    finish
fi

# The size bound: 3.6M objects (build/gen_arrays: 4 arrays of 262,144 Items,
# 3 of 1,048,576), a page of at most --nodes objects and a few hundred KB
# (an array's Items are one box per class, as `dominators` shows them).
log=$(mktemp)
trap 'rm -f "$log" "$out/arrays.hprof"' EXIT
# sized NAME INPUT OBJECTS: the report of INPUT with --nodes 3000, then 500,
# carries OBJECTS objects (check_size.js: "N" exactly, "<=" at most --nodes)
sized() {
    for nodes in 3000 500; do
        if "$lf" report "$2" --nodes "$nodes" -o "$out/$1-$nodes.html" --no-progress; then
            node tests/report/check_size.js "$out/$1-$nodes.html" "$(echo "$3" | sed "s/N/$nodes/")" 5000000 >"$log" 2>&1
            tally "$log"
        else
            bad "report on $1 (--nodes $nodes)"
        fi
    done
}
"$build/gen_arrays" "$out/arrays.hprof" 4 3 >/dev/null
sized arrays "$out/arrays.hprof" "<=N"

# The budget, where no collection folds the objects: Wide.ROOT holds 2,000
# Branches (Branch k: 100 + k bytes) by fields, each 2 Leaves of 10 bytes:
# 6,001 objects. The page takes exactly --nodes of them, the largest first
# (every Branch retains more than any Leaf).
awk 'BEGIN {
    OFS = "\t"
    print "root", 1, "static field", "Wide.ROOT"
    print "node", 1, 16, "Wide"
    for (k = 0; k < 2000; k++) {
        b = 10 + 3 * k
        print "node", b, 100 + k, "Branch"
        print "edge", 1, b, "strong", "branch" k
        for (j = 1; j <= 2; j++) {
            print "node", b + j, 10, "Leaf"
            print "edge", b, b + j, "strong", "leaf" j
        }
    }
}' >"$out/wide.txt"
sized wide "$out/wide.txt" N

# A chain of 200 objects of two alternating classes (so no one-class chain
# stops the walk) above an array of 100 Items of 1000 bytes: the only
# suspect's accumulation point is the array, 201 hops from the root. The
# page keeps the first 5 and the last 35: "... 161 more hops" between.
# Its tree: the 200 links, the array and, as `dominators` shows them, the
# 10 large Items (5,000 bytes each: over 0.1% of the 62,616-byte heap, and
# they stand out of the Items' row, whose mean is 590), the 90 others (100
# bytes, alike) one box: 211 objects.
awk 'BEGIN {
    OFS = "\t"
    print "root", 1, "static field", "Chain.HEAD"
    for (i = 1; i <= 200; i++) {
        print "node", i, 16, (i % 2 ? "Link" : "Wrapper")
        print "edge", i, i + 1, "strong", "next"
    }
    print "node", 201, 416, "Item[]"
    for (j = 0; j < 100; j++) {
        print "node", 1000 + j, j < 10 ? 5000 : 100, "Item"
        print "edge", 201, 1000 + j, "strong", j
    }
}' >"$out/chain.txt"
if "$lf" report "$out/chain.txt" -o "$out/chain.html" --no-progress; then
    node tests/report/check_size.js "$out/chain.html" 211 5000000 161 >"$log" 2>&1
    tally "$log"
else
    bad "report on a chain of 200"
fi
# With --nodes 205 the page runs out after 4 of those 10 Items: the other
# 96 are one box, all Items counted (the 6 left out join the 90): 6 x 5,000
# + 90 x 100 bytes.
if "$lf" report "$out/chain.txt" --nodes 205 -o "$out/chain-205.html" --no-progress; then
    node tests/report/check_size.js "$out/chain-205.html" 205 5000000 161 >"$log" 2>&1
    tally "$log"
    grep -q '"96 x Item","",null,39000,' "$out/chain-205.html" && ok "report --nodes 205: 4 Items, then one box of 96" ||
        bad "report --nodes 205: no box of 96 Items"
else
    bad "report on a chain of 200 (--nodes 205)"
fi

if [ ! -x /usr/bin/chromium ]; then
    skip "report pages in Chromium: /usr/bin/chromium is missing (tests/setup.sh installs Debian's chromium)"
elif [ ! -d tests/report/node_modules/puppeteer-core ]; then
    skip "report pages in Chromium: puppeteer-core is missing (tests/setup.sh runs npm ci in tests/report)"
else
    node tests/report/check_report.js "$lf" "$out" >"$log" 2>&1
    tally "$log"
fi
finish
