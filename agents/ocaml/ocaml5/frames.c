/* frames.c (OCaml 5) - the frame table: the runtime's current table of
 * descriptors (5.3's struct caml_frame_descrs is private to
 * runtime/frame_descriptors.c; its first fields, as 5.1's and 5.2's
 * public one has them, below). */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <caml/frame_descriptors.h>

typedef struct frame_table_head {
    int num_descr;
    int mask;
    frame_descr **descriptors;
} frame_table_head;

const void *agent_frames_table(size_t *slots)
{
    agent5_frame_table table = caml_get_frame_descrs();
    frame_table_head *t = (frame_table_head *)AGENT5_FRAME_TABLE_HEAD(table);
    *slots = t && t->descriptors ? (size_t)t->mask + 1 : 0;
    return t ? t->descriptors : NULL;
}

void *agent_frames_debug_slot(size_t i, uintptr_t *retaddr)
{
    agent5_frame_table table = caml_get_frame_descrs();
    frame_table_head *t = (frame_table_head *)AGENT5_FRAME_TABLE_HEAD(table);
    frame_descr *d = t->descriptors[i];
    if (!d || frame_return_to_C(d) || !frame_has_debug(d))
        return NULL;
    *retaddr = d->retaddr;
    return d;
}
