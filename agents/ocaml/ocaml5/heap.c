/* heap.c (OCaml 5) - where blocks live.
 *
 * OCaml 5 has no page table and no naked pointers: every pointer in a
 * scanned block or root is a block with a header, which the runtime's own
 * GC reads. The shared heap's pools and large blocks are not listed, so the
 * walk marks them in windows (heapwalk.c); the regions declared here are
 * the running domains' minor heaps. A block outside every minor heap whose
 * header says NOT_MARKABLE is static data (the program image, or a C
 * block made to look like one). Ephemerons are per domain, on the todo and
 * live lists of its ephe_info; a key is dead once marking is over
 * (Phase_sweep_ephe) if it was not marked. A continuation (Cont_tag) holds
 * its fiber's stack outside the heap: its frames' live slots are its
 * children, named by frame, and the stack's bytes count in its size. */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <stdio.h>

#include <caml/address_class.h>
#include <caml/major_gc.h>
#include <caml/shared_heap.h>
#include <caml/weak.h>

value agent_heap_block(value v)
{
    if (Is_long(v) || v == 0)
        return 0;
    if (Tag_val(v) == Infix_tag)
        v -= Infix_offset_val(v);
    return v;
}

int agent_heap_regions(agent_walk *walk)
{
    for (int i = 0; i < agent5_domain_count; i++) {
        caml_domain_state *d = agent5_domains[i];
        if (d->young_end > d->young_start &&
            agent_walk_add_region(walk, (uintptr_t)d->young_start, (uintptr_t)d->young_end))
            return -1;
    }
    return 0;
}

int agent_heap_is_static(value b)
{
    return !Is_young(b) && Has_status_val(b, NOT_MARKABLE);
}

int agent_heap_ephemerons(agent_walk *walk)
{
    for (int i = 0; i < agent5_domain_count; i++) {
        struct caml_ephe_info *info = agent5_domains[i]->ephe_info;
        if (!info)
            continue;
        value lists[2] = {info->todo, info->live};
        for (int l = 0; l < 2; l++)
            for (value e = lists[l]; e != 0; e = Ephe_link(e))
                if (agent_walk_ephemeron(walk, e))
                    return -1;
    }
    return 0;
}

int agent_heap_key_dead(value k)
{
    return caml_gc_phase == Phase_sweep_ephe && !Is_young(k) &&
           Has_status_val(k, caml_global_heap_state.UNMARKED);
}

/* The minor heaps' used parts, and a guess for the shared heap from the
 * words the domains promoted and allocated there (no pass over its pools:
 * they are not listed). */
void agent_heap_estimate(uint64_t *blocks, uint64_t *fields)
{
    uint64_t words = 0;
    for (int i = 0; i < agent5_domain_count; i++) {
        caml_domain_state *d = agent5_domains[i];
        words += (uint64_t)(d->young_end - d->young_ptr);
    }
    *blocks = words / 2 + 1024;
    *fields = words + 1024;
}

/* ---- continuations */

static struct stack_info *fiber_of(value cont)
{
    value stack = Field(cont, 0);
    return Is_long(stack) ? (struct stack_info *)Ptr_val(stack) : NULL;
}

typedef struct fiber_scan {
    agent_walk *walk;
    value cont;
    int emit;
} fiber_scan;

static int fiber_slot(void *ctx, value *slot, int frame_no, void *descr, uintnat retaddr)
{
    fiber_scan *f = ctx;
    char name[400] = "";
    if (f->emit && agent_heap_block(*slot))
        agent5_frame_name(name, sizeof name, "", frame_no, descr, retaddr);
    return agent_walk_child(f->walk, f->cont, *slot, name, f->emit);
}

int agent_heap_scan_own(agent_walk *walk, value v, int emit)
{
    if (Tag_val(v) != Cont_tag)
        return 0;
    struct stack_info *stack = fiber_of(v);
    fiber_scan f = {walk, v, emit};
    if (stack && agent5_walk_stack(stack, NULL, fiber_slot, &f))
        return -1;
    return 1;
}

const char *agent_heap_label(value v)
{
    return Tag_val(v) == Cont_tag ? "continuation" : NULL;
}

/* The fibers' stacks, each from its stack_info to the end of its handler. */
uint64_t agent_heap_extra_bytes(value v)
{
    if (Tag_val(v) != Cont_tag)
        return 0;
    uint64_t bytes = 0;
    for (struct stack_info *s = fiber_of(v); s; s = Stack_parent(s))
        bytes += (uint64_t)((char *)Stack_high(s) - (char *)s) + sizeof(struct stack_handler);
    return bytes;
}
