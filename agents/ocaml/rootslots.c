/* rootslots.c - the root slots already declared in this snapshot.
 *
 * The runtime's scans overlap (a thread's stack is also in the threads
 * library's hook; everything is in caml_do_roots), so each source asks
 * whether a slot was seen before it names it. */
#include "agent.h"

static agent_map seen_slots;

int agent_slot_seen(void *slot)
{
    int64_t *s = agent_map_slot(&seen_slots, (uint64_t)(uintptr_t)slot, 1);
    if (!s || *s)
        return 0;
    *s = 1;
    return 1;
}

void agent_slots_reset(void)
{
    agent_map_free(&seen_slots);
    memset(&seen_slots, 0, sizeof seen_slots);
}
