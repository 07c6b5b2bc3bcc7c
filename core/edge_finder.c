/* edge_finder.c - see edge_finder.h. */
#include "edge_finder.h"

#include <Judy.h>
#include <stdlib.h>

#include "bsearch.h"
#include "idrank.h" /* lf_sort_u64 */

/* Nodes with fewer edges are scanned: a sort costs more than a few scans. */
#define SORT_MIN_EDGES 4096

/* Key of an edge: target node, then strong before weak, then its place
 * among the node's edges. The first key of a target is the answer. */
static inline uint64_t edge_key(uint32_t target, uint64_t place)
{
    return (uint64_t)lf_edge_node(target) << 33 | (uint64_t)lf_edge_is_weak(target) << 32 | place;
}

typedef struct sorted_edges {
    uint64_t count;
    uint64_t key[];
} sorted_edges;

void lf_edge_finder_init(lf_edge_finder *f, const lf_snapshot *s)
{
    f->s = s;
    f->sorted = NULL;
}

static sorted_edges *sort_edges(const lf_snapshot *s, uint32_t from)
{
    uint64_t first = s->edge_offset[from], count = s->edge_offset[from + 1] - first;
    sorted_edges *x = malloc(sizeof *x + count * sizeof x->key[0]);
    if (!x)
        return NULL;
    x->count = count;
    for (uint64_t i = 0; i < count; i++)
        x->key[i] = edge_key(s->edge_target[first + i], i);
    if (lf_sort_u64(x->key, count)) {
        free(x);
        return NULL;
    }
    return x;
}

uint64_t lf_edge_finder_find(lf_edge_finder *f, uint32_t from, uint32_t to)
{
    const lf_snapshot *s = f->s;
    uint64_t first = s->edge_offset[from], count = s->edge_offset[from + 1] - first;
    /* places need 32 bits: a node with more edges than that is scanned */
    if (count < SORT_MIN_EDGES || count > UINT32_MAX)
        return lf_snapshot_find_edge(s, from, to);
    PWord_t slot;
    JLI(slot, f->sorted, (Word_t)from);
    if (slot == PJERR)
        return lf_snapshot_find_edge(s, from, to);
    if (!*slot)
        *slot = (Word_t)sort_edges(s, from);
    const sorted_edges *x = (const sorted_edges *)*slot;
    if (!x) /* out of memory: the scan still answers */
        return lf_snapshot_find_edge(s, from, to);
    uint64_t at = lf_lower_bound_u64(x->key, x->count, (uint64_t)to << 33);
    if (at == x->count || x->key[at] >> 33 != to)
        return UINT64_MAX;
    return first + (x->key[at] & 0xffffffffu);
}

void lf_edge_finder_free(lf_edge_finder *f)
{
    Word_t node = 0;
    PWord_t slot;
    JLF(slot, f->sorted, node);
    while (slot) {
        free((void *)*slot);
        JLN(slot, f->sorted, node);
    }
    Word_t freed;
    JLFA(freed, f->sorted);
    (void)freed;
    f->sorted = NULL;
}
