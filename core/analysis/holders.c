/* holders.c - see holders.h. */
#include "holders.h"
#include "../model/label_scratch.h"
#include "collections.h"

#include <stdlib.h>

#include "../base/bigmem.h"
#include "../../graph/halves.h"

/* Kinds a node has in the pass between finding its holder edge and reading
 * that edge's label: its label is then the edge's place among the
 * dominator's edges. */
enum { FOUND_STRONG = 0xfd, FOUND_WEAK = 0xfe };
/* The kind of a link the table left out (lf_holders_expect_signatures):
 * asked about, it is answered alone. */
enum { LINK_LEFT_OUT = 0xfc };


void lf_holders_init(lf_holders *h, const lf_snapshot *s)
{
    h->s = s;
    h->work = 0;
    h->budget = (uint64_t)s->object_count + s->edge_count + s->root_count;
    h->kind = NULL;
    h->label = NULL;
    h->failed = 0;
    h->threads = 1;
    h->skip_links = 0;
}

void lf_holders_use_threads(lf_holders *h, unsigned threads)
{
    h->threads = threads ? threads : 1;
}

void lf_holders_expect_all(lf_holders *h)
{
    h->budget = 0;
}

void lf_holders_expect_signatures(lf_holders *h)
{
    h->budget = 0;
    h->skip_links = 1;
}

int lf_holders_ready(const lf_holders *h)
{
    return h->kind != NULL && !h->skip_links;
}

int lf_holders_failed(const lf_holders *h)
{
    return h->failed;
}

void lf_holders_free(lf_holders *h)
{
    lf_big_free(h->kind);
    lf_big_free(h->label);
    h->kind = NULL;
    h->label = NULL;
}

/* One question: the first root of a top-level node, or the edge
 * lf_snapshot_find_edge finds from the dominator. */
static lf_holder ask_one(const lf_snapshot *s, uint32_t node, uint64_t *work, int *failed)
{
    lf_holder out = {LF_EDGE_KIND_NONE, 0};
    uint32_t d = s->idom[node];
    if (d == LF_NODE_SUPER) {
        for (uint32_t r = 0; r < s->root_count; r++)
            if (s->root[r].node == node) {
                *work += r + 1;
                return (lf_holder){LF_HOLDER_ROOT, r};
            }
        *work += s->root_count;
        return out;
    }
    if (d == LF_NODE_NONE)
        return out;
    uint64_t first = lf_snapshot_edges_begin(s, d);
    *work += lf_snapshot_edges_end(s, d) - first;
    uint64_t e = lf_snapshot_find_edge(s, d, node);
    if (e == UINT64_MAX)
        return out;
    if (lf_labels_from_start(s))
        *work += e - first;
    if (lf_snapshot_edge_info(s, e, &out.kind, &out.label))
        *failed = 1;
    return out;
}

/* Gives each node d dominates the place of its holder edge among d's edges
 * (the first strong one, else the first weak one); returns the place after
 * the last one given, 0 if none. */
enum { EDGES_AHEAD = 16 };

static uint64_t mark_children(lf_holders *h, uint32_t d)
{
    const lf_snapshot *s = h->s;
    uint64_t first = lf_snapshot_edges_begin(s, d), end = lf_snapshot_edges_end(s, d), places = 0;
    const uint64_t edges = s->edge_count;
    for (uint64_t e = first; e < end; e++) {
        /* the dominators come in node order, their edges one after the
         * other: a target some edges on, of this node or the next, is read
         * soon, and its dominator and mark are all over the arrays */
        if (e + EDGES_AHEAD < edges) {
            uint32_t ahead = lf_edge_node(s->edge_target[e + EDGES_AHEAD]);
            if (ahead < s->object_count) {
                __builtin_prefetch(&s->idom[ahead]);
                __builtin_prefetch(&h->kind[ahead]);
            }
        }
        uint32_t t = s->edge_target[e], v = lf_edge_node(t);
        if (v >= s->object_count || s->idom[v] != d)
            continue;
        uint8_t k = h->kind[v];
        if (k == LINK_LEFT_OUT)
            continue;
        if (h->skip_links && lf_same_class_as_dominator(s, v, d)) {
            h->kind[v] = LINK_LEFT_OUT;
            continue;
        }
        if (k == FOUND_STRONG || (k == FOUND_WEAK && lf_edge_is_weak(t)))
            continue;
        h->kind[v] = lf_edge_is_weak(t) ? FOUND_WEAK : FOUND_STRONG;
        h->label[v] = (uint32_t)(e - first);
        places = e - first + 1;
    }
    return places;
}


/* Replaces the places mark_children gave d's children by their edges' kinds
 * and labels, decoding d's edges once. Returns 0 or -1 (memory). */
