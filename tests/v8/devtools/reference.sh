#!/usr/bin/env bash
# Writes Chrome DevTools' numbers for the V8 fixtures in fixtures/node/:
#   <name>.devtools.tsv.gz          one line per node (the 1M list: only its
#                                   digest, <name>.devtools.digest, see
#                                   tests/v8/devtools_check.sh)
#   <name>.devtools-aggregates.tsv  the Summary view's per-class aggregates
#   listener_leak.devtools-diff.tsv the Comparison view, base -1, current -2
#   alloc_sites-N.devtools-sites.tsv the Allocation view's functions (live count and size)
# Builds the harness first if dist/harness.mjs is missing.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
FIX=$(cd "$HERE/../../../fixtures/node" && pwd)
H="$HERE/dist/harness.mjs"
[ -f "$H" ] || bash "$HERE/build.sh"
log() { printf '[reference] %s\n' "$*" >&2; }
WORK_TSV=$(mktemp /tmp/leakfind-devtools.XXXXXX)

run() {  # run OUT ARGS...: harness output to OUT, DevTools' warnings to stderr
    local out=$1; shift
    node --max-old-space-size=8192 "$H" "$@" > "$out.tmp.$$"
    mv "$out.tmp.$$" "$out"
    log "$(basename "$out") $(stat -c %s "$out") bytes"
}

for s in listener_leak-1 listener_leak-2 weak_cache; do
    run "$FIX/$s.devtools.tsv" "$FIX/$s.heapsnapshot.gz"
    gzip -9 -n -f "$FIX/$s.devtools.tsv"
    run "$FIX/$s.devtools-aggregates.tsv" --aggregates "$FIX/$s.heapsnapshot.gz"
done
run "$FIX/listener_leak.devtools-diff.tsv" --diff "$FIX/listener_leak-1.heapsnapshot.gz" "$FIX/listener_leak-2.heapsnapshot.gz"

for n in 100 200 300; do
    run "$FIX/alloc_sites-$n.devtools-sites.tsv" --sites "$FIX/alloc_sites-$n.heapsnapshot.gz"
done

run "$FIX/linked_list.devtools-aggregates.tsv" --aggregates "$FIX/linked_list.heapsnapshot.gz"
run "$FIX/text_encoder.devtools-aggregates.tsv" --aggregates "$FIX/text_encoder.heapsnapshot.gz"
run "$WORK_TSV" "$FIX/linked_list.heapsnapshot.gz"
sh "$HERE/../devtools_check.sh" make-digest "$WORK_TSV" > "$FIX/linked_list.devtools.digest"
rm -f "$WORK_TSV"
log "linked_list.devtools.digest: $(cat "$FIX/linked_list.devtools.digest")"
