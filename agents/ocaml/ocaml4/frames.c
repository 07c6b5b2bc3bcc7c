/* frames.c (OCaml 4.13/4.14) - the frame table: a global hash table of
 * descriptors; bit 0 of frame_size says a descriptor has debuginfo. */
#define CAML_INTERNALS
#include "../agent.h"

#include <caml/stack.h>

const void *agent_frames_table(size_t *slots)
{
    *slots = caml_frame_descriptors ? (size_t)caml_frame_descriptors_mask + 1 : 0;
    return caml_frame_descriptors;
}

void *agent_frames_debug_slot(size_t i, uintptr_t *retaddr)
{
    frame_descr *d = caml_frame_descriptors[i];
    if (!d || !(d->frame_size & 1))
        return NULL;
    *retaddr = d->retaddr;
    return d;
}