static int label_children(lf_holders *h, uint32_t d, uint64_t places, lf_label_scratch *x)
{
    const lf_snapshot *s = h->s;
    const uint64_t first = lf_snapshot_edges_begin(s, d);
    const int decode = lf_labels_from_start(s);
    if (decode && lf_label_scratch_decode(x, s, d, places))
        return -1;
    for (uint32_t i = s->domtree_offset[d]; i < s->domtree_offset[d + 1]; i++) {
        uint32_t v = s->domtree_child[i];
        if (h->kind[v] != FOUND_STRONG && h->kind[v] != FOUND_WEAK)
            continue; /* no edge from d: kind NONE */
        uint32_t place = h->label[v];
        if (decode) {
            h->kind[v] = x->kind[place];
            h->label[v] = x->label[place];
        } else {
            if (lf_snapshot_edge_info(s, first + place, &h->kind[v], &h->label[v]))
                return -1;
        }
    }
    return 0;
}

/* The holders of the children of the dominators in [from, to). Each child
 * has one dominator, so two ranges write disjoint entries. 0 or -1 (memory). */
static int label_range(lf_holders *h, uint32_t from, uint32_t to, int *failed)
{
    const lf_snapshot *s = h->s;
    lf_label_scratch x = {NULL, NULL, 0};
    int rc = 0;
    for (uint32_t d = from; d < to && rc == 0; d++) {
        if (s->domtree_offset[d] == s->domtree_offset[d + 1])
            continue;
        if (lf_snapshot_edges_end(s, d) - lf_snapshot_edges_begin(s, d) > UINT32_MAX) {
            /* places would not fit a label: ask for each (never seen) */
            uint64_t ignored = 0;
            for (uint32_t i = s->domtree_offset[d]; i < s->domtree_offset[d + 1]; i++) {
                lf_holder o = ask_one(s, s->domtree_child[i], &ignored, failed);
                h->kind[s->domtree_child[i]] = o.kind;
                h->label[s->domtree_child[i]] = o.label;
            }
            continue;
        }
        uint64_t places = mark_children(h, d);
        if (places)
            rc = label_children(h, d, places, &x);
    }
    lf_label_scratch_free(&x);
    return rc;
}

/* The dominators split where half the edges are behind: the labels' work
 * goes with the edges decoded. */
typedef struct label_halves {
    lf_holders *h;
    uint32_t split;
    int rc[2], failed[2];
} label_halves;

static void label_half(void *ctx, unsigned half)
{
    label_halves *b = ctx;
    const uint32_t n = b->h->s->object_count;
    b->rc[half] = label_range(b->h, half ? b->split : 0, half ? n : b->split, &b->failed[half]);
}

static uint32_t edge_midpoint(const lf_snapshot *s)
{
    const uint32_t n = s->object_count;
    return lf_edge_offsets_lower_bound(s->edge_offset, n, lf_snapshot_edges_begin(s, n) / 2);
}

/* The holders of every node reachable, in one pass over the edges of the
 * nodes that dominate any, in two halves on two threads when allowed.
 * Returns 0 or -1 (memory). */
static int build_table(lf_holders *h)
{
    const lf_snapshot *s = h->s;
    const uint32_t n = s->object_count;
    h->kind = lf_big_calloc((size_t)n + 1, 1);
    h->label = lf_big_malloc(((size_t)n + 1) * sizeof *h->label);
    if (!h->kind || !h->label) {
        lf_holders_free(h);
        return -1;
    }
    for (uint32_t r = s->root_count; r > 0; r--) { /* the first root wins */
        uint32_t v = s->root[r - 1].node;
        if (v < n && s->idom[v] == LF_NODE_SUPER) {
            h->kind[v] = LF_HOLDER_ROOT;
            h->label[v] = r - 1;
        }
    }
    label_halves b = {h, edge_midpoint(s), {0, 0}, {0, 0}};
    lf_run_halves(label_half, &b, h->threads > 1 && n >= LF_THREADED_MIN_NODES);
    h->failed |= b.failed[0] | b.failed[1];
    if (b.rc[0] || b.rc[1]) {
        lf_holders_free(h);
        return -1;
    }
    return 0;
}

lf_holder lf_holders_get(lf_holders *h, uint32_t node)
{
    if (!h->kind && h->work > h->budget && build_table(h))
        h->budget = UINT64_MAX; /* out of memory: go on one question at a time */
    if (h->kind && h->kind[node] != LINK_LEFT_OUT)
        return (lf_holder){h->kind[node], h->label[node]};
    return ask_one(h->s, node, &h->work, &h->failed);
}
