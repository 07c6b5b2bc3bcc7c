#!/bin/sh
# leakfind-ocaml5-names, the names tool built with OCaml 5 (agents/ocaml/ocaml.mk):
# compiles fixtures with OCaml 5 (-bin-annot -c, no agent needed) and checks
# its names files against what the sources give, then against the 4.x tool's
# on the same sources compiled by the default ocamlfind; and reads OCaml 5's
# own compiler-libs and standard library. Skipped without OCaml 5.
# usage: tests/ocaml/names5.sh BUILD_DIR [5|5.2|5.1]; last line "N passed, M failed".
# OCaml 5.3 (5), 5.2 or 5.1 at the prefix ocaml.mk uses (OCAML5_PREFIX,
# OCAML52_PREFIX, OCAML51_PREFIX).
set -u
build=$(cd "${1:-build}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${2:-5}" = 5.1 ]; then
    conf=${OCAML51_PREFIX:-$HOME/.cache/leakfind/ocaml-5.1.4}/findlib.conf
    names5="$build/leakfind-ocaml51-names"
elif [ "${2:-5}" = 5.2 ]; then
    conf=${OCAML52_PREFIX:-$HOME/.cache/leakfind/ocaml-5.2.0}/findlib.conf
    names5="$build/leakfind-ocaml52-names"
else
    conf=${OCAML5_PREFIX:-$HOME/.cache/leakfind/ocaml-5.3.0}/findlib.conf
    names5="$build/leakfind-ocaml5-names"
fi
names4="$build/leakfind-ocaml-names"
. "$top/tests/lib.sh"

if [ ! -x "$names5" ] || [ ! -f "$conf" ]; then
    ok "OCaml 5 names tool: skipped (no OCaml 5)"
    finish
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# compile DIR [FINDLIB_CONF]: the fixtures' .cmt files, by that compiler
# (the default ocamlfind's without a conf); Leakfind's interface alone.
compile() {
    mkdir -p "$1"
    (cd "$top/fixtures/ocaml" && cp typed.ml fields.mli fields.ml dune__exe__Action.ml mylib__Foo.ml \
        dune_main.ml registry.ml rectyped.ml "$top/agents/ocaml/leakfind.mli" "$1/")
    (cd "$1" && if [ -n "${2:-}" ]; then OCAMLFIND_CONF=$2; export OCAMLFIND_CONF; fi &&
        ocamlfind ocamlopt -opaque -c leakfind.mli &&
        ocamlfind ocamlopt -bin-annot -c typed.ml fields.mli fields.ml dune__exe__Action.ml \
            mylib__Foo.ml dune_main.ml &&
        ocamlfind ocamlopt -rectypes -bin-annot -c registry.ml rectyped.ml) 2> "$1/compile.err"
}
# names TOOL DIR: the names files of typed, fields and the dune modules
names() {
    (cd "$2" && "$1" typed.cmt > typed.names && "$1" fields.cmt > fields.names &&
        "$1" dune__exe__Action.cmt mylib__Foo.cmt > dune.names && "$1" rectyped.cmt > rectyped.names) 2> "$2/names.err"
}
# fields FILE: "module index name|" of each field line
fields() { awk -F'\t' '!/^#/ { printf "%s %s %s|", $1, $2, $3 }' "$1"; }
# labels FILE: "name label|" of each field line: its shape's label, - for none
labels() {
    awk -F'\t' '$1 == "#shape" { l[$2] = $3 == "ext" ? "ext" : $4; next }
        !/^#/ { n[++k] = $3; s[k] = $4 }
        END { for (i = 1; i <= k; i++) printf "%s %s|", n[i], s[i] == 0 ? "-" : l[s[i]] }' "$1"
}
# shapes FILE: the shapes with their ids replaced by labels, so that two
# tools' numberings compare; one line per shape or alternative, sorted.
shapes() {
    awk -F'\t' '
        function lab(id) { return id == 0 ? "-" : l[id] }
        $1 == "#shape" { l[$2] = $3 == "ext" ? "ext" : $4; line[++k] = $0 }
        $1 == "#alt" { line[++k] = $0 }
        END {
            for (i = 1; i <= k; i++) {
                split(line[i], f, "\t")
                if (f[1] == "#shape") {
                    cur = lab(f[2])
                    printf "%s: %s%s\n", cur, f[3], (f[3] == "array" || f[3] == "lazy") ? " of " lab(f[5]) : ""
                } else {
                    n = split(f[5], fs, " ")
                    out = ""
                    for (j = 1; j <= n; j++) out = out (j > 1 ? ", " : "") lab(fs[j])
                    printf "%s: tag %s size %s %s [%s]\n", cur, f[2], f[3], f[4], out
                }
            }
        }' "$1" | LC_ALL=C sort
}

