/* trend_holders.c - per (class, holder) counts over a series; see the header. */
#include "trend_holders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "collections.h"
#include "finalizer_queue.h"
#include "holders.h"
#include "owners.h"
#include "../base/vec.h"

int lf_trend_holders_init(lf_trend_holders *h, uint32_t snapshots, lf_error *err)
{
    memset(h, 0, sizeof *h);
    h->capacity = snapshots;
    h->threads = 1;
    if (lf_strtab_init(&h->steps))
        return lf_fail_nomem(err, "trend holders");
    return 0;
}

void lf_trend_holders_free(lf_trend_holders *h)
{
    Word_t freed;
    J1FA(freed, h->first_ids);
    JLFA(freed, h->known);
    for (size_t c = 0; c < h->classes; c++)
        JLFA(freed, h->by_class[c]);
    (void)freed;
    lf_big_free(h->known_parent);
    lf_big_free(h->known_step);
    lf_big_free(h->known_first);
    lf_big_free(h->last);
    JLFA(freed, h->last_top);
    lf_strtab_free(&h->steps);
    lf_big_free(h->by_class);
    lf_big_free(h->row_class);
    lf_big_free(h->row_key);
    lf_big_free(h->row_parent);
    lf_big_free(h->row_step);
    lf_big_free(h->count);
    lf_big_free(h->bytes);
    memset(h, 0, sizeof *h);
}

/* The index of signature sig[v] among those seen, made when new with its
 * parent, its path step and `first` (the first snapshot has it); -1 when out
 * of memory. holders answers for s, as for everything below that names a
 * step. */
static int64_t known_index(lf_trend_holders *h, lf_holders *holders, const uint64_t *sig, uint32_t v, int first)
{
    const lf_snapshot *s = holders->s;
    struct lf_trend_known_memo *memo = &h->known_memo[(sig[v] * 0x9e3779b97f4a7c15ull) >> 54]; /* 1024 slots */
    if (memo->index && memo->sig == sig[v])
        return (int64_t)memo->index - 1;
    PWord_t slot;
    JLI(slot, h->known, (Word_t)sig[v]);
    if (slot == PJERR)
        return -1;
    if (*slot) {
        *memo = (struct lf_trend_known_memo){sig[v], (uint32_t)*slot};
        return (int64_t)*slot - 1;
    }
    size_t k = h->known_count;
    if (lf_vec_reserve((void **)&h->known_parent, &h->parent_cap, k + 1, sizeof *h->known_parent) ||
        lf_vec_reserve((void **)&h->known_step, &h->step_cap, k + 1, sizeof *h->known_step) ||
        lf_vec_reserve((void **)&h->known_first, &h->first_cap, k + 1, sizeof *h->known_first))
        return -1;
    char step[1200];
    int64_t text = lf_strtab_intern(&h->steps, step, lf_owner_step(holders, v, step, sizeof step));
    if (text < 0)
        return -1;
    uint32_t d = s->idom[v];
    h->known_parent[k] = d == LF_NODE_SUPER ? 0 : sig[d];
    h->known_step[k] = (uint32_t)text;
    h->known_first[k] = (uint8_t)first;
    *slot = ++h->known_count;
    *memo = (struct lf_trend_known_memo){sig[v], (uint32_t)*slot};
    return (int64_t)k;
}

/* Whether v is a link of a chain: its signature is its dominator's, seen
 * just before it in preorder (owners.c), so nothing needs looking up. */
static int chain_link(const lf_snapshot *s, const uint64_t *sig, uint32_t v)
{
    uint32_t d = s->idom[v];
    return d != LF_NODE_SUPER && sig[d] == sig[v];
}

/* Every signature not seen before; first: the first snapshot's (then each
 * is marked). */
static int remember_signatures(lf_trend_holders *h, lf_holders *holders, const uint64_t *sig,
                               const uint32_t *order, size_t count, int first)
{
    for (size_t i = 0; i < count; i++)
        if (!chain_link(holders->s, sig, order[i]) && known_index(h, holders, sig, order[i], first) < 0)
            return -1;
    return 0;
}

