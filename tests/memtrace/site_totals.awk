# site_totals.awk - per-site totals of a trace's blocks, from the library's
# own listing of its events (tests/memtrace/list_events.ml), as `leakfind
# sites TRACE --stack 1 --top 0 --format tsv` should give them: one line
# per innermost frame, "count shallow est_bytes site", for the blocks a
# window keeps. Times in microseconds since the trace began; -v variables:
#   live_at     a block allocated at or before it and collected after it
#               (or never); "end" (default): never collected
#   from, to    and allocated from `from` to `to` (when from is given)
#   lb_from, lb_to  instead of live_at: live at some moment from lb_from
#               to lb_to (allocated by lb_to, not collected by lb_from)
#   pct         1: live_at, from and to are percentages of the run (the
#               last event's time), rounded as leakfind rounds them
# word size 8 (64-bit traces).
$1 == "info" { rate = $2; next }
$1 == "alloc" {
    id = $2
    t[id] = $3; len[id] = $4; smp[id] = $5
    n = split($0, parts, " > ")
    site = parts[n]
    if (n == 1) { sub(/^alloc [0-9]+ [0-9]+ [0-9]+ [0-9]+ [a-z]+ /, "", site) }
    label[id] = site
    if ($3 > last) last = $3
    next
}
$1 == "collect" { dead[$2] = $3; if ($3 > last) last = $3; next }
$1 == "promote" { if ($3 > last) last = $3; next }
function resolve(v) { return pct ? int(v / 100 * last + 0.5) : v }
END {
    at = (live_at == "" || live_at == "end") ? -1 : resolve(live_at)
    lo = from == "" ? -1 : resolve(from)
    hi = to == "" ? -1 : resolve(to)
    lbf = lb_from == "" ? -1 : resolve(lb_from)
    lbt = lb_to == "" ? -1 : resolve(lb_to)
    for (id in t) {
        c = (id in dead) ? dead[id] : -1
        if (lbf >= 0) { if (!(t[id] <= lbt && (c < 0 || c > lbf))) continue }
        else if (at < 0) { if (c >= 0) continue }
        else if (!(t[id] <= at && (c < 0 || c > at))) continue
        if (lo >= 0 && !(t[id] >= lo && t[id] <= hi)) continue
        s = label[id]
        count[s]++; shallow[s] += (len[id] + 1) * 8; samples[s] += smp[id]
    }
    for (s in count) printf "%d\t%d\t%.0f\t%s\n", count[s], shallow[s], samples[s] / rate * 8, s
}
