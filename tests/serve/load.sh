#!/bin/sh
# tests/serve/load.sh BUILD_DIR: `leakfind serve` under 32 clients at once
# (build/serve_load, tests/serve/load.c) on a dump of about a million
# objects, a few seconds: every answer under load must be the one a single
# client got first. Correctness only: the latencies it prints are not
# checked (make bench times them). The dump is build/gen_arrays' one array
# of 2^20 elements (tests/bench/gen_arrays.c), whose Items are known by
# construction: element i is an Item of its own unless i % 7 == 3 (null) or
# i % 1000 == 999 (element i - 1's again), and the Item of element 5 is
# also the Holder's field `first`, so the Holder dominates it; the array
# 0x20000000 dominates every other.
set -u
build=$(cd "${1:-build}" && pwd)
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/serve/lib.sh
lf=$build/leakfind
tmp=$(mktemp -d)
pid=""
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

len=1048576
"$build/gen_arrays" "$tmp/arrays.hprof" 0 1 >/dev/null
items=$(awk -v n=$len 'BEGIN { for (i = 0; i < n; i++) if (i % 7 != 3 && i % 1000 != 999) k++; print k }')

"$lf" serve "$tmp/arrays.hprof" >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=$(serve_wait_url "$tmp/out" "$pid" 300)
case $url in http://127.0.0.1:*) ok "serve started" ;; *) bad "serve started" "$(cat "$tmp/err")"; finish ;; esac
base=${url%%/\?t=*} token=${url##*\?t=}

expect "the array dominates its Items but element 5's" $((items - 1)) \
    "$(curl -s "$base/api/children?t=$token&id=0x20000000&count=1&raw=1" | jq .total)"
expect "the array's members: every Item it holds" $((items - 1)) \
    "$(curl -s "$base/api/children?t=$token&id=0x20000000&count=1" | jq .collection.members)"

# the node is found by the client's descent: from the root, the child with
# the most children
"$build/serve_load" "$url" --clients 32 --seconds 3 >"$tmp/load" 2>"$tmp/load.err"
status=$?
expect "32 clients: exit 0" 0 "$status"
expect "32 clients: paged the array" "node 0x20000000" "$(head -1 "$tmp/load" | cut -d: -f1)"
last=$(tail -1 "$tmp/load")
case $last in
*" requests, 0 wrong")
    n=${last%% *}
    if [ "$n" -gt 0 ]; then ok "32 clients: $last"; else bad "32 clients: some requests" "$last"; fi ;;
*) bad "32 clients: every answer the first one" "$last" "$(head -5 "$tmp/load.err")" ;;
esac
for kind in children object referrers paths; do
    expect "32 clients: $kind asked" 1 "$(awk -v k=$kind '$1 == k && $2 > 0' "$tmp/load" | wc -l)"
done
# the client fails when the server refuses it (a token one digit off)
expect "a wrong token is no answer: exit 1" 1 \
    "$("$build/serve_load" "${url%?}$(printf %s "$url" | tail -c1 | tr 0-9a-f 1-9a-f0)" --seconds 1 >/dev/null 2>&1; echo $?)"
expect "the server still answers" 200 "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/overview?t=$token")"
kill -TERM "$pid"
wait "$pid"
expect "SIGTERM after the load: exit 0" 0 "$?"
pid=""
finish
