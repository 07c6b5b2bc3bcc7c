/* roots.c - every GC root of the program, with its kind and name.
 *
 * The runtime's own scan (caml_do_roots) passes each root to a callback
 * that learns nothing of where the root comes from, so the agent asks each
 * source in turn: module globals, the stacks frame by frame, C local roots,
 * C global roots, finalisers, memprof trackers, the threads' hook; last
 * caml_do_roots itself, for whatever no named source gave (natdynlink
 * globals). A slot seen once is never declared again. */
#define CAML_INTERNALS
#include "ocaml4.h"

#include <stdio.h>
#include <string.h>

#include <caml/backtrace_prim.h>
#include <caml/finalise.h>
#include <caml/globroots.h>
#include <caml/memory.h>
#include <caml/memprof.h>
#include <caml/roots.h>
#include <caml/stack.h>

/* ---- stacks */

/* The descriptor of a return address; NULL for an address the frame table
 * does not know (the runtime would loop for ever there). */
static frame_descr *find_descr(uintnat retaddr)
{
    uintnat h = Hash_retaddr(retaddr);
    for (uintnat probes = 0; probes <= caml_frame_descriptors_mask; probes++) {
        frame_descr *d = caml_frame_descriptors[h];
        if (!d)
            return NULL;
        if (d->retaddr == retaddr)
            return d;
        h = (h + 1) & caml_frame_descriptors_mask;
    }
    return NULL;
}

int agent_stack_known(uintnat retaddr)
{
    return find_descr(retaddr) != NULL;
}

static void frame_name(char *buf, size_t len, long thread, int frame_no, frame_descr *d,
                       uintnat retaddr)
{
    if (d->frame_size & 1) {
        struct caml_loc_info li;
        caml_debuginfo_location(caml_debuginfo_extract(d), &li);
        if (li.loc_valid) {
            char fn[200];
            lf_ocaml_name(li.loc_defname, strlen(li.loc_defname), fn, sizeof fn);
            snprintf(buf, len, "thread %ld frame %d: %s (%s:%d)", thread, frame_no, fn,
                     li.loc_filename, li.loc_lnum);
            return;
        }
    }
    char fn[200] = "?";
    const agent_symbol *s = agent_symbol_holding(agent_symbols_get(), retaddr);
    if (s)
        agent_demangle(s->name, fn, sizeof fn);
    snprintf(buf, len, "thread %ld frame %d: %s", thread, frame_no, fn);
}

static int frame_roots(agent_walk *walk, long thread, int frame_no, frame_descr *d,
                       uintnat retaddr, char *sp, value *regs)
{
    char name[512];
    name[0] = 0;
    unsigned short *p = d->live_ofs;
    for (int n = d->num_live; n > 0; n--, p++) {
        value *root = (*p & 1) ? regs + (*p >> 1) : (value *)(sp + *p);
        if (!agent_walk_block(*root) || !agent_slot_seen(root))
            continue;
        if (!name[0])
            frame_name(name, sizeof name, thread, frame_no, d, retaddr);
        if (agent_walk_root(walk, *root, "stack", name))
            return -1;
    }
    return 0;
}

static int local_roots(agent_walk *walk, long thread, struct caml__roots_block *lr)
{
    char name[64];
    snprintf(name, sizeof name, "thread %ld C local roots", thread);
    for (; lr != NULL; lr = lr->next)
        for (intnat i = 0; i < lr->ntables; i++)
            for (intnat j = 0; j < lr->nitems; j++) {
                value *root = &lr->tables[i][j];
                if (agent_walk_block(*root) && agent_slot_seen(root) &&
                    agent_walk_root(walk, *root, "C local", name))
                    return -1;
            }
    return 0;
}

/* As the runtime's caml_do_local_roots_nat: frame by frame from the newest,
 * across the C parts of callbacks, then the C local roots. */