static const struct lf_trend_last no_node = {LF_NODE_NONE, 0};

/* v's class by its name: one class of many loaders is one */
static uint32_t class_name_of(const lf_snapshot *s, uint32_t v)
{
    uint32_t cls = s->object_class[v];
    return cls < s->class_count ? s->class_name[cls] : UINT32_MAX;
}

/* Node v of signature index k into l (last[k]): the first that retains
 * most; and when v is under the roots, its bytes into top (JudyL, by k and
 * v's class name). A chain's link never needs it: it retains no more than its
 * head, which comes first with the same signature. 0 or -1 (memory). */
static int note_node(struct lf_trend_last *l, Pvoid_t *top, size_t k, const lf_snapshot *s, uint32_t v)
{
    uint64_t r = lf_snapshot_retained(s, v);
    if (s->idom[v] == LF_NODE_SUPER) {
        PWord_t slot;
        JLI(slot, *top, (Word_t)k << 32 | class_name_of(s, v));
        if (slot == PJERR)
            return -1;
        *slot += r;
    }
    if (l->node == LF_NODE_NONE || r > l->retained) {
        l->node = v;
        l->retained = r;
    }
    return 0;
}

/* note_node into the series' notes (the last snapshot's), made as needed. */
static int note_last(lf_trend_holders *h, const lf_snapshot *s, size_t k, uint32_t v)
{
    if (k >= h->last_len) {
        if (lf_vec_reserve((void **)&h->last, &h->last_cap, k + 1, sizeof *h->last))
            return -1;
        while (h->last_len <= k)
            h->last[h->last_len++] = no_node;
    }
    return note_node(&h->last[k], &h->last_top, k, s, v);
}

static int remember_ids(lf_trend_holders *h, const lf_snapshot *s, const uint32_t *order, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        int set;
        J1S(set, h->first_ids, (Word_t)lf_snapshot_object_id(s, order[i]));
        if (set == JERR)
            return -1;
    }
    return 0;
}

/* The row of (class, holder), made on first use with zero counts. */
/* holder: its node in s, or LF_NODE_NONE for the roots */
static int64_t row_of(lf_trend_holders *h, lf_holders *holders, const uint64_t *sig, uint32_t cls,
                      uint64_t key, uint32_t holder)
{
    const lf_snapshot *s = holders->s;
    struct lf_trend_row_memo *memo =
        &h->row_memo[((key + cls) * 0x9e3779b97f4a7c15ull) >> 54]; /* 1024 slots */
    if (memo->row && memo->key == key && memo->cls == cls)
        return (int64_t)memo->row - 1;
    if (cls >= h->classes) {
        if (lf_vec_reserve((void **)&h->by_class, &h->classes_cap, (size_t)cls + 1, sizeof *h->by_class))
            return -1;
        memset(h->by_class + h->classes, 0, ((size_t)cls + 1 - h->classes) * sizeof *h->by_class);
        h->classes = (size_t)cls + 1;
    }
    PWord_t slot;
    JLI(slot, h->by_class[cls], (Word_t)key);
    if (slot == PJERR)
        return -1;
    if (*slot) {
        *memo = (struct lf_trend_row_memo){key, cls, (uint32_t)*slot};
        return (int64_t)*slot - 1;
    }
    if (lf_vec_reserve((void **)&h->row_key, &h->key_cap, h->rows + 1, sizeof *h->row_key) ||
        lf_vec_reserve((void **)&h->row_class, &h->class_cap, h->rows + 1, sizeof *h->row_class) ||
        lf_vec_reserve((void **)&h->row_parent, &h->parent_row_cap, h->rows + 1, sizeof *h->row_parent) ||
        lf_vec_reserve((void **)&h->row_step, &h->step_row_cap, h->rows + 1, sizeof *h->row_step) ||
        lf_vec_reserve((void **)&h->count, &h->count_cap, (h->rows + 1) * h->capacity, sizeof *h->count) ||
        lf_vec_reserve((void **)&h->bytes, &h->bytes_cap, (h->rows + 1) * h->capacity, sizeof *h->bytes))
        return -1;
    /* named by the holder node itself: a signature's step is its first node's */
    int64_t step = UINT32_MAX;
    uint64_t parent = 0;
    if (holder != LF_NODE_NONE) {
        char text[1200];
        step = lf_strtab_intern(&h->steps, text, lf_owner_step(holders, holder, text, sizeof text));
        if (step < 0)
            return -1;
        parent = s->idom[holder] == LF_NODE_SUPER ? 0 : sig[s->idom[holder]];
    }
    size_t r = h->rows++;
    h->row_class[r] = cls;
    h->row_key[r] = key;
    h->row_parent[r] = parent;
    h->row_step[r] = (uint32_t)step;
    memset(h->count + r * h->capacity, 0, h->capacity * sizeof *h->count);
    memset(h->bytes + r * h->capacity, 0, h->capacity * sizeof *h->bytes);
    *slot = h->rows;
    *memo = (struct lf_trend_row_memo){key, cls, (uint32_t)h->rows};
    return (int64_t)r;
}

