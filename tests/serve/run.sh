#!/bin/sh
# Tests of `leakfind serve` (docs/SERVE.md): the security rules, the views'
# answers on the fixtures, correct answers under 32 concurrent clients, and
# the page in headless Chromium. Each part is a runner of its own; this one
# adds up their tallies.
# usage: tests/serve/run.sh BUILD_DIR    Last line: "N passed, M failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
. tests/lib.sh
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
for part in security views load browser; do
    [ -f "tests/serve/$part.sh" ] || continue
    # the page's scripts run in Chromium, not in leakfind: the sanitized pass
    # checks the server (security, views, load) and leaves the page to the
    # plain one (CI stays under 30 minutes)
    if [ "$part" = browser ] && [ "${LEAKFIND_SANITIZED:-}" = 1 ]; then
        echo "skip the page in Chromium: in the plain pass only" >"$logs/$part"
        echo "0 passed, 0 failed" >>"$logs/$part"
        tally "$logs/$part" "serve $part"
        continue
    fi
    sh "tests/serve/$part.sh" "$build" >"$logs/$part" 2>&1
    tally "$logs/$part" "serve $part"
done
finish
