#!/bin/sh
# A leak-free ASP.NET Core server under `leakfind record`, as a user runs
# one (issue 50): WebLeak in its control mode, requests sent the whole time,
# a dump every 2 seconds; then `trend --exit-code` over the run's dumps must
# find no growth and exit 0. Three runs. Needs the .NET SDK and
# dotnet-gcdump; not part of make check (each run takes ~20 s): run by hand,
# its results are in docs/DOTNET.md. RUN_SECONDS: each run's length (20).
# KEEP=DIR keeps the dumps there.
# usage: tests/dotnet/record_control.sh [BUILD_DIR] [RUNS]
set -u
build=$(cd "${1:-build}" && pwd)
runs=${2:-3}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work" "$top/fixtures/dotnet/WebLeak/obj" "$top/fixtures/dotnet/WebLeak/bin"' EXIT
dotnet build -nologo -v q -c Release -o "$work/web" "$top/fixtures/dotnet/WebLeak" >"$work/build.log" 2>&1 ||
    { tail -5 "$work/build.log"; exit 2; }
failed=0
for r in $(seq "$runs"); do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    (cd "$work" && exec "$build/leakfind" record -q --every 2 -o "run$r" -- \
        dotnet "$work/web/WebLeak.dll" "http://127.0.0.1:$port" control) &
    rec=$!
    until curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; do sleep 0.2; done
    end=$(($(date +%s) + ${RUN_SECONDS:-20}))
    id=0
    while [ "$(date +%s)" -lt "$end" ]; do
        id=$((id + 1))
        curl -sf "http://127.0.0.1:$port/orders/$id" >/dev/null 2>&1
    done
    kill -TERM "$rec"
    wait "$rec"
    dumps=$(ls "$work"/run$r.*.gcdump | sort -t. -k2 -n)
    # shellcheck disable=SC2086 # the dumps' names have no spaces
    "$build/leakfind" trend $dumps --exit-code --format tsv >"$work/trend$r" 2>"$work/trend$r.err"
    rc=$?
    flagged=$(awk -F'\t' '$4 == "yes" { printf "%s %s; ", $6, $5 }' "$work/trend$r")
    echo "run $r: $(echo "$dumps" | wc -l) dumps, $id requests, trend --exit-code: $rc${flagged:+, flagged: $flagged}"
    [ "$rc" = 0 ] || failed=1
    [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp $dumps "$KEEP/"
done
exit $failed
