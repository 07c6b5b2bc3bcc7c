/* stubs.c - the externals of module Leakfind.
 *
 * No CAMLparam: it would add a root of the agent's own to the snapshot. The
 * arguments are copied to C memory before the walk, which allocates nothing
 * in the OCaml heap. */
#define CAML_INTERNALS
#include "agent.h"

#include <stdlib.h>
#include <string.h>

#include <caml/mlvalues.h>

value leakfind_ocaml_dump(value path);
value leakfind_ocaml_every_major(value every, value prefix);

value leakfind_ocaml_dump(value path)
{
    char *copy = strdup(String_val(path));
    if (copy) {
        agent_snapshot(copy);
        free(copy);
    }
    return Val_unit;
}

value leakfind_ocaml_every_major(value every, value prefix)
{
    agent_every_major((int)Long_val(every), String_val(prefix));
    return Val_unit;
}
