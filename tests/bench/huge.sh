#!/bin/sh
# make bench-huge (issue 52): a synthetic JVM dump of SCALE million objects
# (1000 by default: twice this machine's RAM) with 4-byte ids
# (gen_hprof_big --id-size 4: about 31 bytes per object), then `dominators
# --top 10` on it with what it holds sampled (tests/bench/sample.py: RssAnon,
# RSS, its result and spill files on disk, the file system's used space),
# and its top two rows checked against the generator's construction.
#
# The disk is checked first: the dump, plus the arrays in files at the run's
# peak (docs/MEMORY.md, "On disk": 42.35 bytes per object of results at the
# end, 43-45 at the peak with the working arrays past half the budget
# spilled beside the snapshot), plus a margin, must fit in what df says is
# free, else it refuses.
# usage: tests/bench/huge.sh BUILD_DIR [SCALE [MEMORY]]
#   MEMORY: a --memory for the run (default: leakfind's own budget)
set -eu
build=${1:-build}
scale=${2:-1000}
memory=${3:-}
cd "$(dirname "$0")/../.."
mkdir -p bench-data
f=bench-data/huge-${scale}m.hprof
objects=$((scale * 1000000))
tmp=${TMPDIR:-/tmp}
# bytes per object, measured (BENCHMARKS 1.7): the dump with 4-byte ids,
# the arrays in files at the peak (43 at 100M objects with a planned spill,
# +1 for the record offsets past 4 GiB, +2 to spare), a margin for the rest
dump_per_object=32
files_per_object=46
margin=$((2 << 30))

free_bytes() { df -B1 --output=avail "$1" | tail -1 | tr -d ' '; }
gb() { awk -v b="$1" 'BEGIN {printf "%.1f GB", b / 1e9}'; }

newest=$(ls -t tests/bench/gen_hprof_big.c tests/bench/big_*.[ch] | head -1)
fresh=0
[ -f "$f" ] && [ -f "$f.plan" ] && [ "$f" -nt "$newest" ] && fresh=1
dump_need=0
[ "$fresh" = 1 ] || dump_need=$((objects * dump_per_object))
files_need=$((objects * files_per_object))
# the dump and the arrays' files may share a file system (they do here)
if [ "$(stat -c %d bench-data)" = "$(stat -c %d "$tmp")" ]; then
    set -- "$((dump_need + files_need + margin))" bench-data
else
    set -- "$((dump_need + margin))" bench-data "$((files_need + margin))" "$tmp"
fi
while [ $# -gt 0 ]; do
    free=$(free_bytes "$2")
    if [ "$1" -gt "$free" ]; then
        echo "bench-huge: ${scale}M objects need about $(gb "$1") in $2 (the dump $(gb "$dump_need"), the arrays' files at the peak $(gb "$files_need"), a margin $(gb "$margin")), and only $(gb "$free") is free there" >&2
        exit 1
    fi
    shift 2
done

echo "# leakfind bench-huge, $(date -u +%Y-%m-%d), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(gb "$(free_bytes bench-data)") free"
if [ "$fresh" = 0 ]; then
    rm -f "$f" "$f.plan"
    echo "# generating $f"
    t0=$(date +%s.%N)
    "$build/gen_hprof_big" --id-size 4 "$f" "$objects" >"$f.plan.tmp"
    t1=$(date +%s.%N)
    echo "generated	$(awk "BEGIN {printf \"%.1f\", $t1 - $t0}") s" >>"$f.plan.tmp"
    mv "$f.plan.tmp" "$f.plan"
fi
plan() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$f.plan"; }
bytes=$(stat -c %s "$f")
echo "## $f: $(plan objects) objects, $(gb "$bytes"), generated in $(plan generated)"

out=bench-data/huge-${scale}m.out
trace=bench-data/huge-${scale}m.trace.tsv
set -- dominators --top 10
[ -n "$memory" ] && set -- "$@" --memory "$memory"
python3 tests/bench/sample.py "$trace" "$tmp" "$build/leakfind" "$@" "$f" >"$out" \
    2>bench-data/huge-${scale}m.err || { cat bench-data/huge-${scale}m.err >&2; exit 1; }
read -r _ wall anon rss files used user sys <<EOF
$(grep '^peak ' bench-data/huge-${scale}m.err | tail -1)
EOF
awk -v c="leakfind $*" -v w="$wall" -v u="$user" -v s="$sys" -v a="$anon" -v r="$rss" -v f="$files" \
    -v d="$used" -v o="$(plan objects)" -v b="$bytes" 'BEGIN {
    printf "%s: %.1f s (user %.1f, system %.1f), peak anon %.2f GiB (%.1f B/object), peak RSS %.2f GiB\n",
        c, w, u, s, a / 1048576, a * 1024 / o, r / 1048576
    printf "disk: the dump %.1f GB, the run'"'"'s files at most %.2f GB (%.1f B/object), the file system %.2f GB more used at most\n",
        b / 1e9, f * 1024 / 1e9, f * 1024 / o, d * 1024 / 1e9 }'

# the top two rows against the construction: BigHeap.ROOTS, then its array
bad=0
check() { # ROW COLUMN WANT
    got=$(awk -F'\t' -v r="$1" -v c="$2" 'NR == r + 2 {print $c}' "$out")
    if [ "$got" != "$3" ]; then
        echo "bench-huge: row $1 column $2 is '$got', the construction says '$3'" >&2
        bad=1
    fi
}
check 0 2 "$(plan roots_id)"
check 0 4 "$(plan roots_shallow)"
check 0 7 java.util.ArrayList
check 1 2 "$(plan roots_array_id)"
check 1 3 "$(plan roots_id)"
check 1 4 "$(plan roots_array_shallow)"
check 1 7 "java.lang.Object[]"
[ "$bad" = 0 ] && echo "top rows: as constructed (BigHeap.ROOTS $(plan roots_id), its array $(plan roots_array_id))"
exit "$bad"
