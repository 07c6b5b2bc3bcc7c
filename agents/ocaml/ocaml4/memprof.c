/* memprof.c (OCaml 4.13/4.14) - Memprof's tracked blocks.
 *
 * caml_memprof_do_roots hands out a pointer to each entry's user_data
 * field; the entry (struct tracked in runtime/memprof.c) holds, just before
 * that field, the block, its number of samples and its size in words. */
#define CAML_INTERNALS
#include "../agent.h"

#include <caml/memprof.h>
#include <caml/roots.h>

enum { ENTRY_BLOCK = -3, ENTRY_SAMPLES = -2, ENTRY_WOSIZE = -1 };

static agent_memprof_entry_fn taker;

static void take(value user_data, value *slot)
{
    taker(slot[ENTRY_BLOCK], (uintnat)slot[ENTRY_SAMPLES], (uintnat)slot[ENTRY_WOSIZE], user_data);
}

void agent_memprof_entries(agent_memprof_entry_fn fn)
{
    taker = fn;
    caml_memprof_do_roots(take);
}
