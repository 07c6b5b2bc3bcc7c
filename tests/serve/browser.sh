#!/bin/sh
# The explorer's page in headless Chromium: starts `leakfind serve` on each
# fixture in the background, reads the URL it prints, runs check_page.js on
# them all (one browser), and stops the servers. Screenshots of each view go
# to BUILD_DIR/serve-shots/.
# usage: tests/serve/browser.sh BUILD_DIR    Last line: "N passed, M failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/serve/lib.sh
lf=$build/leakfind
out=$build/serve-test
mkdir -p "$out"

# skip WHY: a check that cannot run here; a failure where the browser checks
# are required (LEAKFIND_REQUIRE_BROWSER=1, as .ci/run sets it)
skip() {
    if [ -n "${LEAKFIND_REQUIRE_BROWSER:-}" ]; then bad "required, cannot run: $1"; else echo "SKIP $1"; fi
}
if ! command -v node >/dev/null 2>&1; then
    skip "serve page in Chromium: node is not installed (tests/setup.sh installs it)"
    finish
elif [ ! -x /usr/bin/chromium ]; then
    skip "serve page in Chromium: /usr/bin/chromium is missing (tests/setup.sh installs Debian's chromium)"
    finish
elif [ ! -d tests/report/node_modules/puppeteer-core ]; then
    skip "serve page in Chromium: puppeteer-core is missing (tests/setup.sh runs npm ci in tests/report)"
    finish
fi

pids=""
stop() { for p in $pids; do kill "$p" 2>/dev/null; done; for p in $pids; do wait "$p" 2>/dev/null; done; }
trap stop EXIT
# start NAME SNAPSHOT...: a server in the background; its URL in $out/NAME.url
start() {
    name=$1
    shift
    "$lf" serve "$@" >"$out/$name.url" 2>"$out/$name.err" &
    pids="$pids $!"
}
J=fixtures/java/series/dumps
O=fixtures/ocaml/snapshots
start example fixtures/example/app.lfs
start java $J/leak-100.hprof $J/leak-200.hprof $J/leak-300.hprof
start node fixtures/node/closure_place.heapsnapshot.gz
start dotnet fixtures/dotnet/dumps/leaky.3.gcdump
start ocaml $O/typed.1.lfs $O/typed.2.lfs $O/typed.3.lfs
start ocamlsites $O/sites.lfs
start hostile tests/report/hostile.txt
start collections $J/collections-300.hprof.gz
# each prints its one line once its snapshots are analysed (a few seconds)
args=""
for name in example java node dotnet ocaml ocamlsites hostile collections; do
    url=$(serve_wait_url "$out/$name.url" "" 600)
    case "$url" in
    http://127.0.0.1:*/\?t=*) args="$args $name=$url" ;;
    *) bad "serve $name: no URL on stdout" "$(cat "$out/$name.err")" ;;
    esac
done
log=$out/check_page.log
node tests/serve/check_page.js "$build/serve-shots" $args >"$log" 2>&1
tally "$log"
finish
