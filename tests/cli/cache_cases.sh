# --cache: the analysed dump kept in DUMP.leakfind-cache (cmd/cli/cli.c, core/input/cache.c).
# Expected rows come from PlantedLeak's construction (hprof_cases.sh: the list
# retains 140,040 bytes); a cached answer must equal the uncached one byte for
# byte, and -v says whether the cache was absent, used, stale or written.
mkdir -p "$tmp/cache"
cp $J/planted_leak.hprof "$tmp/cache/leak.hprof"
C="$tmp/cache/leak.hprof"
cache_note_() { # NAME EXPECTED-NOTES ARGS... : the -v notes, one word each, in order
    name=$1 want=$2
    shift 2
    "$LF" "$@" -v >"$tmp/out" 2>"$tmp/err" </dev/null
    code=$?
    got=$(sed -n "s/^leakfind: note: .* cache '[^']*' \([a-z]*\).*/\1/p" "$tmp/err" | tr '\n' ' ')
    if [ $code = 0 ] && [ "$got" = "$want" ]; then ok; else
        bad "$name: exit $code, notes '$got', expected '$want'"; head -3 "$tmp/err"; fi
}
# A cache keeps no string texts (the dump's own bytes): the value column, a
# string's preview, is blanked before the outputs are compared.
no_values() {
    awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "value") c = i } c { $c = "" } { print }'
}
same_() { # NAME ARGS... : output with --cache (a hit) equals output without, but texts
    name=$1
    shift
    "$LF" "$@" 2>&1 </dev/null | no_values >"$tmp/plain"
    "$LF" "$@" --cache 2>&1 </dev/null | no_values >"$tmp/cached"
    if cmp -s "$tmp/plain" "$tmp/cached"; then ok; else
        bad "$name: cached output differs"; diff "$tmp/plain" "$tmp/cached" | head -5; fi
}
cache_note_ cache_first_run "absent written " dominators "$C" --cache --top 1
[ -f "$C.leakfind-cache" ] && ok || bad "cache_file: not written"
cache_note_ cache_second_run "used " dominators "$C" --cache --top 1
rows_ cache_hit_owner "0 java.util.ArrayList 24 140040 static field PlantedLeak.LEAK" \
    'NR == 2 {print $1, $7, $4, $5, $11}' dominators "$C" --cache --depth 2
same_ cache_same_dominators dominators "$C" --top 0 --min 0
same_ cache_same_classes classes "$C" --top 0
same_ cache_same_roots roots "$C"
# path computes no dominators, but a cache holds them: the retained column is filled.
rows_ cache_path_retained "0xfd5bf4d8 24 140040 java.util.ArrayList" \
    'NR == 2 {print $5, $6, $7, $8}' path "$C" 0xfd5bf4d8 --cache
cp $J/planted_leak.hprof "$tmp/cache/before.hprof" # --cache caches every input: none in the tree
same_ cache_same_diff diff "$tmp/cache/before.hprof" "$C"
# A hit reads no byte of the dump past its first and last MiB: a byte changed
# in the middle, with size and time kept, still gets the cached answer (the
# key's documented limit), while a changed time makes the cache stale.
cp -p "$C" "$tmp/cache/orig.hprof"
printf 'X' | dd of="$C" bs=1 seek=1200000 conv=notrunc 2>/dev/null
touch -r "$tmp/cache/orig.hprof" "$C"
cache_note_ cache_key_middle_unread "used " dominators "$C" --cache --top 1
cp -p "$tmp/cache/orig.hprof" "$C"
touch "$C"
cache_note_ cache_touched_stale "stale written " dominators "$C" --cache --top 1
# Read options are part of the key: soft/all references as strong make another graph.
cache_note_ cache_other_options "stale written " dominators "$C" --cache --strong all --top 1
cache_note_ cache_options_back "stale written " dominators "$C" --cache --top 1
# A cut-off or corrupt cache is not trusted: it is replaced, the answer is still right.
head -c 5000 "$C.leakfind-cache" >"$tmp/cache/cut" && mv "$tmp/cache/cut" "$C.leakfind-cache"
cache_note_ cache_cut_replaced "unreadable written " dominators "$C" --cache --top 1
rows_ cache_cut_answer "140040" 'NR == 2 {print $5}' dominators "$C" --cache --top 1 -q
printf '\377\377\377\377' | dd of="$C.leakfind-cache" bs=1 seek=2000 conv=notrunc 2>/dev/null
cache_note_ cache_corrupt_replaced "unreadable written " dominators "$C" --cache --top 1
# A cache that cannot be written is a warning; the answer is still given.
rm -f "$C.leakfind-cache"
mkdir "$C.leakfind-cache"
rows_ cache_unwritable "140040" 'NR == 2 {print $5}' dominators "$C" --cache --top 1 -q
"$LF" dominators "$C" --cache --top 1 >/dev/null 2>"$tmp/err"
grep -q "^leakfind: warning: '.*leak.hprof.leakfind-cache': cache not written" "$tmp/err" && ok ||
    { bad "cache_unwritable_warning"; cat "$tmp/err"; }
rmdir "$C.leakfind-cache"
# A leakfind file needs no cache; a V8 snapshot gets one like a Java dump.
cp fixtures/example/app.lfs "$tmp/cache/app.lfs"
"$LF" info "$tmp/cache/app.lfs" --cache >/dev/null 2>&1
[ ! -e "$tmp/cache/app.lfs.leakfind-cache" ] && ok || bad "cache_lfs: cache written"
cp fixtures/node/listener_leak-2.heapsnapshot.gz "$tmp/cache/l2.heapsnapshot.gz"
cache_note_ cache_v8_first "absent written " dominators "$tmp/cache/l2.heapsnapshot.gz" --cache --top 1
same_ cache_v8_same dominators "$tmp/cache/l2.heapsnapshot.gz" --top 0 --min 0
cp fixtures/node/listener_leak-1.heapsnapshot.gz "$tmp/cache/l1.heapsnapshot.gz"
same_ cache_v8_diff diff "$tmp/cache/l1.heapsnapshot.gz" "$tmp/cache/l2.heapsnapshot.gz"
[ -z "$(find fixtures -name '*.leakfind-cache')" ] && ok ||
    bad "cache_tree_untouched: caches written in fixtures/"