/* Counts object v of class row cls under the holder. */
static int add_to_row(lf_trend_holders *h, lf_holders *holders, const uint64_t *sig, uint32_t cls,
                      uint64_t key, uint32_t holder, uint32_t series, uint32_t v)
{
    int64_t r = row_of(h, holders, sig, cls, key, holder);
    if (r < 0)
        return -1;
    h->count[(size_t)r * h->capacity + series]++;
    h->bytes[(size_t)r * h->capacity + series] += lf_snapshot_shallow(holders->s, v);
    return 0;
}

/* A dominator on the count's walk with children left to count: what its
 * children's places and counts read of it, so that the walk keeps no array
 * of places or nearest owners (a node's owner above is its dominator or its
 * dominator's own owner above, whose nearest owner the frame keeps too). */
typedef struct count_frame {
    uint32_t node, next, end; /* its children: domtree_child[next..end) */
    uint64_t sig;
    lf_coll_place place;      /* its own place among the collections */
    uint32_t nearest;         /* it or its nearest owner with a first-snapshot signature */
    uint32_t up_nearest;      /* the nearest owner of place.up; LF_NODE_NONE */
} count_frame;

static int push_count_frame(count_frame **frames, size_t *top, size_t *cap, count_frame f)
{
    if (lf_vec_reserve((void **)frames, cap, *top + 1, sizeof **frames))
        return -1;
    (*frames)[(*top)++] = f;
    return 0;
}

/* What counting and placing w will read of w's own, asked for some nodes
 * ahead of its turn (the preorder reaches nodes all over the arrays). */
LF_PREFETCH_HELPER void prefetch_count(const lf_snapshot *s, const uint64_t *sig, const uint32_t *group_of_node,
                                       uint32_t w)
{
    __builtin_prefetch(&s->object_class[w]);
    __builtin_prefetch(&s->domtree_offset[w]);
    __builtin_prefetch(&sig[w]);
    __builtin_prefetch(&group_of_node[w]);
    __builtin_prefetch(&s->object_shallow.narrow[w]);
}

/* Without stable ids: every object under the signature of its nearest owner
 * (collections.h: the collection it is inside, else its dominator, and so
 * on up) whose signature occurs in the first snapshot. Every signature not
 * seen before is remembered on the way; note: this is the last snapshot
 * announced (note_last). One walk down the dominator tree, in the preorder
 * of lf_owner_signatures (order[0..count): what the walk will visit, asked
 * for ahead), places each object among the collections from its
 * dominator's place (placing, begun without arrays) and counts it: the
 * places and nearest owners live in the walk's frames, not in arrays a node
 * wide read back at random. */
