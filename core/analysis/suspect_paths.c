/* suspect_paths.c - the shortest path from a GC root to each finding,
 * found along the dominator chain (see suspects.h).
 *
 * Every path from the roots to a node passes through each of its
 * dominators, in order, and a shortest path between two consecutive ones,
 * d and d', never leaves d's dominator subtree (a node outside it would
 * give a way to d' around d). So a shortest root path is the shortest
 * paths from dominator to dominator put end to end, starting at the top
 * owner when a root names it. Most hops are a direct edge; the rest take a
 * small breadth-first search. That needs no reverse index (4 bytes per
 * reference, 4 per object: 0.4 GB on a 30M-object dump); it is
 * built only for a finding this does not answer (a top owner no root
 * names, or a search that grows past its budget). */
#include "suspects.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "../../graph/paths.h"
#include "../base/vec.h"
#include "../base/bigmem.h"

/* Nodes one breadth-first search may reach before the reverse index is
 * the cheaper way. */
#define SEGMENT_BUDGET (1u << 20)

typedef struct path_buf {
    uint32_t *node;
    size_t count, cap;
} path_buf;

static int push(path_buf *p, uint32_t v)
{
    if (lf_vec_reserve((void **)&p->node, &p->cap, p->count + 1, sizeof *p->node))
        return -1;
    p->node[p->count++] = v;
    return 0;
}

/* Appends the nodes after `from` on a shortest strong path to `to`:
 * 0, 1 when the search outgrew its budget, -1 (memory). */
static int segment(const lf_snapshot *s, uint32_t from, uint32_t to, path_buf *out)
{
    uint64_t e = lf_snapshot_find_edge(s, from, to);
    if (e != UINT64_MAX && !lf_edge_is_weak(s->edge_target[e]))
        return push(out, to);
    Pvoid_t parent = NULL;   /* node -> the node it was reached from + 1 */
    path_buf queue = {0};
    int rc = push(&queue, from);
    PWord_t slot;
    JLI(slot, parent, (Word_t)from);
    if (slot == PJERR)
        rc = -1;
    else
        *slot = (Word_t)from + 1;
    int found = 0;
    for (size_t head = 0; head < queue.count && !rc && !found; head++) {
        uint32_t v = queue.node[head];
        for (uint64_t k = lf_snapshot_edges_begin(s, v); k < lf_snapshot_edges_end(s, v) && !found && !rc; k++) {
            uint32_t t = s->edge_target[k];
            if (lf_edge_is_weak(t))
                continue;
            JLI(slot, parent, (Word_t)lf_edge_node(t));
            if (slot == PJERR) {
                rc = -1;
            } else if (*slot == 0) {
                *slot = (Word_t)v + 1;
                found = lf_edge_node(t) == to;
                rc = queue.count >= SEGMENT_BUDGET ? 1 : push(&queue, lf_edge_node(t));
            }
        }
    }
    if (!rc && !found)
        rc = 1;
    /* the hops back from `to`, then reversed into place */
    size_t start = out->count;
    for (uint32_t v = to; !rc && v != from;) {
        JLG(slot, parent, (Word_t)v);
        rc = push(out, v);
        v = (uint32_t)(*slot - 1);
    }
    for (size_t i = start, j = out->count; !rc && i + 1 < j; i++, j--) {
        uint32_t x = out->node[i];
        out->node[i] = out->node[j - 1];
        out->node[j - 1] = x;
    }
    Word_t freed;
    JLFA(freed, parent);
    (void)freed;
    lf_big_free(queue.node);
    return rc;
}

/* target's path along its dominators: 0, 1 (not answered this way), -1. */
static int dominator_path(const lf_snapshot *s, const uint8_t *is_root, uint32_t target, path_buf *out)
{
    path_buf chain = {0};
    int rc = 0;
    for (uint32_t v = target; v != LF_NODE_SUPER && v != LF_NODE_NONE && !rc; v = s->idom[v])
        rc = push(&chain, v);
    if (!rc && (chain.count == 0 || !(is_root[chain.node[chain.count - 1] / 8] >> (chain.node[chain.count - 1] % 8) & 1)))
        rc = 1;
    out->count = 0;
    if (!rc)
        rc = push(out, chain.node[chain.count - 1]);
    for (size_t i = chain.count - 1; i > 0 && !rc; i--)
        rc = segment(s, chain.node[i], chain.node[i - 1], out);
    lf_big_free(chain.node);
    return rc;
}

static int keep_path(lf_suspect *f, const uint32_t *path, size_t len)
{
    free(f->path);
    f->path = malloc(len * sizeof *f->path);
    if (!f->path)
        return -1;
    memcpy(f->path, path, len * sizeof *f->path);
    f->path_len = (uint32_t)len;
    return 0;
}

