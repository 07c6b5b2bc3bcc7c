/* heap.c (OCaml 4.13/4.14) - where blocks live.
 *
 * The major heap is a list of chunks and the minor heap one range; the page
 * table says whether an address is in either (Is_in_value_area), so a value
 * that is neither is static data or outside the OCaml heap altogether. The
 * ephemerons are one list, and between marking and sweeping (Phase_clean)
 * a key still white is dead. */
#define CAML_INTERNALS
#include "../agent.h"

#include <caml/address_class.h>
#include <caml/gc.h>
#include <caml/major_gc.h>
#include <caml/weak.h>

value agent_heap_block(value v)
{
    if (Is_long(v) || v == 0 || !Is_in_value_area(v))
        return 0;
    if (Tag_val(v) == Infix_tag)
        v -= Infix_offset_val(v);
    return v;
}

int agent_heap_regions(agent_walk *walk)
{
    for (char *chunk = caml_heap_start; chunk; chunk = Chunk_next(chunk))
        if (agent_walk_add_region(walk, (uintptr_t)chunk, (uintptr_t)chunk + Chunk_size(chunk)))
            return -1;
    uintptr_t young_lo = (uintptr_t)Caml_state_field(young_start);
    uintptr_t young_hi = (uintptr_t)Caml_state_field(young_end);
    if (young_hi > young_lo && agent_walk_add_region(walk, young_lo, young_hi))
        return -1;
    return 0;
}

int agent_heap_is_static(value b)
{
    return !Is_in_heap_or_young(b);
}

int agent_heap_ephemerons(agent_walk *walk)
{
    for (value e = caml_ephe_list_head; e != (value)NULL; e = Field(e, CAML_EPHE_LINK_OFFSET))
        if (agent_walk_ephemeron(walk, e))
            return -1;
    return 0;
}

int agent_heap_key_dead(value k)
{
    return caml_gc_phase == Phase_clean && Is_in_heap(k) && Is_white_val(k);
}

/* One sequential pass over the major heap's headers (free blocks skipped)
 * and the minor heap's size. */
void agent_heap_estimate(uint64_t *blocks, uint64_t *fields)
{
    *blocks = *fields = 0;
    for (char *chunk = caml_heap_start; chunk; chunk = Chunk_next(chunk)) {
        for (char *hp = chunk; hp < chunk + Chunk_size(chunk); hp += Bhsize_hd(Hd_hp(hp))) {
            header_t hd = Hd_hp(hp);
            if (Color_hd(hd) == Caml_blue)
                continue;
            (*blocks)++;
            if (Tag_hd(hd) < No_scan_tag)
                *fields += Wosize_hd(hd);
        }
    }
    uint64_t young = (uint64_t)((char *)Caml_state_field(young_alloc_end) -
                                (char *)Caml_state_field(young_ptr)) / sizeof(value);
    *blocks += young / 2;
    *fields += young;
}

/* 4.x has no block the runtime scans its own way. */
int agent_heap_scan_own(agent_walk *walk, value v, int emit)
{
    (void)walk, (void)v, (void)emit;
    return 0;
}

const char *agent_heap_label(value v)
{
    (void)v;
    return NULL;
}

uint64_t agent_heap_extra_bytes(value v)
{
    (void)v;
    return 0;
}
