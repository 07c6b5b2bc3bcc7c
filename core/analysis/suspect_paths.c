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
 * reference, 8 per object: half a gigabyte on a 30M-object dump); it is
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

/* The findings dominator_path left (want[k] set), by a backward search
 * from each over a reverse index. */
static int by_reverse_index(const lf_snapshot *s, const uint8_t *is_root, lf_suspect_list *list,
                            const uint8_t *want)
{
    lf_graph g = lf_snapshot_graph(s);
    lf_reverse rev;
    if (lf_reverse_build(&g, &rev))
        return -1;
    uint32_t *path = malloc(((size_t)s->object_count + 1) * sizeof *path);
    lf_path_search ps;
    int searching = path && lf_path_search_init(&ps, &rev, is_root) == 0;
    int rc = searching ? 0 : -1;
    for (size_t k = 0; k < list->count && !rc; k++) {
        if (!want[k])
            continue;
        int64_t len = lf_shortest_root_path(&ps, list->item[k].acc.point, 0, NULL, NULL, path);
        if (len > 0)
            rc = keep_path(&list->item[k], path, (size_t)len);
    }
    if (searching)
        lf_path_search_free(&ps);
    free(path);
    lf_reverse_free(&rev);
    return rc;
}

int lf_suspect_paths(const lf_snapshot *s, lf_suspect_list *list, lf_error *err)
{
    uint8_t *is_root = calloc((size_t)s->object_count / 8 + 1, 1);
    uint8_t *want = calloc(list->count + 1, 1);
    path_buf p = {0};
    int rc = is_root && want ? 0 : -1, left = 0;
    for (uint32_t r = 0; r < s->root_count && !rc; r++)
        is_root[s->root[r].node / 8] |= (uint8_t)(1u << (s->root[r].node % 8));
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
        rc = by_reverse_index(s, is_root, list, want);
    lf_big_free(p.node);
    free(want);
    free(is_root);
    return rc ? lf_fail_nomem(err, "paths") : 0;
}
