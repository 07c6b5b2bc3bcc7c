#!/bin/sh
# Reference point for leakfind's `dominators`: VisualVM's heap library
# (Debian package `visualvm`, jar org-graalvm-visualvm-lib-jfluid-heap.jar)
# computing retained sizes for a whole HPROF dump, headless. Compiles
# VisualVMRetained.java into a fresh temp dir, runs it once under
# /usr/bin/time -v and prints the harness's phase times (open, retained,
# by-class), then wall time, user+sys CPU and peak RSS of the JVM.
#
# Cold runs: the library keeps its index files in "<dump>.hwcache/" next to
# the dump it is given, and reuses them if present. We hand it a symlink to
# the dump inside the temp dir (and set java.io.tmpdir there too), so every
# run starts with no cache, nothing is written beside the real dump, and the
# temp dir is deleted on exit. The dump itself is read once with cat first so
# the page cache is warm (as tests/bench/run.sh does for leakfind): this
# measures the analyzer, not the disk. Peak RSS includes file-backed pages of
# the mmapped dump and of the library's mmapped index files.
#
# usage: tests/bench/visualvm/run.sh DUMP [harness args, e.g. --top 5 --static PlantedLeak.LEAK]
# env:   JAVA_OPTS (default -Xmx20g)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DUMP [--top N] [--static Class.field]..." >&2; exit 2; }
dump=$(readlink -f "$1")
shift
[ -f "$dump" ] || { echo "no such dump: $dump" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
jar=$(dpkg -L visualvm 2>/dev/null | grep '/org-graalvm-visualvm-lib-jfluid-heap\.jar$' | head -n1 || true)
[ -n "$jar" ] && [ -f "$jar" ] || { echo "install it first: apt-get install -y visualvm time" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "install it first: apt-get install -y time" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/vvm-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/classes" "$work/dump" "$work/tmp"
javac -nowarn -d "$work/classes" -cp "$jar" "$here/VisualVMRetained.java"
ln -s "$dump" "$work/dump/$(basename "$dump")"

echo "# VisualVM $(dpkg-query -W -f '${Version}' visualvm) heap library: $jar"
echo "# $(java -version 2>&1 | head -n1), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
cat "$dump" >/dev/null
/usr/bin/time -v -o "$work/time.txt" \
    java ${JAVA_OPTS:--Xmx20g} -Djava.io.tmpdir="$work/tmp" -cp "$jar:$work/classes" \
    VisualVMRetained "$work/dump/$(basename "$dump")" "$@"
awk -F': ' '
    /Elapsed \(wall clock\)/ { wall = $2 }
    /User time/              { user = $2 }
    /System time/            { sys = $2 }
    /Maximum resident set/   { rss = $2 }
    /Exit status/            { rc = $2 }
    END { printf "wall %s (h:mm:ss or m:ss), user %.2f s + sys %.2f s = %.2f s CPU, max RSS %d KiB (%.2f GiB), exit %s\n",
                 wall, user, sys, user + sys, rss, rss / 1048576, rc }' "$work/time.txt"
echo "# index cache written by the library (deleted now): $(du -sh "$work/dump" | cut -f1)"