static int count_by_signature(lf_trend_holders *h, lf_holders *holders, uint32_t series,
                              const uint32_t *group_of_node, const uint32_t *class_row, const uint64_t *skip,
                              const uint64_t *sig, const uint32_t *order, size_t count,
                              lf_collections_builder *placing, int note)
{
    const lf_snapshot *s = holders->s;
    const uint32_t n = s->object_count;
    size_t visited = 0;
    count_frame *frames = NULL;
    size_t top = 0, cap = 0;
    const lf_coll_place none = {LF_NODE_NONE, 0};
    int rc = push_count_frame(&frames, &top, &cap,
                              (count_frame){n, s->domtree_offset[n], s->domtree_offset[n + 1], 0, none,
                                            LF_NODE_NONE, LF_NODE_NONE});
    while (top > 0 && rc == 0) { /* preorder: owners first */
        count_frame *f = &frames[top - 1];
        if (f->next == f->end) {
            top--;
            continue;
        }
        uint32_t v = s->domtree_child[f->next++];
        if (++visited + LF_PREFETCH_AHEAD < count)
            prefetch_count(s, sig, group_of_node, order[visited + LF_PREFETCH_AHEAD]);
        int at_top = f->node == n;
        lf_coll_place place = none;
        uint32_t above = LF_NODE_NONE;
        if (!at_top) {
            place = lf_collections_place_below(placing, v, f->node, &f->place);
            above = place.up == LF_NODE_NONE ? LF_NODE_NONE : place.up == f->node ? f->nearest : f->up_nearest;
        }
        uint32_t up_nearest = above;
        int owner = !(place.flags & LF_COLL_STRUCTURE), first = 0;
        /* a chain's link is structure (collections.c): its signature is known */
        if (owner || at_top || f->sig != sig[v]) {
            int64_t k = known_index(h, holders, sig, v, series == 0);
            if (k < 0 || (note && note_last(h, s, (size_t)k, v))) {
                rc = -1;
                break;
            }
            first = h->known_first[k];
        }
        /* an object a root holds alone is the holder of what it dominates,
         * and its own (its signature is the root's name and its class): what
         * grows at the top, as values kept alive by their own Gc.finalise
         * closures, is named by that root rather than "(GC roots)" */
        uint32_t nearest = (owner && first) || at_top ? v : above;
        if (above == LF_NODE_NONE && at_top)
            above = v;
        if (f->next == f->end)
            top--; /* its last child taken: a chain keeps one frame, not one per link */
        uint32_t cls = class_row[group_of_node[v]];
        if (cls != UINT32_MAX && lf_snapshot_counted(s, v) && !(skip && lf_bit_is_set(skip, v)))
            rc = add_to_row(h, holders, sig, cls, above == LF_NODE_NONE ? 0 : sig[above], above, series, v);
        if (rc == 0 && s->domtree_offset[v] != s->domtree_offset[v + 1])
            rc = push_count_frame(&frames, &top, &cap,
                                  (count_frame){v, s->domtree_offset[v], s->domtree_offset[v + 1], sig[v], place,
                                                nearest, up_nearest});
    }
    lf_big_free(frames);
    return rc;
}

static int existed_by_id(const lf_trend_holders *h, const lf_snapshot *s, uint32_t v)
{
    int set;
    J1T(set, h->first_ids, (Word_t)lf_snapshot_object_id(s, v));
    return set;
}

/* With stable ids: only the objects new since the first snapshot count. They
 * form dominator subtrees whose tops hang under old objects; each top is
 * charged to the old objects that reference it directly (a list's array, or
 * for a compiled function both the function and its shared info), else to
 * its dominator. The dominator alone would not do: code shared by a function
 * and its shared info hangs under whatever dominates both (the stack roots),
 * for every function at once. */
/* The old reachable objects that reference each top directly by a strong
 * edge: top t's are retainer[first[t] .. first[t + 1]), each listed once. */
