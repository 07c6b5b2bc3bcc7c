/* merged_targets.c - many targets' shortest root paths merged into one tree
 * (lf_merge_targets, merged_paths.h).
 *
 * Searched one by one, each target's search walks its whole path back to a
 * root and its walk into the tree walks it again: the links of a linked
 * list, n of them, cost n * n / 2 steps twice (30,100 links: 2.8 s). With
 * the roots' levels (graph/root_levels.h), a target whose sole nearer
 * predecessor p has been walked already goes on from p's cursor: each
 * object of the paths is searched and walked once. The tree is the one the
 * searches one by one build: the same steps run in the same order, only
 * those already run are not run again (merge steps are idempotent). */
#include "merged_paths.h"

#include <stdlib.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "../../graph/root_levels.h"

/* The walk into the tree of every object whose path is merged so far:
 * object -> its cursor (last is the object itself). */
typedef struct walked {
    Pvoid_t cursor; /* node -> (at + 1) << 32 | run */
} walked;

static int walked_get(const walked *w, uint32_t v, lf_merge_cursor *c)
{
    PWord_t slot;
    JLG(slot, w->cursor, (Word_t)v);
    if (!slot)
        return 0;
    *c = (lf_merge_cursor){(uint32_t)((*slot >> 32) - 1), (uint32_t)*slot, v};
    return 1;
}

static int walked_put(walked *w, uint32_t v, const lf_merge_cursor *c)
{
    PWord_t slot;
    JLI(slot, w->cursor, (Word_t)v);
    if (slot == PJERR)
        return -1;
    *slot = ((Word_t)c->at + 1) << 32 | c->run;
    return 0;
}

/* The searches one at a time: the strong path, else the weak one. Returns
 * 1 merged, 0 no path, -1 memory. */
static int merge_one(lf_merge_tree *t, const lf_snapshot *s, lf_path_search *ps, uint32_t target,
                     lf_edge_filter filter, void *filter_ctx, int group, lf_merge_note *note, void *note_ctx,
                     uint32_t *hops, int strong_tried)
{
    int64_t len = strong_tried ? 0 : lf_shortest_root_path(ps, target, 0, filter, filter_ctx, hops);
    int weak = 0;
    if (len == 0) {
        weak = (len = lf_shortest_root_path(ps, target, LF_PATH_FOLLOW_WEAK, filter, filter_ctx, hops)) > 0;
        if (note)
            note(note_ctx, target, weak);
    }
    if (len > 0 && lf_merge_add(t, s, hops, len, weak, group))
        return -1;
    return len > 0;
}

/* Context of the leveled searches. */
typedef struct leveled {
    lf_merge_tree *t;
    const lf_snapshot *s;
    lf_path_search *ps;
    const uint32_t *level;
    lf_edge_filter filter;
    void *filter_ctx;
    int group;
    uint32_t *hops;
    uint32_t *chain; /* the objects from a target up to what it continues */
    size_t chain_cap;
    walked w;
} leveled;

/* The cursor at top's path's end, walking the path (searched) into the
 * tree when no target's walk has passed top yet. 0, 1 no path (levels
 * that do not match the search: never), or -1 (memory). */
static int walk_to(leveled *L, uint32_t top, lf_merge_cursor *c)
{
    if (walked_get(&L->w, top, c))
        return 0;
    int64_t len = lf_shortest_root_path_leveled(L->ps, L->level, top, L->filter, L->filter_ctx, L->hops);
    if (len == 0)
        return 1;
    *c = LF_MERGE_CURSOR_START;
    for (int64_t k = 0; k < len; k++)
        if (lf_merge_step(L->t, L->s, c, L->hops[k], 0, L->group))
            return -1;
    return walked_put(&L->w, top, c);
}

/* A target with a strong path (its level set): up through sole nearer
 * predecessors to an object walked already or one whose path needs a
 * search, then down again, each object's cursor kept. 0, 1 no path
 * (walk_to), or -1 (memory). */
static int merge_leveled(leveled *L, uint32_t target)
{
    size_t n = 0;
    uint32_t v = target, p;
    lf_merge_cursor c;
    while (!walked_get(&L->w, v, &c) &&
           (p = lf_sole_nearer_predecessor(L->ps->rev, L->level, v, L->filter, L->filter_ctx)) != LF_NODE_NONE) {
        if (lf_vec_reserve((void **)&L->chain, &L->chain_cap, n + 1, sizeof *L->chain))
            return -1;
        L->chain[n++] = v;
        v = p;
    }
    int top = walk_to(L, v, &c);
    if (top != 0)
        return top;
    while (n > 0) {
        uint32_t u = L->chain[--n];
        if (lf_merge_step(L->t, L->s, &c, u, 0, L->group) || walked_put(&L->w, u, &c))
            return -1;
    }
    lf_merge_end(L->t, &c);
    return 0;
}

/* The roots' levels, once: the pass over the graph, with the queue of the
 * path search (free between searches). NULL when out of memory. */
static uint32_t *root_levels(const lf_snapshot *s, lf_path_search *ps, lf_edge_filter filter, void *filter_ctx)
{
    uint32_t *level = lf_big_malloc(((size_t)s->object_count + 1) * sizeof *level);
    if (level) {
        lf_graph g = lf_snapshot_graph(s);
        lf_root_levels(&g, ps->is_root, filter, filter_ctx, level, ps->queue);
    }
    return level;
}

int64_t lf_merge_targets(lf_merge_tree *t, const lf_snapshot *s, lf_path_search *ps, const uint32_t *target,
                         size_t count, lf_edge_filter filter, void *filter_ctx, int group, int leveled_wanted,
                         lf_merge_note *note, void *note_ctx)
{
    uint32_t *hops = lf_big_malloc(((size_t)s->object_count + 1) * sizeof *hops);
    leveled L = {t, s, ps, NULL, filter, filter_ctx, group, hops, NULL, 0, {NULL}};
    /* the searches one at a time cost a pass over the graph: the pass */
    const uint64_t first_visited = ps->visited, budget = leveled_wanted > 0 ? 0 : (uint64_t)s->object_count + 1;
    uint32_t *levels = NULL; /* L.level's, to free */
    int64_t reached = 0;
    int rc = hops ? 0 : -1;
    for (size_t i = 0; i < count && rc == 0; i++) {
        if (!levels && leveled_wanted >= 0 && ps->visited - first_visited >= budget &&
            !(L.level = levels = root_levels(s, ps, filter, filter_ctx)))
            rc = -1;
        const uint32_t *level = L.level;
        int got = rc ? -1 : level && level[target[i]] != LF_LEVEL_NONE ? merge_leveled(&L, target[i]) : 1;
        if (got == 0)
            got = 1; /* merged */
        else if (got == 1) /* no level, or (never) no leveled path: searched alone */
            got = merge_one(t, s, ps, target[i], filter, filter_ctx, group, note, note_ctx, hops,
                            level && level[target[i]] == LF_LEVEL_NONE);
        rc = got < 0 ? -1 : 0;
        reached += got > 0;
    }
    Word_t freed;
    JLFA(freed, L.w.cursor);
    (void)freed;
    lf_big_free(L.chain); /* lf_vec_reserve's */
    lf_big_free(hops);
    lf_big_free(levels);
    return rc ? -1 : reached;
}
