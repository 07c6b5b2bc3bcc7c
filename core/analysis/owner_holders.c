/* owner_holders.c - see owner_holders.h. */
#include "owner_holders.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/bits.h"
#include "../base/vec.h"
#include "roots.h"

/* A walk up the dominators leaves its top owner at every MEMO_EVERY-th node:
 * a later walk through the same chain stops within that many steps, and
 * the memo stays a small part of the nodes walked. */
enum { MEMO_EVERY = 64, FILTER_MIN_BITS = 16 };
/* The list of edges into unrooted top owners is made for at most this many
 * owners (its filter then takes 1 MiB) and kept while it holds at most a
 * quarter of the edges, or INTO_SMALL of them (512 KiB); past either,
 * passes read every edge. */
enum { INTO_OWNERS_MAX = 1 << 20, INTO_SHARE = 4, INTO_SMALL = 1 << 16 };

void lf_owner_holders_init(lf_owner_holders *h)
{
    memset(h, 0, sizeof *h);
}

void lf_owner_holders_init_levels(lf_owner_holders *h)
{
    memset(h, 0, sizeof *h);
    h->root_levels = 1;
    h->into_state = -1; /* the list is of the super-root's children */
}

static int is_top(const lf_owner_holders *h, const lf_snapshot *s, uint32_t v)
{
    return h->root_levels ? lf_roots_at_top(s, v) : s->idom[v] == LF_NODE_SUPER;
}

void lf_owner_holders_free(lf_owner_holders *h)
{
    Word_t freed;
    JLFA(freed, h->index);
    J1FA(freed, h->seen);
    JLFA(freed, h->top_memo);
    (void)freed;
    for (size_t i = 0; i < h->rows; i++)
        lf_big_free(h->holder[i].node);
    lf_big_free(h->holder);
    lf_big_free(h->into);
    free(h->unrooted);
    memset(h, 0, sizeof *h);
}

int lf_owner_holders_known(const lf_owner_holders *h, uint32_t owner)
{
    PWord_t slot;
    JLG(slot, h->index, (Word_t)owner);
    return slot != NULL;
}

size_t lf_owner_holders_get(const lf_owner_holders *h, uint32_t owner, const uint32_t **holders)
{
    PWord_t slot;
    JLG(slot, h->index, (Word_t)owner);
    *holders = slot ? h->holder[*slot - 1].node : NULL;
    return slot ? h->holder[*slot - 1].len : 0;
}

/* A row for owner, unless it has one. Returns 0 or -1 (memory). */
static int add_row(lf_owner_holders *h, uint32_t owner)
{
    PWord_t slot;
    JLI(slot, h->index, (Word_t)owner);
    if (slot == PJERR)
        return -1;
    if (*slot)
        return 0;
    if (lf_vec_reserve((void **)&h->holder, &h->cap, h->rows + 1, sizeof *h->holder)) {
        int deleted;
        JLD(deleted, h->index, (Word_t)owner); /* no row: the owner stays unknown */
        (void)deleted;
        return -1;
    }
    h->holder[h->rows] = (lf_holder_list){0};
    *slot = ++h->rows;
    return 0;
}

/* Adds holder to row, once. Returns 0 or -1 (memory). */
static int add_holder(lf_owner_holders *h, size_t row, uint32_t holder)
{
    int fresh;
    J1S(fresh, h->seen, (Word_t)row << 32 | holder);
    if (fresh == JERR)
        return -1;
    if (!fresh)
        return 0;
    lf_holder_list *l = &h->holder[row];
    if (lf_vec_reserve((void **)&l->node, &l->cap, l->len + 1, sizeof *l->node))
        return -1;
    l->node[l->len++] = holder;
    return 0;
}

/* The top owner above reachable node u: the dominator just below the
 * super-root. Returns it, or LF_NODE_NONE (memory). */
