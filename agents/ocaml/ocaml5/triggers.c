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

#include <caml/domain.h>
#include <caml/major_gc.h>
#include <caml/misc.h>

caml_domain_state **agent5_domains;
int agent5_domain_count;

typedef struct stw_request {
    const char *path;
    int rc;
} stw_request;

static void stw_snapshot(caml_domain_state *self, void *data, int participating,
                         caml_domain_state **all)
{
    (void)self;
    stw_request *req = data;
    Caml_global_barrier_if_final(participating) {
        agent5_domains = all;
        agent5_domain_count = participating;
        req->rc = agent_dump(req->path);
        agent5_domains = NULL;
        agent5_domain_count = 0;
    }
}

int agent_snapshot(const char *path)
{
    stw_request req = {path, -1};
    /* another domain leading a section makes this one join it first */
    while (!caml_try_run_on_all_domains(stw_snapshot, &req, NULL))
        ;
    return req.rc;
}

/* ---- pending snapshots, taken at the end of a major slice */

static _Atomic caml_timing_hook previous_slice_end;
static atomic_int slice_hooked;
static int major_every;
static uintnat major_next; /* the cycle count that takes the next one */
static atomic_int signal_pending;

static void on_slice_end(void)
{
    caml_timing_hook previous = atomic_load(&previous_slice_end);
    if (previous)
        previous();
    if (!Caml_state || Caml_state->inside_stw_handler)
        return; /* a section of the runtime's: the next slice takes it */
    if (major_every > 0 && caml_major_cycles_completed >= major_next) {
        major_next = caml_major_cycles_completed + (uintnat)major_every;
        agent_series_dump();
    }
    if (atomic_exchange(&signal_pending, 0))
        agent5_signal_snapshot();
}

void agent5_hook_slices(void)
{
    if (atomic_exchange(&slice_hooked, 1))
        return;
    atomic_store(&previous_slice_end, atomic_exchange(&caml_major_slice_end_hook, on_slice_end));
}

void agent5_request_signal_snapshot(void)
{
    atomic_store(&signal_pending, 1);
}

void agent_every_major(int every, const char *prefix)
{
    if (every <= 0 || agent_series_prefix(prefix))
        return;
    major_every = every;
    major_next = caml_major_cycles_completed + (uintnat)every;
    agent5_hook_slices();
}
