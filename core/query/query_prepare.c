/* query_prepare.c - what a query's predicates need before the pass: the
 * classes of its from list (query_classes.c), the objects it may choose
 * and the objects each reachable(KIND) reaches (query_reach.c), the objects
 * each owned_by(CLASS) is under in the dominator tree, and the roots by
 * object for @root. */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "query_ast.h"


/* Bits of the objects with an owner of a class in cls above them in the
 * dominator tree. Each object's answer is its immediate dominator's class
 * or that dominator's answer: a climb up the dominators stops at the
 * first object already known, so every object is climbed through once. */
static int owned_bits(const lf_snapshot *s, const uint8_t *cls, uint8_t *bits, lf_error *err)
{
    uint8_t *known = lf_big_calloc(s->object_count / 8 + 1, 1);
    uint32_t *path = NULL;
    size_t depth = 0, cap = 0;
    if (!known)
        return lf_fail_nomem(err, "finding owners");
    for (uint32_t v = 0; v < s->object_count; v++) {
        uint32_t u = v;
        depth = 0;
        while (u < s->object_count && !q_bit(known, u)) {
            if (lf_vec_reserve((void **)&path, &cap, depth + 1, sizeof *path)) {
                lf_big_free(known);
                return lf_fail_nomem(err, "finding owners");
            }
            path[depth++] = u;
            u = s->idom[u];
        }
        while (depth) {
            uint32_t w = path[--depth], d = s->idom[w];
            if (d < s->object_count && (cls[s->object_class[d]] || q_bit(bits, d)))
                q_bit_set(bits, w);
            q_bit_set(known, w);
        }
    }
    lf_big_free(path);
    lf_big_free(known);
    return 0;
}

static int call_maps(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    for (size_t n = 0; n < q->node_count; n++) {
        q_node *x = &q->node[n];
        if (x->kind != QN_CALL)
            continue;
        size_t cls = (size_t)x->i;
        uint8_t **grown = realloc(q->bitmap, (q->bitmap_count + 1) * sizeof *grown);
        if (!grown)
            return lf_fail_nomem(err, "preparing the query");
        q->bitmap = grown;
        uint8_t *bits = lf_big_calloc(s->object_count / 8 + 1, 1);
        if (!bits)
            return lf_fail_nomem(err, "preparing the query");
        q->bitmap[q->bitmap_count] = bits;
        x->i = (int64_t)q->bitmap_count++;
        if (x->op != QF_OWNED_BY) {
            if (q_root_bits(q, s, x, bits, err))
                return -1;
            continue;
        }
        uint8_t *classes = calloc(s->class_count + 1, 1);
        int rc = classes ? q_class_set(q, s, cls, classes, err) : lf_fail_nomem(err, "preparing the query");
        if (!rc && !s->idom)
            rc = q_fail(err, x->pos, "owned_by needs the dominator tree");
        if (!rc)
            rc = owned_bits(s, classes, bits, err);
        free(classes);
        if (rc)
            return -1;
    }
    return 0;
}

typedef struct root_at {
    uint32_t node, kind;
} root_at;

static int by_root_node(const void *a, const void *b)
{
    const root_at *x = a, *y = b;
    return x->node != y->node ? (x->node < y->node ? -1 : 1) : 0;
}

/* Roots by object, for @root (the first root naming an object gives its kind). */
static int root_index(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    root_at *by_node = malloc(((size_t)s->root_count + 1) * sizeof *by_node);
    if (!by_node)
        return lf_fail_nomem(err, "preparing the query");
    for (uint32_t r = 0; r < s->root_count; r++)
        by_node[r] = (root_at){s->root[r].node, s->root[r].kind};
    if (s->root_count)
        qsort(by_node, s->root_count, sizeof *by_node, by_root_node);
    q->root_by_node = by_node;
    return 0;
}

uint32_t q_root_kind(const lf_query *q, uint32_t obj)
{
    const root_at *by_node = q->root_by_node;
    size_t lo = 0, hi = q->s->root_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_node[mid].node < obj)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < q->s->root_count && by_node[lo].node == obj ? by_node[lo].kind : UINT32_MAX;
}

int q_prepare_maps(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    if (q_from_classes(q, s, err) || q_live_objects(q, s, err) || call_maps(q, s, err) || root_index(q, s, err))
        return -1;
    return 0;
}

void q_prepare_free(lf_query *q)
{
    free(q->from_match);
    for (size_t b = 0; b < q->bitmap_count; b++)
        lf_big_free(q->bitmap[b]);
    free(q->bitmap);
    free(q->root_by_node);
    lf_big_free(q->live);
    lf_big_free(q->from_nodes);
    q->live = NULL;
    q->from_nodes = NULL;
    q->from_match = NULL;
    q->bitmap = NULL;
    q->bitmap_count = 0;
    q->root_by_node = NULL;
}
