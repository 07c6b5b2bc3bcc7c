#!/bin/sh
# Traces a real program nobody here wrote (issue 51): the OCaml compiler.
# Builds ocamlopt from Debian's OCaml 4.13 compiler-libs (compiler-libs.optcomp)
# with Memtrace 0.2.3 linked in (tests/memtrace/setup.sh builds it), through
# the library's own trace_ocamlopt/ocamlopt.ml from its tarball (its two lines:
# Memtrace.trace_if_requested, then Optmaindriver.main), into the cache
#   ~/.cache/leakfind/ocamlopt-4.13-memtrace-0.2.3/ocamlopt
# then runs it with MEMTRACE=OUT while it compiles (-c, one process, in
# dependency order) the library's own src/*.mli and src/*.ml from that tarball.
# tests/memtrace/regen.sh calls it for fixtures/memtrace/ocamlopt-4.13.*.
# usage: sh tests/memtrace/trace_ocamlopt.sh OUT.ctf [RATE]   (RATE 1e-4)
set -eu
out=$1 rate=${2:-1e-4}
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${LEAKFIND_CACHE:-$HOME/.cache/leakfind}
tarball="$top/../shared/toolchains/memtrace-0.2.3.tar.gz"
lib="$cache/memtrace-0.2.3-ocaml-4.13"
dest="$cache/ocamlopt-4.13-memtrace-0.2.3"
# the library's modules in dependency order (as tests/memtrace/setup.sh builds them)
modules="geometric_sampler buf backtrace_codec location_codec trace memprof_tracer memtrace"

[ -f "$lib/memtrace.cmxa" ] || sh "$top/tests/memtrace/setup.sh" 0.2.3
work=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-ocamlopt.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar xzf "$tarball" -C "$work" memtrace-0.2.3/trace_ocamlopt/ocamlopt.ml memtrace-0.2.3/src

# Memtrace's Trace and the toplevel's (in compiler-libs, not linked into
# optcomp) share a name: findlib's warning about it is expected.
if [ ! -x "$dest/ocamlopt" ]; then
    mkdir -p "$dest"
    (cd "$work/memtrace-0.2.3/trace_ocamlopt" &&
        ocamlfind ocamlopt -g -package unix,threads.posix,compiler-libs.optcomp -thread -linkpkg \
            -I "$lib" "$lib/memtrace.cmxa" ocamlopt.ml -o "$dest/ocamlopt" 2>&1 |
        grep -v 'Interface trace.cmi occurs\|Interface topdirs.cmi occurs' >&2 || true)
    [ -x "$dest/ocamlopt" ] || { echo "trace_ocamlopt: ocamlopt did not build" >&2; exit 1; }
fi

files=$(cd "$work/memtrace-0.2.3/src" &&
    for m in $modules; do [ -f "$m.mli" ] && printf '%s.mli ' "$m"; printf '%s.ml ' "$m"; done)
rm -f "$work/trace.ctf"
# shellcheck disable=SC2086 # the files are words
(cd "$work/memtrace-0.2.3/src" &&
    MEMTRACE="$work/trace.ctf" MEMTRACE_RATE=$rate "$dest/ocamlopt" -g -I +threads -c $files)
# what it compiled is there: the compiler worked while traced
for m in $modules; do
    [ -f "$work/memtrace-0.2.3/src/$m.cmx" ] || { echo "trace_ocamlopt: no $m.cmx" >&2; exit 1; }
done
cp "$work/trace.ctf" "$out"
