#!/bin/sh
# Regenerates fixtures/memtrace/*.ctf (issue 51): the fixture programs built
# against the real Memtrace library (tests/memtrace/setup.sh builds it) and
# traced with MEMTRACE=..., on OCaml 4.13 (library 0.2.3) and 5.3 (main), and
# beside each trace the library's own reader's listing of its events
# (tests/memtrace/list_events.ml), gzipped, which tests/memtrace/run.sh
# compares leakfind's per-site totals with, OCaml or not.
#   requests-leak-V.ctf   requests.ml, one session record kept per request
#   requests-fixed-V.ctf  the same with the leak fixed (LEAK=0): the control
#   compiler-V.ctf        compiler.ml, three phases, the middle one leaking
#   ocamlopt-4.13.ctf.gz  the real OCaml compiler, Memtrace linked in, compiling
#                         the library's own sources (tests/memtrace/trace_ocamlopt.sh)
# Traces bigger than 64 KiB are committed gzipped (.ctf.gz).
# usage: sh tests/memtrace/regen.sh [ocamlopt]   (ocamlopt: only that one)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${LEAKFIND_CACHE:-$HOME/.cache/leakfind}
out="$top/fixtures/memtrace"
sh "$top/tests/memtrace/setup.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-regen.XXXXXX")
trap 'rm -rf "$work"' EXIT
rate=1e-3

# keep NAME CTF LISTER: commits the trace CTF as NAME (gzipped past 64 KiB)
# and LISTER's listing of its events as NAME.events.gz.
keep() {
    rm -f "$out/$1.ctf" "$out/$1.ctf.gz"
    "$3" "$2" | gzip -9n >"$out/$1.events.gz"
    if [ "$(wc -c <"$2")" -gt 65536 ]; then
        gzip -9n <"$2" >"$out/$1.ctf.gz"
    else
        cp "$2" "$out/$1.ctf"
    fi
}

# trace VERSION LIBDIR: builds the programs and the lister with LIBDIR, traces.
trace() {
    v=$1 lib=$2
    compiler=$(sed -n 's/^ocamlopt="\(.*\)"$/\1/p' "$lib/findlib.conf")
    bin=$(dirname "${compiler:-/usr/bin/ocamlopt}")
    mkdir -p "$work/$v"
    cp "$out/requests.ml" "$out/compiler.ml" "$work/$v/"
    for prog in requests compiler; do
        (cd "$work/$v" && PATH="$bin:$PATH" OCAMLFIND_CONF="$lib/findlib.conf" \
            ocamlfind ocamlopt -g -package unix,threads.posix -thread -linkpkg -I "$lib" \
            "$lib/memtrace.cmxa" "$prog.ml" -o "$prog")
    done
    sh "$top/tests/memtrace/build_lister.sh" "$lib" "$work/$v/list_events"
    (cd "$work/$v" &&
        MEMTRACE=requests-leak.ctf MEMTRACE_RATE=$rate ./requests >/dev/null &&
        LEAK=0 MEMTRACE=requests-fixed.ctf MEMTRACE_RATE=$rate ./requests >/dev/null &&
        MEMTRACE=compiler.ctf MEMTRACE_RATE=$rate ./compiler >/dev/null)
    for name in requests-leak requests-fixed compiler; do
        keep "$name-$v" "$work/$v/$name.ctf" "$work/$v/list_events"
    done
}

# ocamlopt: the real compiler at 1e-4 (its trace about 80 KB gzipped)
ocamlopt() {
    lib="$cache/memtrace-0.2.3-ocaml-4.13"
    sh "$top/tests/memtrace/trace_ocamlopt.sh" "$work/ocamlopt.ctf" 1e-4
    sh "$top/tests/memtrace/build_lister.sh" "$lib" "$work/list_events-4.13"
    keep ocamlopt-4.13 "$work/ocamlopt.ctf" "$work/list_events-4.13"
}

if [ "${1:-}" != ocamlopt ]; then
    trace 4.13 "$cache/memtrace-0.2.3-ocaml-4.13"
    trace 5.3 "$cache/memtrace-main-a88470c-ocaml-5.3.0"
fi
ocamlopt
chmod 644 "$out"/*.ctf* && ls -l "$out"