static uint32_t top_of(lf_owner_holders *h, const lf_snapshot *s, uint32_t u)
{
    uint32_t x = u;
    size_t steps = 0;
    PWord_t slot;
    while (!is_top(h, s, x)) {
        JLG(slot, h->top_memo, (Word_t)x);
        if (slot) {
            x = (uint32_t)*slot;
            break;
        }
        x = s->idom[x];
        steps++;
    }
    uint32_t y = u;
    for (size_t i = 0; i < steps; i++, y = s->idom[y]) {
        if (i % MEMO_EVERY)
            continue;
        JLI(slot, h->top_memo, (Word_t)y);
        if (slot == PJERR)
            return LF_NODE_NONE;
        *slot = x;
    }
    return x;
}

typedef struct filter {
    uint64_t *bit;
    unsigned bits;    /* 2^bits bits */
} filter;

static uint32_t filter_slot(const filter *f, uint32_t node)
{
    return (uint32_t)(node * 0x9E3779B1u) >> (32 - f->bits);
}

/* A bit per hash of each owner: most edges point at no owner asked for,
 * and this says so from a few KiB that stay in cache. */
static int filter_make(filter *f, const uint32_t *owners, size_t count)
{
    f->bits = FILTER_MIN_BITS;
    while (f->bits < 30 && ((size_t)1 << f->bits) < count * 8)
        f->bits++;
    f->bit = calloc(((size_t)1 << f->bits) / 64, sizeof *f->bit);
    if (!f->bit)
        return -1;
    for (size_t i = 0; i < count; i++) {
        uint32_t k = filter_slot(f, owners[i]);
        f->bit[k / 64] |= (uint64_t)1 << (k % 64);
    }
    return 0;
}

static int filter_has(const filter *f, uint32_t node)
{
    uint32_t k = filter_slot(f, node);
    return (int)(f->bit[k / 64] >> (k % 64) & 1);
}

static int bit_has(const uint64_t *bit, uint32_t v)
{
    return (int)(bit[v / 64] >> (v % 64) & 1);
}

/* h->unrooted: the top owners that no root names. Their count, or -1
 * (memory). */
static int64_t mark_unrooted(lf_owner_holders *h, const lf_snapshot *s)
{
    const uint32_t n = s->object_count;
    h->unrooted = calloc((size_t)n / 64 + 1, sizeof *h->unrooted);
    if (!h->unrooted)
        return -1;
    for (uint32_t v = 0; v < n; v++)
        if (s->idom[v] == LF_NODE_SUPER)
            h->unrooted[v / 64] |= (uint64_t)1 << (v % 64);
    for (uint32_t r = 0; r < s->root_count; r++)
        if (s->root[r].node < n)
            h->unrooted[s->root[r].node / 64] &= ~((uint64_t)1 << (s->root[r].node % 64));
    int64_t count = 0;
    for (size_t w = 0; w <= (size_t)n / 64; w++)
        count += lf_popcount64(h->unrooted[w]);
    return count;
}

/* The unrooted owners (h->unrooted), count of them, into owners. */
static void list_unrooted(const lf_owner_holders *h, const lf_snapshot *s, uint32_t *owners)
{
    size_t k = 0;
    for (uint32_t v = 0; v < s->object_count; v++)
        if (bit_has(h->unrooted, v))
            owners[k++] = v;
}

/* h->into: every strong edge into an unrooted top owner, in edge order. A
 * listing's owners are such owners, asked about a level of holders at a
 * time, each level a pass (14 passes over the 70M edges of the 30M-object
 * JVM dump for `dominators --top 10`, 1.0 s of its 4 s; 5.5M edges into
 * its 16,631 such owners, which hold one another). Found with the filter
 * first, as a pass is (owner_holders.h). On any bound or failure the
 * passes read every edge (into_state -1). */
