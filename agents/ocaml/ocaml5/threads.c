/* threads.c (OCaml 5) - the threads of each domain (systhreads).
 *
 * The threads library scans a domain's threads from caml_scan_roots_hook,
 * starting with the slot of the running thread's descriptor: the first
 * field of its private thread record, which is in a ring of the domain's
 * threads (layout of OCaml 5.1-5.3 below). The agent reads that ring and
 * walks each waiting thread's stack itself, so that its roots are named
 * "domain D thread T frame K: ...". A ring that does not look like that
 * layout is not believed: the hook's roots are then declared named by the
 * domain only. */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <stdio.h>
#include <stdlib.h>

#include "../../../core/base/vec.h"

#include <caml/roots.h>

/* struct caml_thread_struct, native code, OCaml 5.1-5.3, up to gc_regs */
typedef struct thread_record {
    value descr;
    struct thread_record *next, *prev;
    int domain_id;
    struct stack_info *current_stack;
    void *c_stack;
    struct caml__roots_block *local_roots;
    int backtrace_pos;
    void *backtrace_buffer;
    value backtrace_last_exn;
    value *gc_regs;
} thread_record;

typedef struct hook_root {
    value v;
    value *slot;
} hook_root;

static hook_root *hooked;
static size_t hooked_len, hooked_cap;
static int hooked_failed;
static thread_record *ring; /* the domain's running thread, once believed */

static void record_root(void *data, value v, volatile value *slot)
{
    (void)data;
    if (lf_vec_reserve((void **)&hooked, &hooked_cap, hooked_len + 1, sizeof *hooked)) {
        hooked_failed = 1;
        return;
    }
    hooked[hooked_len++] = (hook_root){v, (value *)slot};
}

static long thread_id(const thread_record *t)
{
    value d = t->descr;
    if (Is_block(d) && Wosize_val(d) >= 3 && Is_long(Field(d, 0)))
        return Long_val(Field(d, 0));
    return -1;
}

/* The ring is believed when it closes, every record is of this domain and
 * every descriptor a Thread.t. */
static int ring_is_sane(thread_record *cur, int domain_id)
{
    thread_record *t = cur;
    for (int n = 0; n < 100000; n++) {
        if (thread_id(t) < 0 || t->domain_id != domain_id || !t->next || t->next->prev != t)
            return 0;
        t = t->next;
        if (t == cur)
            return 1;
    }
    return 0;
}

static int hook_is_systhreads(void)
{
    const agent_symbols *s = agent_symbols_get();
    const agent_symbol *scan = agent_symbol_named(s, "caml_thread_scan_roots");
    if (scan)
        return scan->addr == (uintptr_t)atomic_load(&caml_scan_roots_hook);
    return agent_symbol_named(s, "caml_thread_initialize") != NULL;
}

int agent5_threads_begin(caml_domain_state *d, long *running_thread)
{
    hooked_len = 0;
    hooked_failed = 0;
    ring = NULL;
    *running_thread = -1;
    scan_roots_hook hook = atomic_load(&caml_scan_roots_hook);
    if (!hook)
        return 0;
    hook(record_root, 0, NULL, d);
    if (hooked_failed)
        return -1;
    if (hooked_len && hook_is_systhreads() &&
        ring_is_sane((thread_record *)hooked[0].slot, d->id)) {
        ring = (thread_record *)hooked[0].slot;
        *running_thread = thread_id(ring);
    }
    return 0;
}

static int walk_ring(agent_walk *walk, int domain_id)
{
    thread_record *t = ring;
    do {
        char who[64];
        long id = thread_id(t);
        snprintf(who, sizeof who, "domain %d thread %ld", domain_id, id);
        if (agent_slot_seen(&t->descr) && agent_walk_root(walk, t->descr, "C global", who))
            return -1;
        if (t != ring && t->current_stack &&
            agent5_stack_roots(walk, who, t->current_stack, t->gc_regs, t->local_roots))
            return -1;
        t = t->next;
    } while (t != ring);
    return 0;
}

int agent5_threads_collect(agent_walk *walk, caml_domain_state *d)
{
    if (ring && walk_ring(walk, d->id))
        return -1;
    /* What the ring did not cover: each thread's last exception, other
     * libraries' hooks, or every root when the ring was not believed. */
    char name[64];
    snprintf(name, sizeof name, ring ? "domain %d thread roots (scan_roots_hook)"
                                     : "domain %d another thread", d->id);
    for (size_t i = 0; i < hooked_len; i++) {
        if (!agent_heap_block(hooked[i].v) || !agent_slot_seen(hooked[i].slot))
            continue;
        if (agent_walk_root(walk, hooked[i].v, ring ? "C global" : "stack", name))
            return -1;
    }
    return 0;
}
