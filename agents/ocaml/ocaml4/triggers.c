/* triggers.c (OCaml 4.13/4.14) - when snapshots are taken.
 *
 * One thread runs OCaml at a time and the GC's hooks run where the heap is
 * consistent, so a snapshot is written where it is asked for: from a C
 * call (Leakfind.dump) or at the end of a major cycle's marking. */
#define CAML_INTERNALS
#include "../agent.h"

#include <caml/major_gc.h>

int agent_snapshot(const char *path)
{
    return agent_dump(path);
}

/* ---- every Nth major cycle */

static void (*previous_major_hook)(void);
static int major_every;
static long major_seen;

static void on_marking_done(void)
{
    if (previous_major_hook)
        previous_major_hook();
    if (major_every > 0 && ++major_seen % major_every == 0)
        agent_series_dump();
}

void agent_every_major(int every, const char *prefix)
{
    if (every <= 0 || agent_series_prefix(prefix))
        return;
    major_every = every;
    major_seen = 0;
    if (caml_major_gc_hook != on_marking_done) {
        previous_major_hook = caml_major_gc_hook;
        caml_major_gc_hook = on_marking_done;
    }
}