static uint32_t *old_retainers(const lf_snapshot *s, const uint32_t *top, uint32_t *first, uint32_t *fill)
{
    const uint32_t n = s->object_count;
    memset(first, 0, ((size_t)n + 1) * sizeof *first);
    for (uint32_t v = 0; v < n; v++)
        fill[v] = LF_NODE_NONE; /* pass 1: the last retainer seen */
    for (int pass = 1; pass <= 2; pass++) {
        uint32_t *retainer = NULL;
        if (pass == 2) {
            for (uint32_t v = 0; v < n; v++)
                first[v + 1] += first[v];
            memset(fill, 0, (size_t)n * sizeof *fill); /* pass 2: how many listed */
            if (!(retainer = malloc(((size_t)first[n] + 1) * sizeof *retainer)))
                return NULL;
        }
        for (uint32_t u = 0; u < n; u++) {
            if (s->idom[u] == LF_NODE_NONE || top[u] != LF_NODE_NONE)
                continue; /* unreachable, or new */
            for (uint64_t e = lf_snapshot_edges_begin(s, u); e < lf_snapshot_edges_end(s, u); e++) {
                uint32_t w = s->edge_target[e];
                if (lf_edge_is_weak(w) || top[w] != w)
                    continue;
                if (pass == 1 && fill[w] != u) {
                    fill[w] = u;
                    first[w + 1]++;
                } else if (pass == 2 && (fill[w] == 0 || retainer[first[w] + fill[w] - 1] != u)) {
                    retainer[first[w] + fill[w]++] = u;
                }
            }
        }
        if (pass == 2)
            return retainer;
    }
    return NULL;
}

/* With stable ids: only the objects new since the first snapshot count. They
 * form dominator subtrees whose tops hang under old objects; each top, with
 * its subtree, is charged to every old object that references it directly
 * (a list's array; for newly compiled code, its function and shared info),
 * else (reached only through other new objects) to its dominator. The
 * dominator alone would not do: code that a function and its shared info
 * both reference hangs under whatever dominates both, e.g. the stack roots,
 * for every function at once. */
static int count_new_by_id(lf_trend_holders *h, lf_holders *holders, uint32_t series,
                           const uint32_t *group_of_node, const uint32_t *class_row, const uint64_t *skip,
                           const uint64_t *sig, const uint32_t *order, size_t count,
                           const lf_collections *coll)
{
    const lf_snapshot *s = holders->s;
    const uint32_t n = s->object_count;
    /* top[v]: for a new v the top of its new subtree, else LF_NODE_NONE */
    uint32_t *top = lf_big_malloc(((size_t)n + 1) * sizeof *top);
    uint32_t *first = lf_big_malloc(((size_t)n + 1) * sizeof *first);
    uint32_t *fill = lf_big_malloc(((size_t)n + 1) * sizeof *fill);
    uint32_t *retainer = NULL;
    int rc = -1;
    if (!top || !first || !fill)
        goto out;
    for (uint32_t v = 0; v < n; v++)
        top[v] = LF_NODE_NONE;
    for (size_t i = 0; i < count; i++) { /* preorder: dominators first */
        uint32_t v = order[i], d = s->idom[v];
        if (!existed_by_id(h, s, v))
            top[v] = d != LF_NODE_SUPER && top[d] != LF_NODE_NONE ? top[d] : v;
    }
    if (!(retainer = old_retainers(s, top, first, fill)))
        goto out;
    rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        uint32_t v = order[i], t = top[v];
        uint32_t cls = class_row[group_of_node[v]];
        if (t == LF_NODE_NONE || cls == UINT32_MAX || !lf_snapshot_counted(s, v) ||
            (skip && lf_bit_is_set(skip, v)))
            continue;
        for (uint32_t j = first[t]; j < first[t + 1] && rc == 0; j++) {
            /* a collection's backing store or entry: its container holds it */
            uint32_t r = retainer[j];
            while (r != LF_NODE_NONE && (coll->flags[r] & LF_COLL_STRUCTURE))
                r = coll->up[r];
            rc = r == LF_NODE_NONE ? add_to_row(h, holders, sig, cls, 0, LF_NODE_NONE, series, v)
                                   : add_to_row(h, holders, sig, cls, lf_snapshot_object_id(s, r) + 1, r, series, v);
        }
        uint32_t d = s->idom[t];
        if (first[t] == first[t + 1] && rc == 0)
            rc = d == LF_NODE_SUPER ? add_to_row(h, holders, sig, cls, 0, LF_NODE_NONE, series, v)
                                    : add_to_row(h, holders, sig, cls, lf_snapshot_object_id(s, d) + 1, d, series, v);
    }
