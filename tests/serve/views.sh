#!/bin/sh
# Tests of `leakfind serve`'s views compare, query, strings, threads and
# sites (docs/SERVE.md): servers on fixtures whose contents are known from
# how they were made, asked with curl, the answers' fields picked with node.
# Every expected number comes from a fixture's construction (the comment of
# the text graph, the program that made the dump), never from leakfind.
# usage: tests/serve/views.sh BUILD_DIR    Last line: "N passed, M failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
lf=$build/leakfind
out=$build/serve-views-test
rm -rf "$out"
mkdir -p "$out"
. tests/lib.sh
. tests/serve/lib.sh

pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null; done' EXIT INT TERM

# start NAME SNAPSHOT...: a server in the background; its URL's base in
# base_NAME and token in token_NAME once it printed the URL (30 s at most)
start() {
    name=$1
    shift
    "$lf" serve "$@" >"$out/$name.url" 2>"$out/$name.err" &
    pids="$pids $!"
    url=$(serve_wait_url "$out/$name.url" "$!" 300)
    case $url in
    http://127.0.0.1:*/?t=*) ok "serve $name: the URL" ;;
    *) bad "serve $name: no URL" "$(cat "$out/$name.err")" ;;
    esac
    eval "base_$name=\${url%%\\?*} token_$name=\${url##*t=}"
}

# ask NAME VIEW [ARG=VALUE...]: the answer's body in $out/body, its
# status in $status; each value URL-encoded (a query's spaces and quotes)
ask() {
    name=$1 view=$2
    shift 2
    eval "b=\$base_$name t=\$token_$name"
    for a in "$@"; do
        set -- "$@" --data-urlencode "$a"
        shift
    done
    status=$(curl -s -G -o "$out/body" -w '%{http_code}' "${b}api/$view" --data-urlencode "t=$t" "$@")
}

# pick EXPR: EXPR (JavaScript over the answer, d) of $out/body; a string
# as it is, anything else as JSON
pick() {
    node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
let v;
try { v = eval(process.argv[2]); } catch (e) { v = "(" + e.message + ")"; }
console.log(typeof v === "string" ? v : JSON.stringify(v));' "$out/body" "$1" 2>&1
}

# --- a pair made here: what sort=bytes and sort=count order differently ---
# before: A 1 x 1000 B, B 1 x 10 B, Gone 1 x 8 B; after: A 2 (+1, +1000 B),
# B 5 (+4, +40 B), no Gone: bytes put A first, count B; Holder (16 B both
# times) grew in retained bytes only: after both; Gone has no class in
# after (cls null)
printf 'node\t1\t16\tHolder\nroot\t1\tstatic field\tHolder.ALL\nnode\t2\t1000\tA\nedge\t1\t2\tstrong\ta0\nnode\t3\t10\tB\nedge\t1\t3\tstrong\tb0\nnode\t4\t8\tGone\nedge\t1\t4\tstrong\tg\n' >"$out/before.txt"
{
    printf 'node\t1\t16\tHolder\nroot\t1\tstatic field\tHolder.ALL\n'
    printf 'node\t2\t1000\tA\nedge\t1\t2\tstrong\ta0\nnode\t5\t1000\tA\nedge\t1\t5\tstrong\ta1\n'
    for k in 3 6 7 8 9; do printf 'node\t%s\t10\tB\nedge\t1\t%s\tstrong\tb%s\n' $k $k $k; done
} >"$out/after.txt"

start L fixtures/graphs/leak_before.txt fixtures/graphs/leak_after.txt
start C "$out/before.txt" "$out/after.txt"
start S fixtures/graphs/sites.txt
start J fixtures/java/dumps/stack_local.hprof
start N fixtures/node/dup_strings.heapsnapshot.gz
start E fixtures/example/app.lfs
start P fixtures/graphs/sites.txt
start V fixtures/node/sessions.heapsnapshot.gz
start D fixtures/graphs/diamond.txt

# --- compare (leak_before/after.txt: 2 then 5 Listeners of 32 B, each with
# a byte[] of 80 B; Object[] 32 -> 56 B; 3 Entries (24 B) -> 1; Temps churn) ---
ask L compare
expect "compare: 200" 200 "$status"
expect "compare: a, b, by" '0 1 class' "$(pick 'd.a + " " + d.b + " " + d.by')"
expect "compare: byte[] grew most in bytes" 'byte[] [2,5] [160,400]' \
    "$(pick 'd.rows[0].label + " " + JSON.stringify(d.rows[0].count) + " " + JSON.stringify(d.rows[0].shallow)')"
expect "compare: Listener next, retaining its byte[]" 'Listener [64,160] [224,560]' \
    "$(pick 'd.rows[1].label + " " + JSON.stringify(d.rows[1].shallow) + " " + JSON.stringify(d.rows[1].retained)')"
