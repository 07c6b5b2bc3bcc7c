/* dom_roots.h - the `field` of a top owner in the dominators tree: the root
 * that holds it, all of them when several do ("3 roots: JNI global, static
 * field X.y, thread main"), or for a V8 object under synthetic nodes the
 * chain of those nodes ("root: (GC roots) / (Stack roots)"). A top owner no
 * root names is held by objects under several other top owners (that is why
 * none of them dominates it): it names their roots the same way. */
#ifndef LF_DOM_ROOTS_H
#define LF_DOM_ROOTS_H

#include <stdint.h>

#include "../../core/model/snapshot.h"
#include "../../core/analysis/owner_holders.h"
#include "output.h"

typedef struct dom_roots {
    const lf_snapshot *s;
    uint32_t *by_node;   /* root indices by node, then index; NULL until asked */
    int failed;          /* no memory for by_node: scan the roots instead */
    lf_owner_holders held; /* holders of the top owners no root names */
    int held_failed;     /* no memory for them: such owners name no roots (an error) */
    /* Top owners the listing will show (dom_roots_expect): the first one
     * that no root names has their holders looked for in one pass. */
    uint32_t *expected;
    size_t expected_count, expected_cap;
} dom_roots;

void dom_roots_init(dom_roots *r, const lf_snapshot *s);
/* Writes node's field; via: the synthetic node it hangs under, or LF_NODE_NONE. */
void dom_roots_write(dom_roots *r, out_writer *w, uint32_t node, uint32_t via);
/* The same text into buf (size >= 64); its length. */
size_t dom_roots_text(dom_roots *r, uint32_t node, uint32_t via, char *buf, size_t size);
/* Says that node, a top owner, will be shown. Optional: an owner not said
 * costs a pass over the edges of its own. */
void dom_roots_expect(dom_roots *r, uint32_t node);
/* Whether some field was written short for want of memory (a top owner's
 * holders): the output is then incomplete, an error. */
int dom_roots_failed(const dom_roots *r);
void dom_roots_free(dom_roots *r);

#endif
