/* dom_roots.h - the `field` of a top owner in the dominators tree: the root
 * that holds it, all of them when several do ("3 roots: JNI global, static
 * field X.y, thread main"), or for a V8 object under synthetic nodes the
 * chain of those nodes ("root: (GC roots) / (Stack roots)"). */
#ifndef LF_DOM_ROOTS_H
#define LF_DOM_ROOTS_H

#include <stdint.h>

#include "../core/snapshot.h"
#include "output.h"

typedef struct dom_roots {
    const lf_snapshot *s;
    uint32_t *by_node;   /* root indices by node, then index; NULL until asked */
    int failed;          /* no memory for by_node: scan the roots instead */
} dom_roots;

void dom_roots_init(dom_roots *r, const lf_snapshot *s);
/* Writes node's field; via: the synthetic node it hangs under, or LF_NODE_NONE. */
void dom_roots_write(dom_roots *r, out_writer *w, uint32_t node, uint32_t via);
void dom_roots_free(dom_roots *r);

#endif