expect "compare: Entry shrank, last" 'Entry [3,1]' \
    "$(pick 'd.rows[d.rows.length - 1].label + " " + JSON.stringify(d.rows[d.rows.length - 1].count)')"
# changed: byte[], Listener, Object[], Entry; retained only: Registry,
# ArrayList, Cache. Temp (4 and 4 of 16 B) and Thread did not change.
expect "compare: the 7 classes that changed, not Temp" '7 false' \
    "$(pick 'd.total + " " + d.rows.some(r => r.label === "Temp")')"
cls=$(pick 'd.rows[1].cls')
ask L classes snap=1 filter=Listener
expect "compare: cls is Listener's class number in b" "$cls" "$(pick 'd.rows[0].cls')"
ask L compare from=1 count=1
expect "compare: a page of one from 1" '1 Listener 7' "$(pick 'd.rows.length + " " + d.rows[0].label + " " + d.total')"
ask L compare filter=LIST
expect "compare: filter, any case" 'Listener,java.util.ArrayList' "$(pick 'd.rows.map(r => r.label).join()')"
ask L compare a=1 b=0
expect "compare: a=1 b=0, Entry grew most" 'Entry [1,3]' "$(pick 'd.rows[0].label + " " + JSON.stringify(d.rows[0].count)')"
ask C compare
expect "compare sort=bytes: A (+1000 B) first" 'A,B,Holder,Gone' "$(pick 'd.rows.map(r => r.label).join()')"
expect "compare: a class gone from b has cls null" 'null' "$(pick 'd.rows[3].cls')"
ask C compare sort=count
expect "compare sort=count: B (+4) first" 'B,A,Holder,Gone' "$(pick 'd.rows.map(r => r.label).join()')"
# by owner: the ArrayList in Registry.INSTANCE.listeners retains itself, its
# Object[] and n Listeners with their byte[]: 2 + 2n objects, 24 + 32 + 112n
# bytes before (n = 2, Object[] 32 B), 24 + 56 + 112n after (n = 5, 56 B);
# the Object[] and the Listeners are inside the collection: one owner
ask L compare by=owner
expect "compare by=owner: the list in Registry.INSTANCE" \
    'static field Registry.INSTANCE (Registry) / listeners (java.util.ArrayList) [6,12] [280,640] [24,24] 1' \
    "$(pick 'let r = d.rows[0]; [r.label, JSON.stringify(r.count), JSON.stringify(r.retained), JSON.stringify(r.shallow), d.total].join(" ")')"
ask L classes snap=1 filter=java.util.ArrayList
cls=$(pick 'd.rows[0].cls')
ask L compare by=owner
expect "compare by=owner: cls of the owner in b" "owner $cls" "$(pick 'd.by + " " + d.rows[0].cls')"
# backwards, the 3 Entries of Cache.INSTANCE grew from 1 (each its own
# owner "[] (Entry)": the one owner that carries Cache's growth)
ask L compare by=owner a=1 b=0
expect "compare by=owner a=1 b=0: Cache's entries" 'static field Cache.INSTANCE (Cache) / [] (Entry) [1,3] 1' \
    "$(pick 'd.rows.map(r => r.label + " " + JSON.stringify(r.count)).join() + " " + d.total')"
ask L compare by=owner filter=REGISTRY
expect "compare by=owner: filter on the path, any case" '1' "$(pick 'd.total')"
ask L compare by=owner filter=Entry
expect "compare by=owner: filter, no match" '0 0' "$(pick 'd.total + " " + d.rows.length')"
for bad_arg in a=2 b=x sort=retained by=place; do
    ask L compare "$bad_arg"
    expect "compare $bad_arg: 400 naming the argument" "400 ${bad_arg%%=*}" "$status $(pick 'd.error.split(/[ =:]/)[0]')"
done

# --- query ---
ask L query "q=select count() from Listener"
expect "query: count() of the 5 Listeners" '["count()"] [[5]] 1' \
    "$(pick 'JSON.stringify(d.columns) + " " + JSON.stringify(d.rows) + " " + d.total')"
ask L query snap=0 "q=select count() from Listener"
expect "query snap=0: 2 Listeners" '[[2]]' "$(pick 'JSON.stringify(d.rows)')"
ask L query "q=select @id, @shallow from Listener order by @id" from=1 count=2
expect "query: a page, ids as strings (nodes 11, 12)" '[["0xb",32],["0xc",32]] 5' \
    "$(pick 'JSON.stringify(d.rows) + " " + d.total')"