d5="$work/ocaml5"
compile "$d5" "$conf"
expect "OCaml 5 compiles the fixtures with -bin-annot" "0 " "$? $(cat "$d5/compile.err")"
names "$names5" "$d5"
expect "OCaml 5 names tool: typed, fields and dune's modules, no complaint" "0 " "$? $(cat "$d5/names.err")"

# fields.mli exports beta then alpha: they come first, then source order
expect "OCaml 5 fields: interface order first, then the rest in source order" \
    "Fields 0 beta|Fields 1 alpha|Fields 2 hidden|Fields 3 last|" "$(fields "$d5/fields.names")"
expect "OCaml 5 typed: every top-level definition, in source order" \
    "Typed 0 Timeout|Typed 1 sessions|Typed 2 shapes|Typed 3 pairs|Typed 4 buffer|Typed 5 log|Typed 6 last_error|Typed 7 magic|" \
    "$(fields "$d5/typed.names")"
expect "OCaml 5 dune: Dune__exe__Action reads Action, Mylib__Foo Mylib.Foo" \
    "Action 0 kept|Mylib.Foo 0 kept|" "$(fields "$d5/dune.names")"
expect "OCaml 5 typed: each global's declared type" \
    "Timeout -|sessions (string, Typed.session) Hashtbl.t|shapes Typed.shape list ref|pairs (int * string) array|buffer Buffer.t|log Typed.request_log list ref|last_error exn option ref|magic Typed.session option|" \
    "$(labels "$d5/typed.names")"
# -rectypes read from the .cmt; Ids from registry.cmt's functor body;
# handlers' type as OCaml prints it
expect "OCaml 5 rectyped: a -rectypes unit, its own functor's result, a function type" \
    "Key module Rectyped.Key|Ids module Rectyped.Ids|table Registry.Make(Rectyped.Key).t|handlers (int -> int) list ref|skip -|" \
    "$(labels "$d5/rectyped.names")"
expect "OCaml 5 rectyped: the functor's record and entries, field by field" "$(cat <<'EOF'
Registry.Make(Rectyped.Key).entry list: tag 0 size 2 Registry.Make(Rectyped.Key).entry list [Registry.Make(Rectyped.Key).entry, Registry.Make(Rectyped.Key).entry list]
Registry.Make(Rectyped.Key).entry option: tag 0 size 1 Registry.Make(Rectyped.Key).entry option [Registry.Make(Rectyped.Key).entry]
Registry.Make(Rectyped.Key).entry: tag 0 size 3 Registry.Make(Rectyped.Key).entry [-, -, Registry.Make(Rectyped.Key).entry option]
Registry.Make(Rectyped.Key).t: tag 0 size 2 Registry.Make(Rectyped.Key).t [Registry.Make(Rectyped.Key).entry list, -]
EOF
)" "$(shapes "$d5/rectyped.names" | grep '^Registry.*: tag')"
expect "OCaml 5 dune: each global's declared type" "kept string array|kept bytes list|" \
    "$(labels "$d5/dune.names")"
