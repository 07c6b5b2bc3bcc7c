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
# Traces bigger than 64 KiB are committed gzipped (.ctf.gz).
# usage: sh tests/memtrace/regen.sh
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${LEAKFIND_CACHE:-$HOME/.cache/leakfind}
out="$top/fixtures/memtrace"
sh "$top/tests/memtrace/setup.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-regen.XXXXXX")
trap 'rm -rf "$work"' EXIT
rate=1e-3

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
        rm -f "$out/$name-$v.ctf" "$out/$name-$v.ctf.gz"
        "$work/$v/list_events" "$work/$v/$name.ctf" | gzip -9n >"$out/$name-$v.events.gz"
        if [ "$(wc -c <"$work/$v/$name.ctf")" -gt 65536 ]; then
            gzip -9n <"$work/$v/$name.ctf" >"$out/$name-$v.ctf.gz"
        else
            cp "$work/$v/$name.ctf" "$out/$name-$v.ctf"
        fi
    done
}

trace 4.13 "$cache/memtrace-0.2.3-ocaml-4.13"
trace 5.3 "$cache/memtrace-main-a88470c-ocaml-5.3.0"
chmod 644 "$out"/*.ctf* && ls -l "$out"
