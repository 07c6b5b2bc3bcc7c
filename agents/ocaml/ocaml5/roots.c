/* roots.c (OCaml 5) - every GC root of every domain, with its kind and name.
 *
 * Called by the stop-the-world section's leader with every running domain
 * stopped (triggers.c). As on OCaml 4, each source is asked in turn so that
 * a root is named by where it comes from: module globals; per domain its
 * running stack frame by frame (with systhreads, each thread's), its C
 * local roots, its domain-local storage, its finalisers and Memprof's
 * tracked blocks; the C global roots (Dynlink plugins' globals among them);
 * last each domain's caml_do_roots, for whatever no named source gave. A
 * slot seen once is never declared again. Suspended fibers are not roots:
 * their continuation blocks hold them (heap.c). */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <stdio.h>
#include <string.h>

#include <caml/finalise.h>
#include <caml/globroots.h>
#include <caml/memprof.h>
#include <caml/roots.h>

typedef struct scan_state {
    agent_walk *walk;
    const char *kind;
    caml_domain_state *domain; /* the domain being scanned, or NULL */
    int failed;
} scan_state;

/* A slot of a domain's state, named by what it is. */
static int domain_slot_name(const value *slot, char *name, size_t len)
{
    for (int i = 0; i < agent5_domain_count; i++) {
        caml_domain_state *d = agent5_domains[i];
        if (slot == (value *)&d->dls_root)
            snprintf(name, len, "domain %d local storage (Domain.DLS)", d->id);
        else if (slot == (value *)&d->backtrace_last_exn)
            snprintf(name, len, "domain %d last exception", d->id);
        else
            continue;
        return 1;
    }
    return 0;
}

static void named_root(void *data, value v, volatile value *vslot)
{
    scan_state *st = data;
    value *slot = (value *)vslot;
    if (st->failed || !agent_heap_block(v) || !agent_slot_seen(slot))
        return;
    char name[256];
    uint32_t shape = 0;
    const char *kind = st->kind;
    const agent_symbol *s = agent_symbol_holding(agent_symbols_get(), (uintptr_t)slot);
    if (domain_slot_name(slot, name, sizeof name))
        kind = strstr(name, "local storage") ? "domain-local" : kind;
    else if (agent_global_slot_name(s, slot, name, sizeof name, &shape)) {
        kind = "global";
        st->failed |= agent_walk_typed_root(st->walk, v, shape) != 0;
    } else if (s && s->size)
        agent_demangle(s->name, name, sizeof name);
    else if (st->domain)
        snprintf(name, sizeof name, "domain %d %p", st->domain->id, (void *)slot);
    else
        snprintf(name, sizeof name, "%p", (void *)slot);
    st->failed |= agent_walk_root(st->walk, v, kind, name) != 0;
}

/* ---- finalisers: the closure is a root and the value it finalises is
 * held weakly; a value whose finaliser is due (todo) is a root too. */

typedef struct finaliser_count {
    agent_walk *walk;
    unsigned long n;
} finaliser_count;

static int final_table(finaliser_count *fc, struct final *item, uintnat count, int due)
{
    for (uintnat i = 0; i < count; i++) {
        char name[64];
        fc->n++;
        snprintf(name, sizeof name, "finaliser %lu", fc->n);
        if (agent_slot_seen(&item[i].fun) &&
            agent_walk_root(fc->walk, item[i].fun, "finaliser", name))
            return -1;
        if (!due) {
            if (agent_walk_weak(fc->walk, item[i].fun, item[i].val, "finalised value"))
                return -1;
            continue;
        }
        snprintf(name, sizeof name, "finaliser %lu: value to finalise", fc->n);
        if (agent_heap_block(item[i].val) && agent_slot_seen(&item[i].val) &&
            agent_walk_root(fc->walk, item[i].val, "finaliser", name))
            return -1;
    }
    return 0;
}

static int finaliser_roots(finaliser_count *fc, caml_domain_state *d)
{
    struct caml_final_info *f = d->final_info;
    if (!f)
        return 0;
    if (final_table(fc, f->first.table, f->first.young, 0) ||
        final_table(fc, f->last.table, f->last.young, 0))
        return -1;
    for (struct final_todo *todo = f->todo_head; todo; todo = todo->next)
        if (final_table(fc, todo->item, todo->size, 1))
            return -1;
    return 0;
}

/* ---- per domain */

static int domain_roots(agent_walk *walk, caml_domain_state *d, finaliser_count *fc)
{
    long running;
    char who[64];
    if (agent5_threads_begin(d, &running))
        return -1;
    if (running >= 0)
        snprintf(who, sizeof who, "domain %d thread %ld", d->id, running);
    else
        snprintf(who, sizeof who, "domain %d", d->id);
    if (agent5_stack_roots(walk, who, d->current_stack, d->gc_regs, d->local_roots) ||
        agent5_threads_collect(walk, d) || finaliser_roots(fc, d))
        return -1;
#if AGENT5_HAS_MEMPROF
    scan_state st = {walk, "memprof", d, 0};
    caml_memprof_scan_roots(named_root, 0, &st, d, 0);
    return st.failed ? -1 : 0;
#else
    return 0;
#endif
}

int agent_roots_collect(agent_walk *walk)
{
    finaliser_count fc = {walk, 0};
    agent_slots_reset();
    if (agent_globals_collect(walk))
        return -1;
    for (int i = 0; i < agent5_domain_count; i++)
        if (domain_roots(walk, agent5_domains[i], &fc))
            return -1;
    scan_state st = {walk, "C global", NULL, 0};
    caml_scan_global_roots(named_root, &st);
    /* whatever no named source gave (do_final_val 0: the values finalisers
     * watch are not held by them) */
    st.kind = "global";
    for (int i = 0; i < agent5_domain_count && !st.failed; i++) {
        st.domain = agent5_domains[i];
        caml_do_roots(named_root, 0, &st, agent5_domains[i], 0);
    }
    return st.failed ? -1 : 0;
}
