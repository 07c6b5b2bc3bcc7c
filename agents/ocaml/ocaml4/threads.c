/* threads.c - the stacks of the program's other threads (systhreads).
 *
 * The threads library scans the other threads' stacks from
 * caml_scan_roots_hook, thread by thread, starting each with the slot that
 * holds the thread's descriptor: the first field of its private thread
 * record. From that first slot the agent reads the ring of thread records
 * (4.13/4.14 layout below) and walks each stack itself, so that every root
 * is named by thread and frame. If the ring does not look like that layout,
 * the hook's roots are still declared, named by thread only. */
#define CAML_INTERNALS
#include "ocaml4.h"

#include <stdio.h>
#include <stdlib.h>

#include "../../../core/base/vec.h"

#include <caml/memory.h>
#include <caml/roots.h>

/* struct caml_thread_struct, native code, OCaml 4.13 and 4.14 */
typedef struct thread_record {
    value descr;
    struct thread_record *next, *prev;
    char *top_of_stack;
    char *bottom_of_stack;
    uintnat last_retaddr;
    value *gc_regs;
    char *exception_pointer;
    struct caml__roots_block *local_roots;
} thread_record;

typedef struct hook_root {
    value v;
    value *slot;
} hook_root;

static hook_root *hooked;
static size_t hooked_len, hooked_cap;
static int hooked_failed;
static thread_record *ring; /* the current thread's record, once validated */

static void record_root(value v, value *slot)
{
    if (lf_vec_reserve((void **)&hooked, &hooked_cap, hooked_len + 1, sizeof *hooked)) {
        hooked_failed = 1;
        return;
    }
    hooked[hooked_len++] = (hook_root){v, slot};
}

static long thread_id(const thread_record *t)
{
    value d = t->descr;
    if (Is_block(d) && Wosize_val(d) >= 3 && Is_long(Field(d, 0)))
        return Long_val(Field(d, 0));
    return -1;
}

/* The hook is the threads library's own: its scan function by name when the
 * program keeps its local symbols, else at least the library is linked in.
 * Only then is the first slot the hook reports read as a thread record. */
static int hook_is_systhreads(void)
{
    const agent_symbols *s = agent_symbols_get();
    const agent_symbol *scan = agent_symbol_named(s, "caml_thread_scan_roots");
    if (scan)
        return scan->addr == (uintptr_t)caml_scan_roots_hook;
    return agent_symbol_named(s, "caml_thread_initialize") != NULL;
}

/* A C thread registered with caml_c_thread_register has no descriptor (the
 * runtime leaves it unit) and no OCaml stack: the agent's own taker
 * (snapsignal.c) is one. */
static int c_thread(const thread_record *t)
{
    return t->descr == Val_unit && !t->bottom_of_stack;
}

/* The ring is believed when it closes, every descriptor is a Thread.t (or
 * a registered C thread's) and every suspended stack starts at a return
 * address the frame table knows. */
static int ring_is_sane(thread_record *cur)
{
    thread_record *t = cur;
    for (int n = 0; n < 100000; n++) {
        if ((thread_id(t) < 0 && !c_thread(t)) || !t->next || t->next->prev != t)
            return 0;
        if (t != cur && t->bottom_of_stack && !agent_stack_known(t->last_retaddr))
            return 0;
        t = t->next;
        if (t == cur)
            return 1;
    }
    return 0;
}

int agent_threads_begin(long *current_thread_id)
{
    hooked_len = 0;
    hooked_failed = 0;
    ring = NULL;
    *current_thread_id = 0;
    if (!caml_scan_roots_hook)
        return 0;
    caml_scan_roots_hook(record_root);
    if (hooked_failed)
        return -1;
    if (hooked_len && hook_is_systhreads() && ring_is_sane((thread_record *)hooked[0].slot)) {
        ring = (thread_record *)hooked[0].slot;
        *current_thread_id = thread_id(ring);
    }
    return 0;
}

static int walk_ring(agent_walk *walk)
{
    thread_record *t = ring;
    do {
        char name[64];
        long id = thread_id(t);
        snprintf(name, sizeof name, "thread %ld", id);
        if (agent_slot_seen(&t->descr) && agent_walk_root(walk, t->descr, "C global", name))
            return -1;
        if (t != ring && t->bottom_of_stack &&
            agent_stack_collect(walk, id, t->bottom_of_stack, t->last_retaddr, t->gc_regs,
                                t->local_roots))
            return -1;
        t = t->next;
    } while (t != ring);
    return 0;
}

int agent_threads_collect(agent_walk *walk)
{
    if (ring && walk_ring(walk))
        return -1;
    /* What the ring did not cover: each thread's last exception, other
     * libraries' hooks, or every root when the ring was not believed. */
    for (size_t i = 0; i < hooked_len; i++) {
        if (!agent_walk_block(hooked[i].v) || !agent_slot_seen(hooked[i].slot))
            continue;
        const char *kind = ring ? "C global" : "stack";
        const char *name = ring ? "thread roots (scan_roots_hook)" : "another thread";
        if (agent_walk_root(walk, hooked[i].v, kind, name))
            return -1;
    }
    return 0;
}
