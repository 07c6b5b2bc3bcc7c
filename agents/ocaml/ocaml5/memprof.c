/* memprof.c (OCaml 5) - Memprof's tracked blocks, every domain's.
 *
 * caml_memprof_scan_roots (not weak) hands out a pointer to each entry's
 * user_data field, and the configurations' slots; the entry (struct
 * entry_s in runtime/memprof.c, OCaml 5.3) holds the block just before
 * that field, then its number of samples and its size in words after it. */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <caml/memprof.h>
#include <caml/roots.h>

#if AGENT5_HAS_MEMPROF
enum { ENTRY_BLOCK = -1, ENTRY_SAMPLES = 1, ENTRY_WOSIZE = 2 };

static agent_memprof_entry_fn taker;

static void take(void *data, value user_data, volatile value *vslot)
{
    (void)data;
    value *slot = (value *)vslot;
    taker(slot[ENTRY_BLOCK], (uintnat)slot[ENTRY_SAMPLES], (uintnat)slot[ENTRY_WOSIZE], user_data);
}

void agent_memprof_entries(agent_memprof_entry_fn fn)
{
    taker = fn;
    for (int i = 0; i < agent5_domain_count; i++)
        caml_memprof_scan_roots(take, 0, NULL, agent5_domains[i], 0);
}
#else
void agent_memprof_entries(agent_memprof_entry_fn fn)
{
    (void)fn; /* OCaml 5.1 and 5.2 have no Memprof (compat.h) */
}
#endif
