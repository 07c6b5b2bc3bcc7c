/* root_reach.c - see root_reach.h. Each kind in turn walks what its roots
 * reach, marking every object with the one kind that reached it or with
 * SEVERAL. A walk stops at objects its own kind already marked, and at
 * SEVERAL: whatever is below an object marked SEVERAL was marked SEVERAL by
 * the walk that marked it, as everything below it had been reached by the
 * kind that reached it first. So an object is walked at most twice: when
 * first reached, and when a second kind reaches it.
 *
 * An object that is itself a root belongs to the kinds of the roots that
 * name it: walks enter it from their starts only, not along references.
 * Roots refine one another: a JVM class (a "system class" root) references
 * the values of its static fields, which are "static field" roots; were the
 * class's walk to enter them, every static's memory would be "several
 * kinds". */
#include "root_reach.h"

#include <stdlib.h>

#include "../base/bigmem.h"
#include "../base/vec.h"

enum { NOBODY = 0xffff, SEVERAL = 0xfffe };

typedef struct reach_walk {
    const lf_snapshot *s;
    uint16_t *owner;    /* node -> kind index, NOBODY or SEVERAL */
    uint8_t *is_root;   /* node -> bit: some root names it */
    uint32_t *stack;    /* nodes to walk from */
    size_t depth, cap;
} reach_walk;

/* Marks v as reached by kind k; pushes it when its objects must be walked. */
static int reach(reach_walk *w, uint32_t v, uint16_t k)
{
    uint16_t o = w->owner[v];
    if (o == k || o == SEVERAL)
        return 0;
    w->owner[v] = o == NOBODY ? k : SEVERAL;
    if (lf_vec_reserve((void **)&w->stack, &w->cap, w->depth + 1, sizeof *w->stack))
        return -1;
    w->stack[w->depth++] = v;
    return 0;
}

static int walk_kind(reach_walk *w, const lf_root_row *rows, uint64_t count, uint32_t kind, uint16_t k)
{
    const lf_snapshot *s = w->s;
    for (uint64_t i = 0; i < count; i++)
        if (rows[i].kind == kind && reach(w, rows[i].node, k))
            return -1;
    while (w->depth > 0) {
        uint32_t v = w->stack[--w->depth];
        uint16_t mark = w->owner[v]; /* SEVERAL spreads as such */
        for (uint64_t e = lf_snapshot_edges_begin(s, v); e < lf_snapshot_edges_end(s, v); e++) {
            uint32_t t = s->edge_target[e], u = lf_edge_node(t);
            if (!lf_edge_is_weak(t) && !(w->is_root[u >> 3] & (1u << (u & 7))) && reach(w, u, mark))
                return -1;
        }
    }
    return 0;
}

int lf_root_kind_reach(const lf_snapshot *s, const lf_root_row *rows, uint64_t count,
                       const lf_root_kind_total *totals, size_t kinds, lf_kind_reach *reach_out,
                       lf_kind_reach *shared, lf_error *err)
{
    const uint32_t n = s->object_count;
    reach_walk w = {s, NULL, NULL, NULL, 0, 0};
    if (kinds >= SEVERAL)
        return lf_fail_nomem(err, "root kinds");
    w.owner = lf_big_malloc(((size_t)n + 1) * sizeof *w.owner);
    w.is_root = lf_big_calloc((size_t)n / 8 + 1, 1);
    if (!w.owner || !w.is_root) {
        lf_big_free(w.owner);
        lf_big_free(w.is_root);
        return lf_fail_nomem(err, "root kinds");
    }
    for (uint32_t v = 0; v < n; v++)
        w.owner[v] = NOBODY;
    for (uint64_t i = 0; i < count; i++)
        w.is_root[rows[i].node >> 3] |= (uint8_t)(1u << (rows[i].node & 7));
    int rc = 0;
    for (size_t k = 0; k < kinds && rc == 0; k++)
        rc = walk_kind(&w, rows, count, totals[k].kind, (uint16_t)k);
    *shared = (lf_kind_reach){0, 0};
    for (size_t k = 0; k < kinds; k++)
        reach_out[k] = (lf_kind_reach){0, 0};
    for (uint32_t v = 0; v < n && rc == 0; v++) {
        uint16_t o = w.owner[v];
        if (o == NOBODY)
            continue;
        lf_kind_reach *to = o == SEVERAL ? shared : &reach_out[o];
        to->objects++;
        to->bytes += lf_snapshot_shallow(s, v);
    }
    lf_big_free(w.owner);
    lf_big_free(w.is_root);
    lf_big_free(w.stack);
    return rc ? lf_fail_nomem(err, "root kinds") : 0;
}

