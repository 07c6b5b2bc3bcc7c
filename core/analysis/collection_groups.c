/* collection_groups.c - what a collection holds, for the views; see
 * lf_collection_members_of in collections.h. */
#include "collections.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "analysis.h"
#include "../base/vec.h"

void lf_collection_members_free(lf_collection_members *m)
{
    lf_big_free(m->payload);
    lf_big_free(m->group);
    memset(m, 0, sizeof *m);
}

static int by_retained(const void *pa, const void *pb)
{
    const lf_class_group *a = pa, *b = pb;
    if (a->retained != b->retained)
        return a->retained > b->retained ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    if (a->structure != b->structure)
        return a->structure < b->structure ? -1 : 1;
    return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* Adds node x to the group of its class name and kind (index: name << 1 |
 * structure -> group + 1). Returns 0 or -1 (memory). */
static int add(const lf_snapshot *s, uint32_t x, int structure, Pvoid_t *index, lf_collection_members *out)
{
    uint32_t cls = s->object_class[x];
    uint64_t name = cls < s->class_count ? s->class_name[cls] : UINT32_MAX;
    PWord_t slot;
    JLI(slot, *index, (Word_t)(name << 1 | (uint64_t)structure));
    if (slot == PJERR)
        return -1;
    if (!*slot) {
        if (lf_vec_reserve((void **)&out->group, &out->group_cap, out->group_count + 1, sizeof *out->group))
            return -1;
        out->group[out->group_count++] = (lf_class_group){cls, structure, 0, 0, 0};
        *slot = out->group_count;
    }
    lf_class_group *g = &out->group[*slot - 1];
    uint64_t shallow = lf_snapshot_shallow(s, x);
    g->count++;
    g->shallow += shallow;
    g->retained += structure ? shallow : lf_snapshot_retained(s, x);
    return 0;
}

/* What the walk reads of a node it will take from its stack a few nodes
 * later: a store's members lie all over the arrays. */
enum { STACK_AHEAD = 4 };
LF_PREFETCH_HELPER void prefetch_node(const lf_snapshot *s, uint32_t x)
{
    __builtin_prefetch(&s->idom[x]);
    __builtin_prefetch(&s->object_class[x]);
    __builtin_prefetch(&s->domtree_offset[x]);
    __builtin_prefetch(&s->object_shallow.narrow[x]);
    __builtin_prefetch(&s->retained.narrow[x]);
}

/* A node's few children are asked for as they are pushed: below a chain (a
 * list's cells, one per member) the stack holds a cell and its element,
 * never STACK_AHEAD nodes to look ahead into, and the next cell is known
 * only once its cell is read. A wide node's (an array's) are asked for as
 * the walk nears them: asked all at once, most would leave the cache before
 * their turn. */
enum { PUSH_AHEAD_MAX = 8 };
static int push_children(const lf_snapshot *s, uint32_t x, uint32_t **stack, size_t *depth, size_t *cap)
{
    uint32_t begin = s->domtree_offset[x], end = s->domtree_offset[x + 1];
    for (uint32_t i = begin; i < end; i++) {
        if (lf_vec_reserve((void **)stack, cap, *depth + 1, sizeof **stack))
            return -1;
        uint32_t child = s->domtree_child[i];
        if (end - begin <= PUSH_AHEAD_MAX)
            prefetch_node(s, child);
        (*stack)[(*depth)++] = child;
    }
    return 0;
}

int lf_collection_members_of(const lf_snapshot *s, uint32_t store, lf_collection_members *out)
{
    return lf_collection_members_below(s, s->domtree_child + s->domtree_offset[store],
                                       s->domtree_offset[store + 1] - s->domtree_offset[store], 1, out);
}

/* sorted: the payload largest first (else as the walk found it) */
static int members_below(const lf_snapshot *s, const uint32_t *nodes, size_t count, int through, int sorted,
                         lf_collection_members *out)
{
    memset(out, 0, sizeof *out);
    Pvoid_t index = NULL;
    uint32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    int rc = 0;
    /* explicit stack over the structure below the store (no recursion) */
    for (size_t i = count; i > 0 && !rc; i--)
        if (lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack))
            rc = -1;
        else
            stack[depth++] = nodes[i - 1];
    while (depth > 0 && !rc) {
        uint32_t x = stack[--depth];
        if (depth > STACK_AHEAD)
            prefetch_node(s, stack[depth - STACK_AHEAD]);
        if (through && lf_is_structure(s, x))
            rc = add(s, x, 1, &index, out) || push_children(s, x, &stack, &depth, &cap) ? -1 : 0;
        else if (lf_vec_reserve((void **)&out->payload, &out->payload_cap, out->payload_count + 1,
                                sizeof *out->payload))
            rc = -1;
        else
            out->payload[out->payload_count++] = x;
    }
    Word_t freed;
    JLFA(freed, index);
    (void)freed;
    lf_big_free(stack);
    if (rc) {
        lf_collection_members_free(out);
        return -1;
    }
    if (sorted && out->payload_count)
        qsort_r(out->payload, out->payload_count, sizeof *out->payload, lf_node_by_retained, (void *)s);
    return 0;
}

