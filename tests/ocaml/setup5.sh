#!/bin/sh
# Builds an OCaml 5 (5.3 unless told) once per machine into a cache outside
# the clone, for the OCaml 5 half of tests/ocaml (issue 36). Debian ships only 4.13; the npm
# registry's `ocaml` package is the compiler's full source. Best effort:
# without npm or on a failed build the OCaml 5 checks say skipped.
# usage: sh tests/ocaml/setup5.sh [VERSION]   (npm's package: 5.3.0, or 5.1.4
# which is OCaml 5.1.0; 5.2.0 is not on npm: it comes from the release's tree
# in ../shared/toolchains beside the clone, and is skipped with a note when
# that is absent; LEAKFIND_OCAML_PREFIX overrides the cache folder)
set -u
version=${1:-5.3.0}
prefix=${LEAKFIND_OCAML_PREFIX:-$HOME/.cache/leakfind/ocaml-$version}
if [ -x "$prefix/bin/ocamlopt.opt" ] && grep -q '^stdlib=' "$prefix/findlib.conf" 2>/dev/null; then
    exit 0
fi
# The repository's top is two folders up from this script (a worktree's too).
top=$(cd "$(dirname "$0")/../.." && pwd)
tarball="$top/../shared/toolchains/ocaml-$version.tar.gz"
if [ -f "$tarball" ]; then
    fetch() { tar xzf "$tarball" && mv "ocaml-$version" package; }
elif [ "$version" = 5.2.0 ]; then
    echo "leakfind setup: no $tarball (5.2.0 is not on npm): OCaml 5.2 checks will be skipped"
    exit 0
elif ! command -v npm >/dev/null 2>&1; then
    echo "leakfind setup: no npm, no OCaml 5: its checks will be skipped"
    exit 0
else
    fetch() { npm pack --silent "ocaml@$version" && tar xzf "ocaml-$version.tgz"; }
fi
started=$(date +%s)
src=$(mktemp -d "${TMPDIR:-/tmp}/leakfind-ocaml5.XXXXXX")
trap 'rm -rf "$src"' EXIT
log="$src/build.log"
echo "leakfind setup: building OCaml $version into $prefix (a few minutes, once)"
(
    cd "$src" &&
    fetch >"$log" 2>&1 &&
    cd package &&
    ./configure --prefix="$prefix" --disable-ocamldoc --disable-ocamltest \
        --disable-debug-runtime --disable-stdlib-manpages >>"$log" 2>&1 &&
    make -j"$(nproc)" >>"$log" 2>&1 &&
    make install >>"$log" 2>&1
) || {
    echo "leakfind setup: OCaml $version did not build: its checks will be skipped"
    tail -5 "$log" 2>/dev/null
    rm -rf "$prefix"
    exit 0
}
# Debian's ocamlfind drives this compiler through a findlib.conf of its own;
# the compiler's libraries (unix, threads, dynlink, compiler-libs) are its
# subfolders, which findlib finds by their META files in ocaml's own lib;
# stdlib= keeps it from Debian's 4.13 library (its "^" directories).
lib="$prefix/lib/ocaml"
cat >"$prefix/findlib.conf" <<EOF
destdir="$lib"
path="$lib"
ocamlc="$prefix/bin/ocamlc.opt"
ocamlopt="$prefix/bin/ocamlopt.opt"
ocamldep="$prefix/bin/ocamldep.opt"
stdlib="$lib"
ldconf="ignore"
EOF
echo "leakfind setup: OCaml $version ready ($(($(date +%s) - started)) s)"
