/* merged_paths.c - paths from the GC roots merged into one tree (merged_paths.h). */
#include "merged_paths.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "collections.h"

/* The node for object v, reached from `from` (LF_MERGE_NONE: v starts the
 * path), below node `at`; (Word_t)-1 when out of memory. */
static Word_t merge_slot(lf_merge_tree *t, const lf_snapshot *s, uint32_t from, uint32_t v, uint32_t at, int fold,
                         int weak)
{
    uint32_t cls = s->object_class[v];
    Word_t parent_key = (Word_t)(at == LF_MERGE_NONE ? 0 : (uint64_t)at + 1) << 32;
    PWord_t slot;
    if (fold) { /* JLI is a block: braces */
        JLI(slot, t->folded_index, parent_key | (cls < s->class_count ? s->class_name[cls] : 0xffffffffu));
    } else {
        JLI(slot, t->index, parent_key | v);
    }
    if (slot == PJERR)
        return (Word_t)-1;
    if (!*slot) {
        if (lf_vec_reserve((void **)&t->node, &t->cap, t->count + 1, sizeof *t->node))
            return (Word_t)-1;
        t->node[t->count++] = (lf_merge_node){v, at, 0, from, 0, (uint8_t)weak, (uint8_t)fold};
        *slot = t->count;
    }
    return *slot - 1;
}

/* Whether v, reached from `from`, continues a chain that tree node `at`
 * starts: v, the one before it and the node's object are of one class. */
static int chain_link(const lf_merge_tree *t, const lf_snapshot *s, uint32_t from, uint32_t v, uint32_t at)
{
    if (at == LF_MERGE_NONE || from == LF_MERGE_NONE || t->node[at].folded)
        return 0;
    uint32_t cls = s->object_class[v];
    return cls == s->object_class[from] && cls == s->object_class[t->node[at].object];
}

int lf_merge_step(lf_merge_tree *t, const lf_snapshot *s, lf_merge_cursor *c, uint32_t v, int weak, int group)
{
    uint32_t from = c->last;
    c->last = v;
    if (group && chain_link(t, s, from, v, c->at)) {
        if (++c->run + 1 > t->node[c->at].links)
            t->node[c->at].links = c->run + 1; /* the first link and those after it */
        return 0;
    }
    c->run = 0;
    const lf_merge_node *up = c->at == LF_MERGE_NONE ? NULL : &t->node[c->at];
    int fold = group && up && (up->folded || lf_is_reference_array(s, from));
    /* a link of the chain a folded node stands for: the same node */
    if (fold && up->folded && s->object_class[v] == s->object_class[up->object] && lf_is_structure(s, v))
        return 0;
    Word_t next = merge_slot(t, s, from, v, c->at, fold, weak);
    if (next == (Word_t)-1)
        return -1;
    c->at = (uint32_t)next;
    return 0;
}

void lf_merge_end(lf_merge_tree *t, const lf_merge_cursor *c)
{
    if (c->at != LF_MERGE_NONE)
        t->node[c->at].count++;
}

int lf_merge_add(lf_merge_tree *t, const lf_snapshot *s, const uint32_t *path, int64_t len, int weak, int group)
{
    lf_merge_cursor c = LF_MERGE_CURSOR_START;
    for (int64_t k = 0; k < len; k++)
        if (lf_merge_step(t, s, &c, path[k], weak, group))
            return -1;
    lf_merge_end(t, &c);
    return 0;
}

void lf_merge_finish(lf_merge_tree *t)
{
    for (size_t i = t->count; i > 0; i--) /* a node comes after its parent */
        if (t->node[i - 1].parent != LF_MERGE_NONE)
            t->node[t->node[i - 1].parent].count += t->node[i - 1].count;
}

/* Siblings: most paths first, then by object id. ctx: the tree, the snapshot. */
static int by_count(const void *pa, const void *pb, void *ctx)
{
    const lf_merge_tree *t = ((const void *const *)ctx)[0];
    const lf_snapshot *s = ((const void *const *)ctx)[1];
    const lf_merge_node *x = &t->node[*(const uint32_t *)pa], *y = &t->node[*(const uint32_t *)pb];
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    uint64_t i = lf_snapshot_object_id(s, x->object), j = lf_snapshot_object_id(s, y->object);
    return i < j ? -1 : i > j;
}