out:
    lf_big_free(top);
    lf_big_free(first);
    lf_big_free(fill);
    free(retainer);
    return rc;
}

int lf_trend_holders_add(lf_trend_holders *h, const lf_snapshot *s, uint32_t series,
                         const uint32_t *group_of_node, const uint32_t *class_row, const uint64_t *skip,
                         lf_error *err)
{
    if (series >= h->capacity)
        return lf_fail(err, LF_ERR_SYSTEM, "trend: more snapshots than announced");
    if (series == 0)
        h->by_id = (s->flags & LF_SNAP_IDS_STABLE) != 0;
    else if (h->by_id && !(s->flags & LF_SNAP_IDS_STABLE))
        return lf_fail(err, LF_ERR_INPUT, "its object ids are not stable, the first snapshot's are");
    const uint32_t n = s->object_count;
    uint64_t *sig = lf_big_malloc(((size_t)n + 1) * sizeof *sig);
    uint32_t *order = lf_big_malloc(((size_t)s->reachable_count + 1) * sizeof *order);
    size_t count = 0;
    int rc = 0;
    /* one for the whole snapshot: the signatures ask about every node, so the
     * steps named after them read its table (holders.h) */
    lf_holders holders;
    lf_holders_init(&holders, s);
    lf_holders_use_threads(&holders, h->threads);
    lf_collections coll = {NULL, NULL};
    if (!sig || !order) {
        rc = lf_fail_nomem(err, "trend holders");
        goto out;
    }
    void *chains = NULL; /* the collections' build takes it */
    if ((rc = lf_owner_signatures(&holders, sig, order, NULL, &count, &chains, err)))
        goto out;
    /* the last snapshot announced is noted for suspects (find_holders) */
    int note = !h->by_id && series == h->capacity - 1;
    h->last_idom = NULL;
    h->last_len = 0;
    Word_t dropped;
    JLFA(dropped, h->last_top);
    (void)dropped;
    lf_collections_builder placing;
    int begun = !h->by_id && lf_collections_begin(&placing, NULL, s, sig, chains) == 0;
    if ((h->by_id ? lf_collections_build(&coll, s, order, count, sig, chains) : !begun) ||
        (h->by_id && remember_signatures(h, &holders, sig, order, count, series == 0)) ||
        (series == 0 && h->by_id && remember_ids(h, s, order, count)) ||
        (!h->by_id && count_by_signature(h, &holders, series, group_of_node, class_row, skip, sig, order, count, &placing,
                                           note)) ||
        (h->by_id && series > 0 &&
         count_new_by_id(h, &holders, series, group_of_node, class_row, skip, sig, order, count, &coll)) ||
        lf_holders_failed(&holders))
        rc = lf_fail_nomem(err, "trend holders");
    else if (note)
        h->last_idom = s->idom;
    if (begun)
        lf_collections_end(&placing);
out:
    lf_collections_free(&coll);
    lf_holders_free(&holders);
    lf_big_free(sig);
    lf_big_free(order);
    return rc;
}

