/* triggers.c (OCaml 5) - when snapshots are taken, every domain stopped.
 *
 * Several domains run OCaml at once, so a snapshot is a stop-the-world
 * section of the agent's own (caml_try_run_on_all_domains): every running
 * domain enters it at its next safe point (one blocked in a system call
 * through its backup thread), the last to arrive at the barrier walks and
 * writes while the others wait there, and all go on. A domain can start
 * such a section only from OCaml's side of a C call or a poll, never inside
 * another section: Leakfind.dump is such a call; the other triggers (every
 * N major cycles, the snapshot signal: snapsignal.c) are noted as pending
 * and taken at the end of the next major slice that runs outside a
 * section, which every domain that allocates or polls reaches soon. */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <stdatomic.h>
#include <stdlib.h>

#include <caml/domain.h>
#include <caml/finalise.h>
#include <caml/major_gc.h>
#include <caml/misc.h>
#include <caml/startup_aux.h>
#include <caml/weak.h>

caml_domain_state **agent5_domains;
int agent5_domain_count;

typedef struct stw_request {
    const char *path;
    int rc;
} stw_request;

static void take_as_last(stw_request *req, int participating, caml_domain_state **all)
{
    agent5_domains = all;
    agent5_domain_count = participating;
    req->rc = agent_dump(req->path);
    agent5_domains = NULL;
    agent5_domain_count = 0;
}

static void stw_snapshot(caml_domain_state *self, void *data, int participating,
                         caml_domain_state **all)
{
    (void)self;
#if OCAML_VERSION_MINOR >= 3
    Caml_global_barrier_if_final(participating) {
        take_as_last(data, participating, all);
    }
#else
    barrier_status b = caml_global_barrier_begin();
    if (caml_global_barrier_is_final(b))
        take_as_last(data, participating, all);
    caml_global_barrier_end(b);
#endif
}

/* Set while a GC hook asks: the hook may run inside a section of the
 * runtime's (a major cycle finished by Gc.major, a global slice), and the
 * runtime keeps no flag that says so outside its debug build. */
static _Thread_local int asked_from_hook;

int agent_snapshot(const char *path)
{
    stw_request req = {path, -1};
    /* another domain leading a section makes this one join it first; from a
     * hook, a section already running (maybe this domain's) cannot be
     * told from another domain's, so one try and the trigger stays pending */
    while (!caml_try_run_on_all_domains(stw_snapshot, &req, NULL))
        if (asked_from_hook)
            return AGENT_SNAPSHOT_BUSY;
    return req.rc;
}

/* ---- pending snapshots, taken at the end of a major slice */

static _Atomic caml_timing_hook previous_slice_end;
static atomic_int slice_hooked;
static int major_every;
/* the cycle count that takes the next one; TAKING while a domain takes it */
static atomic_uintnat major_next;
#define TAKING ((uintnat)-1)

/* A trigger busy inside a section of the runtime's (Gc.major ends its
 * cycle in one): this domain's next poll runs a slice outside it. */
static void ask_for_poll(void)
{
    Caml_state->requested_major_slice = 1;
    caml_interrupt_self();
}

/* This domain's share of the cycle's last phase is done: its ephemerons
 * swept, its finalisers' last values updated. The cycle ends when every
 * domain's is, each done in that domain's own slices. */
static int own_last_phase_done(caml_domain_state *d)
{
    return d->ephe_info && d->final_info && !d->ephe_info->must_sweep_ephe &&
           d->ephe_info->todo == 0 && d->final_info->updated_last;
}

/* The due cycle count this thread last asked a poll for (issue 48); a
 * domain's slices run on its threads, so each asks at most once a cycle. */
static _Thread_local uintnat asked_for_cycle;

/* The cycle's count goes up after the slice that ends it (and after its
 * end hook): a slice that leaves the last phase asks for the poll whose
 * slice sees the new count, or the snapshot would wait for the program's
 * next slice, much later when it allocates little (Gc.major ends the
 * cycle in a section, then the program goes on). Once a cycle, when the
 * domain's own share is done: the phase also waits for the other domains,
 * and one waiting in a system call (Domain.join) does its share only when
 * it runs again; asking at every slice while it waits made each poll's
 * slice ask again, and a domain entering a blocking section looped on its
 * polls for ever (docs/OCAML.md, "The hang of issue 48"). */
static void take_cycle_snapshot(void)
{
    uintnat next = atomic_load(&major_next);
    if (major_every > 0 && next != TAKING && caml_major_cycles_completed + 1 == next &&
        caml_gc_phase == Phase_sweep_ephe && asked_for_cycle != next &&
        own_last_phase_done(Caml_state)) {
        asked_for_cycle = next;
        ask_for_poll();
    }
    if (major_every <= 0 || next == TAKING || caml_major_cycles_completed < next ||
        !atomic_compare_exchange_strong(&major_next, &next, TAKING))
        return; /* not due, or another domain takes it */
    if (agent_series_dump() == AGENT_SNAPSHOT_BUSY) {
        atomic_store(&major_next, next);
        ask_for_poll();
        return;
    }
    atomic_store(&major_next, caml_major_cycles_completed + (uintnat)major_every);
}

static void on_slice_end(void)
{
    caml_timing_hook previous = atomic_load(&previous_slice_end);
    if (previous)
        previous();
    if (!Caml_state)
        return;
    asked_from_hook = 1;
    take_cycle_snapshot();
    if (agent5_signal_snapshot() == AGENT_SNAPSHOT_BUSY) /* it stays requested */
        ask_for_poll();
    asked_from_hook = 0;
}

/* The last cycle's snapshot, when the program ends before its next poll;
 * not when the runtime freed the heap at exit (OCAMLRUNPARAM=c). */
static void cycle_snapshot_at_exit(void)
{
    uintnat next = atomic_load(&major_next);
    if (Caml_state && next != TAKING && caml_major_cycles_completed >= next &&
        !(caml_params && caml_params->cleanup_on_exit))
        agent_series_dump();
}

void agent5_hook_slices(void)
{
    if (atomic_exchange(&slice_hooked, 1))
        return;
    atomic_store(&previous_slice_end, atomic_exchange(&caml_major_slice_end_hook, on_slice_end));
}

void agent_every_major(int every, const char *prefix)
{
    if (every <= 0 || agent_series_prefix(prefix))
        return;
    major_every = every;
    atomic_store(&major_next, caml_major_cycles_completed + (uintnat)every);
    agent5_hook_slices();
    static int at_exit_set;
    if (!at_exit_set++)
        atexit(cycle_snapshot_at_exit);
}