/* The children of each tree node in CSR form, sorted; slot n holds the
 * tree's roots. offset: n + 2 entries, child: n + 1. */
static void tree_children(const lf_merge_tree *t, const lf_snapshot *s, uint32_t *offset, uint32_t *child)
{
    size_t n = t->count;
    memset(offset, 0, (n + 2) * sizeof *offset);
    for (size_t i = 0; i < n; i++)
        offset[(t->node[i].parent == LF_MERGE_NONE ? n : t->node[i].parent) + 1]++;
    for (size_t i = 1; i <= n + 1; i++)
        offset[i] += offset[i - 1];
    for (size_t i = 0; i < n; i++)
        child[offset[t->node[i].parent == LF_MERGE_NONE ? n : t->node[i].parent]++] = (uint32_t)i;
    for (size_t i = n + 1; i > 0; i--)
        offset[i] = offset[i - 1];
    offset[0] = 0;
    const void *ctx[2] = {t, s};
    for (size_t p = 0; p <= n; p++)
        qsort_r(child + offset[p], offset[p + 1] - offset[p], sizeof *child, by_count, ctx);
}

int lf_merge_preorder(const lf_merge_tree *t, const lf_snapshot *s, uint32_t **order, uint32_t **depth)
{
    size_t n = t->count;
    uint32_t *offset = malloc((n + 2) * sizeof *offset), *child = malloc((n + 1) * sizeof *child);
    uint32_t *stack = malloc((n + 1) * sizeof *stack), *stack_depth = malloc((n + 1) * sizeof *stack_depth);
    *order = malloc((n + 1) * sizeof **order);
    *depth = malloc((n + 1) * sizeof **depth);
    int rc = offset && child && stack && stack_depth && *order && *depth ? 0 : -1;
    if (rc == 0) {
        tree_children(t, s, offset, child);
        size_t top = 0, written = 0;
        for (uint32_t i = offset[n + 1]; i > offset[n]; i--)
            stack[top] = child[i - 1], stack_depth[top++] = 0;
        while (top > 0) {
            top--;
            uint32_t at = stack[top], d = stack_depth[top];
            (*order)[written] = at, (*depth)[written++] = d;
            for (uint32_t i = offset[at + 1]; i > offset[at]; i--)
                stack[top] = child[i - 1], stack_depth[top++] = d + 1;
        }
    } else {
        free(*order), free(*depth);
        *order = *depth = NULL;
    }
    free(offset), free(child), free(stack), free(stack_depth);
    return rc;
}

lf_edge_answer *lf_merge_hops(const lf_merge_tree *t, const lf_snapshot *s, size_t batch)
{
    batch = batch ? batch : 1;
    lf_edge_answer *answer = malloc((t->count + 1) * sizeof *answer);
    lf_edge_question *q = malloc((batch + 1) * sizeof *q);
    uint32_t *node = malloc((batch + 1) * sizeof *node);
    lf_edge_answer *got = malloc((batch + 1) * sizeof *got);
    int rc = answer && q && node && got ? 0 : -1;
    for (size_t at = 0; at < t->count && rc == 0;) {
        size_t asked = 0;
        for (; at < t->count && asked < batch; at++) {
            const lf_merge_node *m = &t->node[at];
            answer[at] = (lf_edge_answer){0, LF_EDGE_KIND_NONE, 0};
            if (m->parent != LF_MERGE_NONE) {
                node[asked] = (uint32_t)at;
                q[asked++] = (lf_edge_question){m->from, m->object};
            }
        }
        rc = lf_edge_batch_answer(s, q, asked, got);
        for (size_t i = 0; i < asked && rc == 0; i++)
            answer[node[i]] = got[i];
    }
    free(q), free(node), free(got);
    if (rc) {
        free(answer);
        return NULL;
    }
    return answer;
}

void lf_merge_free(lf_merge_tree *t)
{
    Word_t freed;
    JLFA(freed, t->index);
    JLFA(freed, t->folded_index);
    (void)freed;
    lf_big_free(t->node); /* lf_vec_reserve's */
}
