#!/bin/sh
# compare_histogram.sh HISTO CLASSES_TSV: compares `jcmd GC.class_histogram`
# output with `leakfind classes --top 0` (TSV): per class name, the instance
# count and the bytes. Prints differences; exits 1 when any class differs.
# A hidden class is "Foo$$Lambda$1/0x..." in the histogram (Class.getName())
# and "Foo$$Lambda$1+0x..." in the dump, which leakfind shows as written.
awk -F'\t' '
function javaname(n,   dims, base, prim) {
    dims = 0
    while (substr(n, 1, 1) == "[") { dims++; n = substr(n, 2) }
    if (dims == 0) return n
    split("B byte C char D double F float I int J long S short Z boolean", p, " ")
    for (i = 1; i < 16; i += 2) prim[p[i]] = p[i + 1]
    if (n in prim) base = prim[n]
    else base = substr(n, 2, length(n) - 2)
    for (i = 0; i < dims; i++) base = base "[]"
    return base
}
FNR == NR {
    if (split($0, f, " ") >= 4 && f[1] ~ /^[0-9]+:$/) {
        name = javaname(f[4]); sub(/\/0x/, "+0x", name); hc[name] += f[2]; hb[name] += f[3]; seen[name] = 1
    }
    next
}
FNR > 1 { lc[$5] += $1; lb[$5] += $2; seen[$5] = 1 }
END {
    bad = 0
    for (n in seen) {
        if (hc[n] == lc[n] && hb[n] == lb[n]) continue
        print n ": histogram " hc[n] " objects " hb[n] " bytes, leakfind " lc[n] " objects " lb[n] " bytes"
        bad = 1
    }
    exit bad
}' "$1" "$2"