/* One walk from start, objects stamped with `stamp`; *visited counts them.
 * Returns the bytes, or UINT64_MAX when the budget ran out first. */
static uint64_t reach_from(const lf_snapshot *s, uint32_t start, uint32_t stamp, uint32_t *mark,
                           uint32_t **stack, size_t *cap, uint64_t *visited, uint64_t budget, int *failed)
{
    uint64_t bytes = 0;
    size_t depth = 0;
    mark[start] = stamp;
    (*stack)[depth++] = start;
    while (depth > 0) {
        uint32_t v = (*stack)[--depth];
        bytes += lf_snapshot_shallow(s, v);
        if (budget && ++*visited > budget)
            return UINT64_MAX;
        for (uint64_t e = lf_snapshot_edges_begin(s, v); e < lf_snapshot_edges_end(s, v); e++) {
            uint32_t t = s->edge_target[e], u = lf_edge_node(t);
            if (lf_edge_is_weak(t) || mark[u] == stamp)
                continue;
            if (lf_vec_reserve((void **)stack, cap, depth + 1, sizeof **stack)) {
                *failed = 1;
                return UINT64_MAX;
            }
            mark[u] = stamp;
            (*stack)[depth++] = u;
        }
    }
    return bytes;
}

static const uint32_t *sort_nodes;

static int by_node_then_row(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (sort_nodes[a] != sort_nodes[b])
        return sort_nodes[a] < sort_nodes[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* first[i]: the lowest row naming the node row i names. */
static int first_rows(const uint32_t *nodes, size_t n, uint32_t *first)
{
    uint32_t *order = malloc((n + 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    sort_nodes = nodes;
    qsort(order, n, sizeof *order, by_node_then_row);
    for (size_t k = 0; k < n; k++)
        first[order[k]] = k > 0 && nodes[order[k - 1]] == nodes[order[k]] ? first[order[k - 1]] : order[k];
    free(order);
    return 0;
}

int64_t lf_reachable_bytes(const lf_snapshot *s, const uint32_t *nodes, size_t n, uint64_t budget,
                           uint64_t *bytes, lf_error *err)
{
    uint32_t *mark = lf_big_calloc((size_t)s->object_count + 1, sizeof *mark);
    uint32_t *first = malloc((n + 1) * sizeof *first);
    uint32_t *stack = NULL;
    size_t cap = 0;
    if (!mark || !first || first_rows(nodes, n, first) || lf_vec_reserve((void **)&stack, &cap, 1, sizeof *stack)) {
        lf_big_free(mark);
        free(first);
        return lf_fail_nomem(err, "reachable bytes");
    }
    uint64_t visited = 0;
    int failed = 0;
    int64_t done = 0;
    for (size_t i = 0; i < n; i++)
        bytes[i] = UINT64_MAX;
    for (size_t i = 0; i < n && !failed; i++) {
        if (first[i] < i) /* a node several rows name: walked once */
            bytes[i] = bytes[first[i]];
        else
            bytes[i] = reach_from(s, nodes[i], (uint32_t)i + 1, mark, &stack, &cap, &visited, budget, &failed);
        if (bytes[i] == UINT64_MAX)
            break;
        done++;
    }
    lf_big_free(mark);
    free(first);
    lf_big_free(stack);
    return failed ? lf_fail_nomem(err, "reachable bytes") : done;
}