int agent_stack_collect(agent_walk *walk, long thread, char *sp, uintnat retaddr,
                        value *regs, void *local)
{
    int frame_no = 0;
    while (sp != NULL) {
        frame_descr *d = find_descr(retaddr);
        if (!d)
            break; /* not an OCaml return address: stop rather than guess */
        if (d->frame_size != 0xFFFF) {
            if (frame_roots(walk, thread, frame_no++, d, retaddr, sp, regs))
                return -1;
            sp += d->frame_size & 0xFFFC;
            retaddr = Saved_return_address(sp);
        } else {
            struct caml_context *next = Callback_link(sp);
            sp = next->bottom_of_stack;
            retaddr = next->last_retaddr;
            regs = next->gc_regs;
        }
    }
    return local_roots(walk, thread, local);
}

/* ---- sources that report through a scanning action */

static agent_walk *scan_walk;
static int scan_failed;
static const char *scan_kind;
static value *finaliser_last_fun;
static unsigned long scan_count;

static void c_global_root(value v, value *slot)
{
    if (scan_failed || !agent_walk_block(v) || !agent_slot_seen(slot))
        return;
    char name[256];
    uint32_t shape = 0;
    const agent_symbol *s = agent_symbol_holding(agent_symbols_get(), (uintptr_t)slot);
    if (agent_global_slot_name(s, slot, name, sizeof name, &shape))
        scan_failed |= agent_walk_typed_root(scan_walk, v, shape) != 0;
    else if (s && s->size)
        agent_demangle(s->name, name, sizeof name);
    else
        snprintf(name, sizeof name, "%p", (void *)slot);
    scan_failed |= agent_walk_root(scan_walk, v, scan_kind, name) != 0;
}

/* Finalisers: the closure is a root; the value it finalises sits one word
 * after it (struct final in 4.13/4.14) and is held weakly. A value pending
 * its finaliser's run comes right after its closure and is a root too. */
static void finaliser_root(value v, value *slot)
{
    if (scan_failed || !agent_slot_seen(slot))
        return;
    char name[64];
    if (finaliser_last_fun && slot == finaliser_last_fun + 1) {
        snprintf(name, sizeof name, "finaliser %lu: value to finalise", scan_count);
        finaliser_last_fun = NULL;
    } else {
        finaliser_last_fun = slot;
        scan_count++;
        snprintf(name, sizeof name, "finaliser %lu", scan_count);
        scan_failed |= agent_walk_weak(scan_walk, v, slot[1], "finalised value") != 0;
    }
    scan_failed |= agent_walk_root(scan_walk, v, "finaliser", name) != 0;
}

static void memprof_root(value v, value *slot)
{
    if (scan_failed || !agent_walk_block(v) || !agent_slot_seen(slot))
        return;
    char name[64];
    snprintf(name, sizeof name, "memprof tracker %lu", ++scan_count);
    scan_failed |= agent_walk_root(scan_walk, v, "memprof", name) != 0;
}

static int scan_with(agent_walk *walk, const char *kind, void (*scan)(scanning_action),
                     scanning_action action)
{
    scan_walk = walk;
    scan_failed = 0;
    scan_kind = kind;
    finaliser_last_fun = NULL;
    scan_count = 0;
    scan(action);
    return scan_failed ? -1 : 0;
}

static void scan_everything_else(scanning_action action)
{
    caml_do_roots(action, 0);
}

int agent_roots_collect(agent_walk *walk)
{
    long thread = 0;
    agent_slots_reset();
    if (agent_threads_begin(&thread) ||
        agent_globals_collect(walk) ||
        agent_stack_collect(walk, thread, Caml_state_field(bottom_of_stack),
                            Caml_state_field(last_return_address), Caml_state_field(gc_regs),
                            Caml_state_field(local_roots)) ||
        agent_threads_collect(walk) ||
        scan_with(walk, "C global", caml_scan_global_roots, c_global_root) ||
        scan_with(walk, "finaliser", caml_final_do_roots, finaliser_root) ||
        scan_with(walk, "memprof", caml_memprof_do_roots, memprof_root) ||
        scan_with(walk, "global", scan_everything_else, c_global_root))
        return -1;
    return 0;
}