static void into_list(lf_owner_holders *h, const lf_snapshot *s)
{
    h->into_state = -1;
    if (s->edge_count > UINT32_MAX)
        return;
    int64_t count = mark_unrooted(h, s);
    if (count <= 0 || count > INTO_OWNERS_MAX)
        return;
    uint32_t *owners = malloc((size_t)count * sizeof *owners);
    filter f = {NULL, 0};
    if (!owners)
        return;
    list_unrooted(h, s, owners);
    int made = filter_make(&f, owners, (size_t)count);
    free(owners);
    if (made)
        return;
    const uint64_t most = s->edge_count / INTO_SHARE > INTO_SMALL ? s->edge_count / INTO_SHARE : INTO_SMALL;
    for (uint64_t e = 0; e < s->edge_count; e++) {
        uint32_t t = s->edge_target[e];
        if ((t & LF_EDGE_WEAK) || !filter_has(&f, t) || !bit_has(h->unrooted, t))
            continue;
        if (h->into_len >= most ||
            lf_vec_reserve((void **)&h->into, &h->into_cap, h->into_len + 1, sizeof *h->into)) {
            free(f.bit);
            lf_big_free(h->into);
            h->into = NULL;
            h->into_len = h->into_cap = 0;
            return;
        }
        h->into[h->into_len++] = (struct lf_into_edge){(uint32_t)e, t};
    }
    free(f.bit);
    h->into_state = 1;
}

/* Whether every owner of rows first_row and later is one h->into lists. */
static int into_covers(const lf_owner_holders *h, const uint32_t *owners, size_t count)
{
    if (h->into_state != 1)
        return 0;
    for (size_t i = 0; i < count; i++)
        if (!bit_has(h->unrooted, owners[i]))
            return 0;
    return 1;
}

/* The edges of reachable objects into the owners of rows first_row and
 * later: each such edge from outside the owner's tree names a holder. The
 * pass reads the targets alone, in order (every edge, or those listed:
 * into_list), and finds the object holding an edge only for the few the
 * filter lets through: a listing asks up to one pass per level of holders,
 * and the objects' loop read their offsets and dominators too (3 s of a
 * 30M-object dump's 12, issue 52). */
static int scan_edges(lf_owner_holders *h, const lf_snapshot *s, const filter *f, size_t first_row, int listed)
{
    uint32_t u = UINT32_MAX, top = LF_NODE_NONE;
    const uint64_t edges = listed ? h->into_len : s->edge_count;
    for (uint64_t k = 0; k < edges; k++) {
        const uint64_t e = listed ? h->into[k].edge : k;
        uint32_t t = listed ? h->into[k].target : s->edge_target[e];
        if ((t & LF_EDGE_WEAK) || !filter_has(f, t))
            continue;
        PWord_t slot;
        JLG(slot, h->index, (Word_t)t);
        if (!slot || *slot - 1 < first_row)
            continue;
        if (u == UINT32_MAX || e >= lf_snapshot_edges_end(s, u)) {
            u = lf_snapshot_edge_source(s, e);
            top = LF_NODE_NONE;
        }
        if (s->idom[u] == LF_NODE_NONE)
            continue;
        if (top == LF_NODE_NONE && (top = top_of(h, s, u)) == LF_NODE_NONE)
            return -1;
        if (top != t && add_holder(h, *slot - 1, top))
            return -1;
    }
    return 0;
}

int lf_owner_holders_find(lf_owner_holders *h, const lf_snapshot *s, const uint32_t *owners,
                          size_t count)
{
    size_t first_row = h->rows;
    for (size_t i = 0; i < count; i++)
        if (is_top(h, s, owners[i]) && add_row(h, owners[i]))
            return -1;
    if (h->rows == first_row)
        return 0;
    if (h->into_state == 0)
        into_list(h, s);
    filter f;
    if (filter_make(&f, owners, count))
        return -1;
    int rc = scan_edges(h, s, &f, first_row, into_covers(h, owners, count));
    free(f.bit);
    return rc;
}
