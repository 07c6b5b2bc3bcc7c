#!/bin/sh
# Builds Jane Street's Memtrace library (issue 51) once per machine into a
# cache outside the clone, from the sources in ../shared/toolchains beside the
# clone, without dune (as ../shared/toolchains/README.md says):
#   release 0.2.3 with Debian's OCaml 4.13  -> ~/.cache/leakfind/memtrace-0.2.3-ocaml-4.13
#   main (a88470c) with the cached OCaml 5.3 -> ~/.cache/leakfind/memtrace-main-a88470c-ocaml-5.3.0
# (tests/ocaml/setup5.sh builds that OCaml 5.3). Each folder holds
# memtrace.cmxa, memtrace.a and the .cmi/.cmx a program links against, and
# ocamlfind's config for its compiler. A missing source or compiler is said,
# not hidden: tests/memtrace/run.sh then fails the checks that need it.
# usage: sh tests/memtrace/setup.sh [0.2.3|main]   (both when not told)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
toolchains="$top/../shared/toolchains"
cache=${LEAKFIND_CACHE:-$HOME/.cache/leakfind}
ocaml5="$cache/ocaml-5.3.0"

# build NAME TARBALL TOPDIR FINDLIB_CONF MODULES...: one library folder.
build() {
    name=$1 tarball=$2 topdir=$3 conf=$4
    shift 4
    dest="$cache/$name"
    [ -f "$dest/memtrace.cmxa" ] && return 0
    if [ ! -f "$tarball" ]; then
        echo "leakfind setup: no $tarball: Memtrace $name not built"
        return 1
    fi
    src=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-memtrace.XXXXXX")
    log="$src/build.log"
    (
        cd "$src" && tar xzf "$tarball" && cd "$topdir/src" &&
        files=$(for m in "$@"; do [ -f "$m.mli" ] && printf '%s.mli ' "$m"; printf '%s.ml ' "$m"; done) &&
        cmxs=$(for m in "$@"; do printf '%s.cmx ' "$m"; done) &&
        OCAMLFIND_CONF=$conf ocamlfind ocamlopt -g -package unix,threads.posix -thread -c \
            $files >"$log" 2>&1 &&
        OCAMLFIND_CONF=$conf ocamlfind ocamlopt -a -o memtrace.cmxa $cmxs >>"$log" 2>&1 &&
        mkdir -p "$dest" &&
        cp memtrace.cmxa memtrace.a ./*.cmi ./*.cmx "$dest/"
    ) || {
        echo "leakfind setup: Memtrace $name did not build:"
        tail -5 "$log"
        rm -rf "$src" "$dest"
        return 1
    }
    cp "$conf" "$dest/findlib.conf"
    rm -rf "$src"
    echo "leakfind setup: Memtrace $name ready in $dest"
}

which=${1:-both}
rc=0
if [ "$which" != main ]; then
    build memtrace-0.2.3-ocaml-4.13 "$toolchains/memtrace-0.2.3.tar.gz" memtrace-0.2.3 \
        "$(ocamlfind printconf conf)" \
        geometric_sampler buf backtrace_codec location_codec trace memprof_tracer memtrace || rc=1
fi
if [ "$which" != 0.2.3 ]; then
    if [ ! -f "$ocaml5/findlib.conf" ]; then
        sh "$top/tests/ocaml/setup5.sh" 5.3.0
    fi
    if [ -f "$ocaml5/findlib.conf" ]; then
        PATH="$ocaml5/bin:$PATH" build memtrace-main-a88470c-ocaml-5.3.0 \
            "$toolchains/memtrace-main-a88470c.tar.gz" memtrace "$ocaml5/findlib.conf" \
            stdlib_shim geometric_sampler buf backtrace_codec location_codec trace \
            memprof_tracer memtrace || rc=1
    else
        echo "leakfind setup: no OCaml 5.3 in $ocaml5: Memtrace main not built"
        rc=1
    fi
fi
exit $rc