int lf_collection_members_below(const lf_snapshot *s, const uint32_t *nodes, size_t count, int through,
                                lf_collection_members *out)
{
    return members_below(s, nodes, count, through, 1, out);
}

int lf_collection_members_unordered(const lf_snapshot *s, const uint32_t *nodes, size_t count,
                                    lf_collection_members *out)
{
    return members_below(s, nodes, count, 1, 0, out);
}

/* Per class name of the payload: its members' count and retained sum. */
typedef struct class_sum {
    uint64_t count, retained;
    uint64_t passed; /* of them among the first that pass top and min */
} class_sum;

static uint64_t class_key(const lf_snapshot *s, uint32_t x)
{
    uint32_t cls = s->object_class[x];
    return cls < s->class_count ? s->class_name[cls] : UINT32_MAX;
}

/* sums[] by class over the whole payload, index: class name -> sum + 1.
 * Returns the sums (lf_big_free), or NULL (memory). */
static class_sum *sum_classes(const lf_snapshot *s, const lf_collection_members *m, Pvoid_t *index)
{
    class_sum *sum = NULL;
    size_t len = 0, cap = 0;
    for (size_t i = 0; i < m->payload_count; i++) {
        uint32_t x = m->payload[i];
        PWord_t slot;
        JLI(slot, *index, (Word_t)class_key(s, x));
        if (slot == PJERR || (!*slot && lf_vec_reserve((void **)&sum, &cap, len + 1, sizeof *sum))) {
            lf_big_free(sum);
            return NULL;
        }
        if (!*slot) {
            sum[len] = (class_sum){0, 0, 0};
            *slot = ++len;
        }
        sum[*slot - 1].count++;
        sum[*slot - 1].retained += lf_snapshot_retained(s, x);
    }
    return sum; /* a payload of one or more: some class */
}

static class_sum *sum_of(const lf_snapshot *s, class_sum *sum, Pvoid_t index, uint32_t x)
{
    PWord_t slot;
    JLG(slot, index, (Word_t)class_key(s, x));
    return slot ? &sum[*slot - 1] : NULL;
}

/* Whether payload member x is shown one by one: all of its class pass (no
 * "N x Class" row for it), or it stands out of its class's row, retaining
 * STAND_OUT times the mean of the others of its class or more. */
enum { STAND_OUT = 2 };
static int stands_out(const lf_snapshot *s, class_sum *sum, Pvoid_t index, uint32_t x)
{
    const class_sum *c = sum_of(s, sum, index, x);
    if (!c || c->passed == c->count)
        return 1;
    double own = (double)lf_snapshot_retained(s, x);
    return own * (double)(c->count - 1) >= STAND_OUT * ((double)c->retained - own);
}

size_t lf_collection_shown(const lf_snapshot *s, lf_collection_members *m, uint64_t top, uint64_t min)
{
    size_t passed = 0;
    while (passed < m->payload_count && (top == 0 || passed < top) &&
           lf_snapshot_retained(s, m->payload[passed]) >= min)
        passed++;
    if (passed == 0)
        return 0;
    Pvoid_t index = NULL;
    class_sum *sum = sum_classes(s, m, &index);
    uint32_t *alike = malloc(passed * sizeof *alike);
    size_t shown = passed;
    if (sum && alike) { /* no memory: the members that pass are shown, as they pass */
        size_t kept = 0, folded = 0;
        for (size_t i = 0; i < passed; i++)
            sum_of(s, sum, index, m->payload[i])->passed++;
        for (size_t i = 0; i < passed; i++) {
            uint32_t x = m->payload[i];
            if (stands_out(s, sum, index, x))
                m->payload[kept++] = x;
            else
                alike[folded++] = x;
        }
        /* the alike ones go with the rest of their class, still largest first */
        memcpy(m->payload + kept, alike, folded * sizeof *alike);
        shown = kept;
    }
    Word_t freed;
    JLFA(freed, index);
    (void)freed;
    lf_big_free(sum);
    free(alike);
    return shown;
}

int lf_group_payload(const lf_snapshot *s, lf_collection_members *out, size_t from)
{
    Pvoid_t index = NULL;
    int rc = 0;
    for (size_t i = from; i < out->payload_count && !rc; i++) {
        if (i + LF_PREFETCH_AHEAD < out->payload_count)
            prefetch_node(s, out->payload[i + LF_PREFETCH_AHEAD]);
        rc = add(s, out->payload[i], 0, &index, out);
    }
    Word_t freed;
    JLFA(freed, index);
    (void)freed;
    if (!rc && out->group_count)
        qsort(out->group, out->group_count, sizeof *out->group, by_retained);
    return rc;
}