# typed.ml's types as declared, the standard library's as OCaml 5.3 has
# them: Hashtbl.t {size; data; seed; initial_size} as in 4.x, but Buffer.t
# {inner; position; initial_buffer} with inner = {buffer; length}
expect "OCaml 5 typed: the shapes, field by field" "$(cat <<'EOF'
(int * string) array: array of int * string
(string, Typed.session) Hashtbl.bucketlist array: array of (string, Typed.session) Hashtbl.bucketlist
(string, Typed.session) Hashtbl.bucketlist: block
(string, Typed.session) Hashtbl.bucketlist: tag 0 size 3 (string, Typed.session) Hashtbl.bucketlist [-, Typed.session, (string, Typed.session) Hashtbl.bucketlist]
(string, Typed.session) Hashtbl.t: block
(string, Typed.session) Hashtbl.t: tag 0 size 4 (string, Typed.session) Hashtbl.t [-, (string, Typed.session) Hashtbl.bucketlist array, -, -]
Buffer.inner_buffer: block
Buffer.inner_buffer: tag 0 size 2 Buffer.inner_buffer [-, -]
Buffer.t: block
Buffer.t: tag 0 size 3 Buffer.t [Buffer.inner_buffer, -, -]
Typed.request_log list ref: block
Typed.request_log list ref: tag 0 size 1 Typed.request_log list ref [Typed.request_log list]
Typed.request_log list: block
Typed.request_log list: tag 0 size 2 Typed.request_log list [Typed.request_log, Typed.request_log list]
Typed.request_log: block
Typed.request_log: tag 0 size 2 Typed.request_log [-, -]
Typed.session option: block
Typed.session option: tag 0 size 1 Typed.session option [Typed.session]
Typed.session: block
Typed.session: tag 0 size 3 Typed.session [-, -, -]
Typed.shape list ref: block
Typed.shape list ref: tag 0 size 1 Typed.shape list ref [Typed.shape list]
Typed.shape list: block
Typed.shape list: tag 0 size 2 Typed.shape list [Typed.shape, Typed.shape list]
Typed.shape: block
Typed.shape: tag 0 size 1 Typed.Circle [-]
Typed.shape: tag 1 size 2 Typed.Rect [-, -]
exn option ref: block
exn option ref: tag 0 size 1 exn option ref [exn option]
exn option: block
exn option: tag 0 size 1 exn option [ext]
ext: ext
int * string: block
int * string: tag 0 size 2 int * string [-, -]
EOF
)" "$(shapes "$d5/typed.names")"

# The same sources through the 4.x compiler and tool: the same fields, the
# same shapes but Buffer's (4.x: one record {buffer; position; length;
# initial_buffer}).
v4=$(ocamlfind ocamlopt -version 2>/dev/null)
if [ ! -x "$names4" ] || [ "${v4%%.*}" != 4 ]; then
    ok "4.x against OCaml 5: skipped (no 4.x names tool or compiler)"
else
    d4="$work/ocaml4"
    compile "$d4" && names "$names4" "$d4"
    expect "4.x tool on the 4.x .cmt files: no complaint" "0 " "$? $(cat "$d4/compile.err" "$d4/names.err")"
    for f in typed fields dune rectyped; do
        expect "4.x against OCaml 5: $f's field lines" "$(fields "$d4/$f.names")" "$(fields "$d5/$f.names")"
        expect "4.x against OCaml 5: $f's globals' types" "$(labels "$d4/$f.names")" "$(labels "$d5/$f.names")"
    done
    expect "4.x against OCaml 5: rectyped's shapes the same" \
        "$(shapes "$d4/rectyped.names")" "$(shapes "$d5/rectyped.names")"
    expect "4.x against OCaml 5: typed's shapes the same but Buffer's" \
        "$(shapes "$d4/typed.names" | grep -v '^Buffer\.')" "$(shapes "$d5/typed.names" | grep -v '^Buffer\.')"
    expect "4.x: Buffer.t one record of 4 fields" \
        "Buffer.t: block|Buffer.t: tag 0 size 4 Buffer.t [-, -, -, -]|" \
        "$(shapes "$d4/typed.names" | grep '^Buffer\.' | tr '\n' '|')"
fi

# OCaml 5's own compiler-libs and standard library, as Debian's are read
# by run.sh's check_real_program
lib=$(OCAMLFIND_CONF=$conf ocamlfind ocamlopt -where)
"$names5" "$lib"/compiler-libs/*.cmt "$lib"/*.cmt > "$work/lib.names" 2> "$work/lib.err"
expect "OCaml 5 compiler-libs and standard library: every unit read, no complaint" "0 " \
    "$? $(cat "$work/lib.err")"
expect "OCaml 5 compiler-libs: the compiler's types have shapes (Location.t a record of 3)" \
    "Location.t: tag 0 size 3 Location.t [Lexing.position, Lexing.position, bool]" \
    "$(shapes "$work/lib.names" | grep '^Location.t: tag')"
finish
