/* dom_roots.h - the `field` of a top owner in the dominators tree: the root
 * that holds it, all of them when several do ("3 roots: JNI global, static
 * field X.y, thread main"), or for a V8 object under synthetic nodes the
 * chain of those nodes ("root: (GC roots) / (Stack roots)"). A top owner no
 * root names is held by objects under several other top owners (that is why
 * none of them dominates it): it names their roots the same way. */
#ifndef LF_DOM_ROOTS_H
#define LF_DOM_ROOTS_H

#include <stdint.h>

#include "../core/snapshot.h"
#include "output.h"

#include <Judy.h>

enum { DOM_HELD_MAX = 4 };

typedef struct dom_roots {
    const lf_snapshot *s;
    uint32_t *by_node;   /* root indices by node, then index; NULL until asked */
    int failed;          /* no memory for by_node: scan the roots instead */
    /* Top owners that no root names, held by objects under other top owners:
     * up to DOM_HELD_MAX of those top owners each (one pass over the edges,
     * made the first time such an owner is shown). */
    int held_done;
    Pvoid_t held_index;  /* JudyL: top owner -> row + 1 */
    uint32_t (*held)[DOM_HELD_MAX];
    uint32_t *held_count;
    size_t held_rows, held_cap, held_count_cap;
} dom_roots;

void dom_roots_init(dom_roots *r, const lf_snapshot *s);
/* Writes node's field; via: the synthetic node it hangs under, or LF_NODE_NONE. */
void dom_roots_write(dom_roots *r, out_writer *w, uint32_t node, uint32_t via);
/* The same text into buf (size >= 64); its length. */
size_t dom_roots_text(dom_roots *r, uint32_t node, uint32_t via, char *buf, size_t size);
void dom_roots_free(dom_roots *r);

#endif
