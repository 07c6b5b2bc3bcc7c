#!/bin/sh
# Checks leakfind against Chrome DevTools' own numbers (made by
# tests/v8/devtools/reference.sh from chrome-devtools-frontend's heap snapshot
# worker, so nothing here comes from leakfind).
#
#   devtools_check.sh nodes LEAKFIND SNAPSHOT REF.tsv[.gz]
#       every node: self size, immediate dominator, retained size
#   devtools_check.sh digest LEAKFIND SNAPSHOT REF.digest
#       the same through a digest of all nodes (for references too big to keep)
#   devtools_check.sh make-digest REF.tsv[.gz]      prints a digest
#   devtools_check.sh classes LEAKFIND SNAPSHOT REF-aggregates.tsv
#       count, self size and retained size of every class of the Summary view
#       (DevTools calls the class retained size maxRet)
#   devtools_check.sh diff LEAKFIND BEFORE AFTER REF-diff.tsv
#       # New, # Deleted, Alloc. Size, Freed Size of every class of the Comparison
#   devtools_check.sh sites LEAKFIND SNAPSHOT REF-sites.tsv
#       live count and live size of every function of the Allocation view (a
#       snapshot written with allocation tracking) against `leakfind sites
#       --stack 1`: sizes as DevTools' liveSize; counts without objects of self
#       size 0, as the Summary counts (DevTools' liveCount has them; the
#       reference's live_count_sized leaves them out). DevTools' "(root)"
#       function is no frame: its objects are leakfind's "(no site)".
#
# The one deviation (docs/V8.md): DevTools' root retains every node, leakfind's
# root what the root reaches; nodes DevTools hangs under the root because
# nothing retains them are top-level entries here. So the root's retained size
# is not compared, and "dominated by the super-root" reads as "by the root".
set -u
mode=$1
shift
cat_any() { case "$1" in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Reference lines "id self retained dominator", root first (DevTools order).
reference() { cat_any "$1" | awk -F'\t' '!/^#/ {print $1, $6, $7, $8}'; }
# leakfind's, for the same nodes: its super-root becomes the root's id.
ours() {
    "$1" dominators "$2" --flat --top 0 --min 0 --format tsv >"$tmp/ours" || exit 1
    awk -F'\t' 'NR > 1 {id = substr($2, 2); d = $3; sub(/^@/, "", d); print id, $4, $5, d}' "$tmp/ours"
}
digest() { # digest ROOT < "id self retained dominator" lines; the root left out
    awk -v root="$1" '$1 == root {next}
         {t = ($1 * 131 + $2 * 31 + $3 * 7 + ($4 == "" ? root : $4)) % 1000000007; s = (s + t) % 1000000007; n++}
         END {printf "root %s: %d nodes, digest %d\n", root, n, s}'
}

case $mode in
make-digest)
    reference "$1" >"$tmp/ref"
    digest "$(awk '{print $1; exit}' "$tmp/ref")" <"$tmp/ref"
    ;;
digest)
    want=$(cat "$3")
    got=$(ours "$1" "$2" | digest "$(echo "$want" | awk '{sub(/:$/, "", $2); print $2}')")
    [ "$got" = "$want" ] || { echo "digest differs: got $got, DevTools $want"; exit 1; }
    echo "ok: $got"
    ;;
nodes)
    reference "$3" >"$tmp/ref"
    ours "$1" "$2" >"$tmp/mine"
    awk 'FNR == NR {self[$1] = $2; ret[$1] = $3; dom[$1] = $4; n++; next}
         FNR == 1 {root = $1}
         { total++
           if (!($1 in self)) { bad++; if (bad <= 5) print "missing @" $1; next }
           d = dom[$1] == "" ? root : dom[$1]
           if (self[$1] != $2 || d != $4 || ($1 != root && ret[$1] != $3)) {
               bad++
               if (bad <= 5) print "@" $1 ": self/dominator/retained " self[$1] " @" d " " ret[$1] ", DevTools " $2 " @" $4 " " $3
           } }
         END { if (n != total) { print n " nodes, DevTools " total; bad++ }
               if (bad) { print bad " differences"; exit 1 }
               print "ok: " total " nodes agree" }' "$tmp/mine" "$tmp/ref"
    ;;