ask E query "q=select count() from com.acme.Listener"
expect "query app.lfs: 300 Listeners" '[[300]]' "$(pick 'JSON.stringify(d.rows)')"
ask E query "q=from com.acme.Listener order by @retained desc limit 1"
expect "query app.lfs: a Listener retains 1072 B" '1072 com.acme.Listener' \
    "$(pick 'd.rows[0][d.columns.indexOf("retained")] + " " + d.rows[0][d.columns.indexOf("class")]')"
# "select " is 7 bytes: the caret goes under "from"
ask L query "q=select from where"
expect "query: a syntax error is 400 at byte 7" '400 7' "$status $(pick 'd.at')"
ask L query "q=from Listner"
expect "query: an unknown class, at byte 5, suggests Listener" '400 5 true' \
    "$status $(pick 'd.at + " " + /Listener/.test(d.error)')"
ask L query "q=select nosuch from Listener"
expect "query: an unknown field, at byte 7" '400 7' "$status $(pick 'd.at')"
# sessions.js: 990 Session, state 'ACTIVE' 590, 'IDLE' 200, 'INVALID' 200;
# a misspelt one answers 0, and the note (after the run) names the closest
ask V query "q=select count() from Session where state = 'INVALD'"
expect "query: a text no Session's state has, noted with the closest" \
    "[[0]] 1 true" "$(pick 'JSON.stringify(d.rows) + " " + d.notes.length + " " + /did you mean .INVALID.\?$/.test(d.notes[0])')"
ask V query "q=select count() from Session where state = 'INVALID'"
expect "query: a text some Session's state has: 200, no note" "[[200]] 0" \
    "$(pick 'JSON.stringify(d.rows) + " " + d.notes.length')"
ask L query
expect "query without q: 400 naming q" '400 q: no at' "$status $(pick 'd.error.slice(0, 2) + (d.at === undefined ? " no at" : "")')"

# --- strings ---
# dup_strings.js: 500 copies of "session-state:INVALID", 40 B each: 20,000 B,
# wasted 19,960; 300 concatenations "request-header:gzip-deflate", 32 B each
ask N strings count=1000
expect "strings: session-state:INVALID" '500 20000 19960 true' \
    "$(pick 'let r = d.rows.find(r => r.text === "session-state:INVALID"); r.count + " " + r.bytes + " " + r.wasted + " " + /^@[0-9]+$/.test(r.id)')"
expect "strings: the concatenations joined" '300 9600 9568' \
    "$(pick 'let r = d.rows.find(r => r.text === "request-header:gzip-deflate"); r.count + " " + r.bytes + " " + r.wasted')"
expect "strings: most wasted first" 'session-state:INVALID' "$(pick 'd.rows[0].text')"
ask N strings count=1 from=1
expect "strings: a page of one" '1 false' "$(pick 'd.rows.length + " " + (d.rows[0].text === "session-state:INVALID")')"
ask E strings
expect "strings on an .lfs: no rows and a note" '200 0 0 true' \
    "$status $(pick 'd.rows.length + " " + d.total + " " + /no string texts/.test(d.note)')"

# --- threads (StackLocal.java: worker's run() holds long[100000], 800,016 B;
# main() holds int[50000], 200,016 B, and its String[] args, empty: 16 B) ---
ask J threads
run_line=$(grep -n 'RELEASE.await();' fixtures/java/src/StackLocal.java | cut -d: -f1)
main_line=$(grep -n 'System.in.read();' fixtures/java/src/StackLocal.java | cut -d: -f1)
expect "threads: worker's run() frame" "StackLocal.java $run_line 800016" \
    "$(pick 'let f = d.rows.find(t => t.name === "worker").frames.find(f => f.function === "StackLocal$Worker.run"); f.file + " " + f.line + " " + f.retained')"
expect "threads: main's main() frame" "StackLocal.java $main_line 200032" \
    "$(pick 'let f = d.rows.find(t => t.name === "main").frames.find(f => f.function === "StackLocal.main"); f.file + " " + f.line + " " + f.retained')"
expect "threads: worker first (largest retained), an id" 'worker true' \
    "$(pick 'd.rows[0].name + " " + /^0x/.test(d.rows[0].id)')"
ask N threads
expect "threads on V8: no rows and a note" '200 0 true' "$status $(pick 'd.rows.length + " " + /no stacks/.test(d.note)')"

# --- sites (sites.txt: main (m.ml:9) calls make (a.ml:3:5) for 2 and 3,
# other (b.ml:7) for 4 and loop (m.ml:20), which calls make for 5; 2 -> 3
# and 4 -> 5 in the dominator tree; shallow 100, 100, 50, 100) ---
ask S sites
expect "sites: the top is main, with 4 objects" 'main m.ml 9 4 350 380 3' \
    "$(pick 'let r = d.rows[0]; [d.rows.length === 1 ? r.function : "rows " + d.rows.length, r.file, r.line, r.count, r.shallow, r.retained, r.children].join(" ")')"
