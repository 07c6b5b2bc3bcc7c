#!/bin/sh
# The layers hold (issue 38): every #include "..." in the C sources points
# into the file's own folder or into a lower layer. Lowest first:
#   core/base                        memory, files, errors: needs nothing
#   graph                            the dominator algorithms
#   core/model                       the snapshot and its builder
#   core/hprof core/v8 core/textgraph core/lfs core/gcdump core/memtrace core/nettrace   one format each, side by side
#   core/input                       which format a file is, and the cache
#   core/analysis                    what the commands compute
#   core/writer core/query           the public writer: builds, analyses, writes; the query language
#   cmd/cli agents/ocaml             the plumbing, what several commands share; the agent
#   cmd/NAME agents/ocaml/ocamlN     what one command alone uses (cmd/report, ...); one OCaml runtime family's agent
#   cmd/serve                        the explorer: other commands' views (report's JSON, inspect's rows) over HTTP
#   cmd                              the commands (cmd_NAME.c) and main.c
# usage: tests/layers.sh                (prints "N passed, M failed" last)
set -u
cd "$(dirname "$0")/.."

layer_of() {
    case $1 in
    core/base) echo 0 ;;
    graph) echo 1 ;;
    core/model) echo 2 ;;
    core/hprof | core/v8 | core/textgraph | core/lfs | core/gcdump | core/memtrace | core/nettrace) echo 3 ;;
    core/input) echo 4 ;;
    core/analysis) echo 5 ;;
    core/writer | core/query) echo 6 ;;
    cmd/cli | agents/ocaml) echo 7 ;;
    cmd/serve) echo 9 ;;
    cmd/* | agents/ocaml/ocaml4 | agents/ocaml/ocaml5) echo 8 ;;
    cmd) echo 10 ;;
    *) echo "" ;;
    esac
}

. tests/lib.sh
for f in $(git ls-files 'core/*.[ch]' 'graph/*.[ch]' 'cmd/*.[ch]' 'agents/ocaml/*.[ch]'); do
    dir=$(dirname "$f")
    mine=$(layer_of "$dir")
    if [ -z "$mine" ]; then
        bad "$f: folder $dir is in no layer (tests/layers.sh)"
        continue
    fi
    upward=""
    for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        target=$(realpath -m --relative-to=. "$dir/$inc")
        tdir=$(dirname "$target")
        [ "$tdir" = "$dir" ] && continue
        theirs=$(layer_of "$tdir")
        case $tdir in build | build/*) continue ;; esac # generated headers (version.h)
        if [ -z "$theirs" ] || [ "$theirs" -ge "$mine" ]; then
            upward="$upward $inc"
        fi
    done
    if [ -n "$upward" ]; then
        bad "$f (layer $mine, $dir) includes upward or sideways:$upward"
    else
        ok
    fi
done
echo "layers: $pass passed, $fail failed"
[ "$fail" = 0 ]