classes)
    "$1" classes "$2" --top 0 --format tsv >"$tmp/mine" || exit 1
    # DevTools keys classes by location too: rows of one name are summed.
    awk -F'\t' 'FNR == NR {if (FNR > 1) {c[$5] += $1; s[$5] += $2; r[$5] += $3} next}
         /^#/ {next}
         {dc[$2] += $3; ds[$2] += $4; dr[$2] += $5}
         END { for (k in dc) { n++; if (c[k] != dc[k] || s[k] != ds[k] || r[k] != dr[k]) { bad++; if (bad <= 5) print k ": " c[k] " " s[k] " " r[k] ", DevTools " dc[k] " " ds[k] " " dr[k] } }
               for (k in c) if (!(k in dc)) { bad++; if (bad <= 5) print k ": not in DevTools" }
               if (bad) { print bad " differences"; exit 1 }
               print "ok: " n " classes agree" }' "$tmp/mine" "$3" || exit 1
    # Row by row: DevTools keys an object class by its constructor's place
    # too; leakfind has one row for a name's located objects and one for its
    # others (docs/V8.md 4.2), so DevTools' located rows of a name are summed.
    awk -F'\t' 'NR > 1 {print $5 "\t" $1 "\t" $2 "\t" $3}' "$tmp/mine" | sort >"$tmp/mine.rows"
    awk -F'\t' '!/^#/ { k = $2 SUBSEP (substr($1, 1, 1) == "," ? "U" : "L"); c[k] += $3; s[k] += $4; r[k] += $5; n[k] = $2 }
         END { for (k in c) print n[k] "\t" c[k] "\t" s[k] "\t" r[k] }' "$3" | sort >"$tmp/theirs.rows"
    if ! cmp -s "$tmp/mine.rows" "$tmp/theirs.rows"; then
        echo "rows differ (leakfind <, DevTools >):"; diff "$tmp/mine.rows" "$tmp/theirs.rows" | head -10; exit 1
    fi
    echo "ok: $(wc -l <"$tmp/mine.rows") rows agree"
    ;;
diff)
    # --all: DevTools lists the classes whose objects were replaced one for one
    "$1" diff "$2" "$3" --all --format tsv >"$tmp/mine" || exit 1
    awk -F'\t' 'FNR == NR {if (FNR > 1) {nw[$10] = $6; dl[$10] = $7; nb[$10] = $8; fb[$10] = $9} next}
         /^#/ {next}
         { n++; k = $2
           if (nw[k] + 0 != $3 || dl[k] + 0 != $4 || nb[k] + 0 != $6 || fb[k] + 0 != $7) {
               bad++; if (bad <= 5) print k ": " nw[k] " " dl[k] " " nb[k] " " fb[k] ", DevTools " $3 " " $4 " " $6 " " $7 }
           seen[k] = 1 }
         END { for (k in nw) if ((nw[k] || dl[k]) && !(k in seen)) { bad++; if (bad <= 5) print k ": changed here, not in DevTools" }
               if (bad) { print bad " differences"; exit 1 }
               print "ok: " n " classes agree" }' "$tmp/mine" "$4"
    ;;
sites)
    "$1" sites "$2" --stack 1 --top 0 --format tsv >"$tmp/mine" || exit 1
    # the reference's function, script, line, column as leakfind labels a frame
    awk -F'\t' 'FNR == NR {if (FNR > 1) {c[$7] = $1; s[$7] = $2} next}
         /^#/ {next}
         $1 == "(root)" && $2 == "" && $3 == 0 {next}
         { fn = $1 == "" ? "(anonymous)" : $1
           k = $2 == "" ? fn : $3 == 0 ? fn " (" $2 ")" : $4 == 0 ? fn " (" $2 ":" $3 ")" : fn " (" $2 ":" $3 ":" $4 ")"
           n++; seen[k] = 1
           if (c[k] + 0 != $7 || s[k] + 0 != $6) {
               bad++; if (bad <= 5) print k ": " c[k] + 0 " " s[k] + 0 ", DevTools " $7 " " $6 } }
         END { for (k in c) if (k != "(no site)" && !(k in seen)) { bad++; if (bad <= 5) print k ": not in DevTools" }
               if (bad) { print bad " differences"; exit 1 }
               print "ok: " n " functions agree" }' "$tmp/mine" "$3"
    ;;
*)
    echo "usage: see the header of $0" >&2
    exit 2
    ;;
esac