main=$(pick 'd.rows[0].site')
ask S sites "site=$main"
expect "sites: main's callees, largest retained first" 'make 2 200 200 0,other 1 50 180 0,loop 1 100 130 1' \
    "$(pick 'd.rows.map(r => [r.function, r.count, r.shallow, r.retained, r.children].join(" ")).join()')"
expect "sites: the site asked" "$main" "$(pick 'd.site')"
loop=$(pick 'd.rows[2].site')
ask S sites "site=$loop"
expect "sites: loop's callee make: 5, retaining 6" 'make a.ml 3 1 130' \
    "$(pick 'd.rows.map(r => [r.function, r.file, r.line, r.count, r.retained].join(" ")).join()')"
ask S sites site=999
expect "sites site=999: 404" '404 true' "$status $(pick '/site/.test(d.error)')"
ask S sites site=-1
expect "sites site=-1: 400 naming site" '400 site' "$status $(pick 'd.error.split(" ")[0]')"
ask L sites
expect "sites on a dump without sites: 404" '404 true' "$status $(pick '/no allocation sites/.test(d.error)')"

# the call tree is built at the first request, once: 8 at once on a
# server not asked before all get the same, whole answer
asked=""
for k in 1 2 3 4 5 6 7 8; do
    curl -s "${base_P}api/sites?t=$token_P&site=1" >"$out/par.$k" &
    asked="$asked $!"
done
for p in $asked; do wait "$p"; done  # not the servers, also children
same=0
for k in 1 2 3 4 5 6 7 8; do cmp -s "$out/par.1" "$out/par.$k" && same=$((same + 1)); done
cp "$out/par.1" "$out/body"
expect "sites: 8 first requests at once agree" '8 make,other,loop' "$same $(pick 'd.rows.map(r => r.function).join()')"

# --- merged paths (make_example.sh: the ArrayList in the static field
# com.acme.Registry.listeners, 322,840 B retained, holds an Object[] of
# 16 + 4 * 300 B whose elements are the Listeners, 1,072 B each) ---
ask E classes filter=com.acme.Listener
lcls=$(pick 'd.rows[0].cls')
ask E paths "cls=$lcls" merge=1 top=3
expect "paths merged: root, array, the Listeners as one node" \
    '0 3 java.util.ArrayList 322840 static field com.acme.Registry.listeners|1 3 java.lang.Object[] 1216 elementData|2 3 com.acme.Listener [] true|3 3' \
    "$(pick '[d.rows.map(r => r.depth === 0 ? [0, r.count, r.object.label, r.object.retained, r.root].join(" ") : r.depth === 1 ? [1, r.count, r.object.label, r.object.shallow, r.field].join(" ") : [2, r.count, r.label, r.field, r.object === null].join(" ")).join("|"), d.targets + " " + d.reached].join("|")')"
ask E paths "cls=$lcls" top=2 raw=1
expect "paths raw=1: each Listener a node, 1072 B" '[0],[1] 1072,1072' \
    "$(pick 'let l = d.rows.filter(r => r.depth === 2); l.map(r => r.field).join() + " " + l.map(r => r.object.retained).join()')"
ask E paths cls=9999
expect "paths cls=9999: 404 naming cls" '404 cls:' "$status $(pick 'd.error.split(" ")[0]')"
ask E paths "cls=$lcls" top=0
expect "paths top=0: 400 naming top" '400 top' "$status $(pick 'd.error.split(" ")[0]')"

# --- an id no object has: the ids one edit away, as the CLI names them ---
# diamond.txt: 40 is one edit from 4, Shared, which alone retains its 500 B
ask D object id=40
expect "object id=40: 404 naming 4" '404 true' \
    "$status $(pick '/^no object with id 40 in .*diamond.txt \(did you mean 4: Shared, retaining 500 B\?\)$/.test(d.error)')"

# --- a snapshot that is not there ---
for view in query strings threads sites; do
    ask L "$view" snap=2 "q=from Listener"
    expect "$view snap=2 of 2: 400 naming snap" '400 snap' "$status $(pick 'd.error.split(" ")[0]')"
done

# --- SIGTERM ends every server with exit 0; built with sanitizers, none of
# them said anything (a leak is reported at that exit) ---
stopped=0
for p in $pids; do
    kill "$p" 2>/dev/null
    wait "$p" && stopped=$((stopped + 1))
done
expect "serve: SIGTERM ends all 9 servers, exit 0" 9 "$stopped"
pids=""
if grep -l 'Sanitizer\|runtime error' "$out"/*.err >/dev/null 2>&1; then
    bad "serve: a sanitizer spoke" "$(grep -h -A5 'Sanitizer\|runtime error' "$out"/*.err | head -20)"
else
    ok "serve: no sanitizer report"
fi

finish