/* The roots as a bitmap over nodes, the reverse index and the search's
 * work arrays: made once for all findings, by lf_suspect_path_index_make
 * ahead of them or by lf_suspect_paths_using when a finding needs them. */
struct lf_suspect_path_index {
    uint8_t *is_root;
    lf_reverse rev;
    lf_path_search ps;
    int searching; /* rev and ps are made */
};

static void index_unmake(struct lf_suspect_path_index *x)
{
    if (x->searching) {
        lf_path_search_free(&x->ps);
        lf_reverse_free(&x->rev);
    }
    x->searching = 0;
}

void lf_suspect_path_index_free(struct lf_suspect_path_index *x)
{
    if (!x)
        return;
    index_unmake(x);
    free(x->is_root);
    free(x);
}

/* x with its root bitmap only; NULL when out of memory. */
static struct lf_suspect_path_index *index_begin(const lf_snapshot *s)
{
    struct lf_suspect_path_index *x = calloc(1, sizeof *x);
    if (x && !(x->is_root = calloc((size_t)s->object_count / 8 + 1, 1))) {
        free(x);
        return NULL;
    }
    for (uint32_t r = 0; x && r < s->root_count; r++)
        x->is_root[s->root[r].node / 8] |= (uint8_t)(1u << (s->root[r].node % 8));
    return x;
}

static int index_search_ready(const lf_snapshot *s, struct lf_suspect_path_index *x)
{
    if (x->searching)
        return 0;
    lf_graph g = lf_snapshot_graph(s);
    if (lf_reverse_build(&g, &x->rev))
        return -1;
    if (lf_path_search_init(&x->ps, &x->rev, x->is_root)) {
        lf_reverse_free(&x->rev);
        return -1;
    }
    x->searching = 1;
    return 0;
}

/* Whether a top owner is no root: a finding under it has no path along
 * its dominators (dominator_path), and takes the reverse index. */
static int rootless_top(const lf_snapshot *s, const uint8_t *is_root)
{
    for (uint32_t v = 0; v < s->object_count; v++)
        if (s->idom[v] == LF_NODE_SUPER && !(is_root[v / 8] >> (v % 8) & 1))
            return 1;
    return 0;
}

struct lf_suspect_path_index *lf_suspect_path_index_make(const lf_snapshot *s)
{
    struct lf_suspect_path_index *x = index_begin(s);
    if (x && rootless_top(s, x->is_root) && index_search_ready(s, x)) {
        lf_suspect_path_index_free(x);
        return NULL;
    }
    return x;
}

/* The findings dominator_path left (want[k] set), by a backward search
 * from each over the reverse index. */
static int by_reverse_index(const lf_snapshot *s, struct lf_suspect_path_index *x, lf_suspect_list *list,
                            const uint8_t *want)
{
    if (index_search_ready(s, x))
        return -1;
    uint32_t *path = malloc(((size_t)s->object_count + 1) * sizeof *path);
    int rc = path ? 0 : -1;
    for (size_t k = 0; k < list->count && !rc; k++) {
        if (!want[k])
            continue;
        int64_t len = lf_shortest_root_path(&x->ps, list->item[k].acc.point, 0, NULL, NULL, path);
        if (len > 0)
            rc = keep_path(&list->item[k], path, (size_t)len);
    }
    free(path);
    return rc;
}

int lf_suspect_paths(const lf_snapshot *s, lf_suspect_list *list, lf_error *err)
{
    return lf_suspect_paths_using(s, list, NULL, err);
}

int lf_suspect_paths_using(const lf_snapshot *s, lf_suspect_list *list, struct lf_suspect_path_index *ahead,
                           lf_error *err)
{
    struct lf_suspect_path_index *x = ahead ? ahead : index_begin(s);
    const uint8_t *is_root = x ? x->is_root : NULL;
    uint8_t *want = calloc(list->count + 1, 1);
    path_buf p = {0};
    int rc = x && want ? 0 : -1, left = 0;
    for (size_t k = 0; k < list->count && !rc; k++) {
        lf_suspect *f = &list->item[k];
        if (f->node == LF_NODE_NONE || s->idom[f->acc.point] == LF_NODE_NONE)
            continue;
        int found = dominator_path(s, is_root, f->acc.point, &p);
        if (found == 0)
            rc = keep_path(f, p.node, p.count);
        else if (found == 1)
            left = want[k] = 1;
        else
            rc = -1;
    }
    if (!rc && left)
        rc = by_reverse_index(s, x, list, want);
    lf_big_free(p.node);
    free(want);
    if (x != ahead)
        lf_suspect_path_index_free(x);
    else if (x)
        index_unmake(x); /* its memory is not needed past the paths */
    return rc ? lf_fail_nomem(err, "paths") : 0;
}
