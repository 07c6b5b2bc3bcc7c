#!/bin/sh
# Builds tests/memtrace/list_events.ml against a Memtrace library that
# tests/memtrace/setup.sh built: the library's own reader listing a trace's
# events (issue 51). 0.2.3 names promotions and collections without a domain.
# usage: sh tests/memtrace/build_lister.sh LIBDIR OUT
set -eu
lib=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-lister.XXXXXX")
trap 'rm -rf "$work"' EXIT
case $lib in
*0.2.3*) sed 's/^  | Event.Promote (id, _) | Event.Collect (id, _) -> .*DOMAINS.*$/  | Event.Promote id | Event.Collect id -> (id :> int)/' \
             "$here/list_events.ml" >"$work/list_events.ml" ;;
*) cp "$here/list_events.ml" "$work/list_events.ml" ;;
esac
compiler=$(sed -n 's/^ocamlopt="\(.*\)"$/\1/p' "$lib/findlib.conf")
PATH="$(dirname "${compiler:-/usr/bin/ocamlopt}"):$PATH" OCAMLFIND_CONF="$lib/findlib.conf" \
    ocamlfind ocamlopt -package unix,threads.posix -thread -linkpkg -I "$lib" "$lib/memtrace.cmxa" \
    "$work/list_events.ml" -o "$out"
