#!/bin/sh
# An Express-shaped V8 snapshot (issue 52): a real Express 5 app
# (tests/bench/node/express_heap.js) with 1,000 routes, middleware, sessions,
# a page cache and a request log holding 14,000 requests, about 190 MB and
# 1.7M nodes at scale 1. Express is installed outside the repository, into
# bench-data/express/ (tests/bench/node/express/package.json, pinned). The
# snapshot is written once and kept.
#
# Times `leakfind dominators --top 10` on it: wall, CPU (user + system) and
# peak RSS, median of RUNS (default 5); with BENCH_DEVTOOLS=1, DevTools' own
# worker (tests/v8/devtools, `bash tests/v8/devtools/build.sh` once) and,
# when installed in bench-data/memlab/ (`cd bench-data/memlab &&
# PUPPETEER_SKIP_DOWNLOAD=1 npm install memlab@2.0.5`), memlab's retained
# sizes (`memlab analyze object-size`), alternated with leakfind run by run.
# usage: tests/bench/v8_express.sh BUILD_DIR [SCALE]   (run by tests/bench/run.sh)
set -eu
build=${1:-build}
scale=${2:-1}
runs=${RUNS:-5}
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "# v8_express: no node, skipped"; exit 0; }
mkdir -p bench-data/express
f=bench-data/express-$scale.heapsnapshot
if [ ! -d bench-data/express/node_modules/express ]; then
    cp tests/bench/node/express/package.json tests/bench/node/express/package-lock.json bench-data/express/
    (cd bench-data/express && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
if [ ! -f "$f" ] || [ tests/bench/node/express_heap.js -nt "$f" ]; then
    echo "# writing $f with Node and Express"
    node --max-old-space-size=4000 --expose-gc tests/bench/node/express_heap.js "$f" "$scale" bench-data/express >&2
fi
cat "$f" >/dev/null
echo "## Express-shaped V8 snapshot: $f ($(du -h "$f" | cut -f1))"
t=bench-data/express-time.txt
# one_run LABEL CMD...: "LABEL wall cpu rssKiB" of one run
one_run() {
    label=$1
    shift
    /usr/bin/env time -f "%e %U %S %M" -o "$t" "$@" >/dev/null 2>&1
    awk -v l="$label" '{printf "%s %s %.2f %s\n", l, $1, $2 + $3, $4}' "$t"
}
memlab=bench-data/memlab/node_modules/.bin/memlab
for i in $(seq "$runs"); do
    one_run leakfind "$build/leakfind" dominators --top 10 "$f"
    if [ -n "${BENCH_DEVTOOLS:-}" ] && [ -f tests/v8/devtools/dist/harness.mjs ]; then
        one_run devtools node --max-old-space-size=16000 tests/v8/devtools/dist/harness.mjs --load-only "$f"
    fi
    if [ -n "${BENCH_DEVTOOLS:-}" ] && [ -x "$memlab" ]; then
        one_run memlab env NODE_OPTIONS=--max-old-space-size=16000 "$memlab" analyze object-size --snapshot "$f"
    fi
done | awk '
function med(s,   a, n, i, j, x) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { x = a[i]; a[i] = a[j]; a[j] = x }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ order[$1] = order[$1] ? order[$1] : ++k; w[$1] = w[$1] " " $2; c[$1] = c[$1] " " $3; r[$1] = r[$1] " " $4 }
END {
    for (name in w) {
        printf "%s: wall median %.2f s (runs:%s), CPU %.2f s, peak RSS %.0f MiB\n", name, med(w[name]), w[name], med(c[name]), med(r[name]) / 1024
        m[name] = med(w[name])
    }
    if ("devtools" in m) printf "DevTools / leakfind: %.1fx\n", m["devtools"] / m["leakfind"]
    if ("memlab" in m) printf "memlab / leakfind: %.1fx\n", m["memlab"] / m["leakfind"]
}'
rm -f "$t"