size_t lf_trend_holder_name(const lf_trend_holders *h, size_t row, char *buf, size_t size)
{
    enum { HOPS = 11 }; /* and the holder's own */
    uint32_t chain[HOPS];
    unsigned hops = 0;
    int cut = 0;
    if (size == 0)
        return 0;
    if (h->row_step[row] == UINT32_MAX)
        return (size_t)snprintf(buf, size, "(GC roots)") < size ? strlen(buf) : size - 1;
    for (uint64_t g = h->row_parent[row]; g != 0;) {
        PWord_t slot;
        JLG(slot, h->known, (Word_t)g);
        if (!slot)
            break;
        if (hops == HOPS) {
            cut = 1;
            break;
        }
        chain[hops++] = h->known_step[*slot - 1];
        g = h->known_parent[*slot - 1];
    }
    size_t o = 0;
    buf[0] = '\0';
    if (cut)
        o = (size_t)snprintf(buf, size, "... / ");
    const size_t first = o;
    for (unsigned i = hops + 1; i > 0 && o + 1 < size; i--) {
        uint32_t k = i == 1 ? h->row_step[row] : chain[i - 2];
        size_t len = h->steps.offset[k + 1] - h->steps.offset[k];
        if (len == 0)
            continue; /* V8's root entry (lf_owner_step) */
        int n = snprintf(buf + o, size - o, "%s%.*s", o == first ? "" : " / ", (int)len,
                         h->steps.bytes + h->steps.offset[k]);
        if (n < 0)
            break;
        o += (size_t)n < size - o ? (size_t)n : size - o - 1;
    }
    return lf_path_from_static(buf, o < size ? o : size - 1, size);
}

/* note_node for every signature of s that the series has seen, into
 * l[0..h->known_count) and top: one pass over s's signatures (s is not
 * the snapshot noted). 0 or -1 with err set. */
static int note_other(const lf_trend_holders *h, const lf_snapshot *s, struct lf_trend_last *l, Pvoid_t *top,
                      lf_error *err)
{
    lf_holders holders;
    lf_holders_init(&holders, s);
    lf_holders_use_threads(&holders, h->threads);
    uint64_t *sig = lf_big_malloc(((size_t)s->object_count + 1) * sizeof *sig);
    uint32_t *order = lf_big_malloc(((size_t)s->reachable_count + 1) * sizeof *order);
    size_t count = 0;
    int rc = sig && order ? lf_owner_signatures(&holders, sig, order, NULL, &count, NULL, err)
                          : lf_fail_nomem(err, "signatures");
    for (size_t i = 0; i < count && !rc; i++) {
        uint32_t v = order[i];
        PWord_t slot;
        if (chain_link(s, sig, v))
            continue;
        JLG(slot, h->known, (Word_t)sig[v]);
        if (slot && note_node(&l[*slot - 1], top, *slot - 1, s, v))
            rc = lf_fail_nomem(err, "signatures");
    }
    lf_big_free(sig);
    lf_big_free(order);
    lf_holders_free(&holders);
    return rc;
}

int lf_trend_holders_nodes(const lf_trend_holders *h, const lf_snapshot *s, const uint64_t *keys, size_t n,
                           uint32_t *node, uint64_t *top, lf_error *err)
{
    const struct lf_trend_last *l = h->last;
    Pvoid_t sums = h->last_top, other_sums = NULL;
    size_t len = h->last_len;
    struct lf_trend_last *other = NULL;
    int any = 0, rc = 0;
    for (size_t k = 0; k < n; k++)
        any |= keys[k] != 0;
    if (any && (h->last_idom == NULL || h->last_idom != s->idom)) {
        len = h->known_count;
        if (!(other = lf_big_malloc((len + 1) * sizeof *other)))
            return lf_fail_nomem(err, "signatures");
        for (size_t k = 0; k < len; k++)
            other[k] = no_node;
        rc = note_other(h, s, other, &other_sums, err);
        l = other;
        sums = other_sums;
    }
    for (size_t k = 0; k < n && !rc; k++) {
        PWord_t slot = NULL, sum = NULL;
        if (keys[k] != 0)
            JLG(slot, h->known, (Word_t)keys[k]);
        const struct lf_trend_last *at = slot && *slot - 1 < len ? &l[*slot - 1] : &no_node;
        node[k] = at->node;
        if (at->node != LF_NODE_NONE)
            JLG(sum, sums, (Word_t)(*slot - 1) << 32 | class_name_of(s, at->node));
        top[k] = sum ? *sum : 0;
    }
    Word_t freed;
    JLFA(freed, other_sums);
    (void)freed;
    lf_big_free(other);
    return rc;
}
