/* dom_roots.c - see dom_roots.h. */
#include "dom_roots.h"

#include "../../core/base/bigmem.h"
#include "../../core/model/root_text.h"
#include "../../core/base/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LISTED roots are named; up to ROOTS_MAX counted, up to HOLDER_LEVELS
 * levels of holders that no root names looked through. */
enum { LISTED = 3, CHAIN_MAX = 16, ROOTS_MAX = 1 << 20, HOLDER_LEVELS = 8 };

void dom_roots_init(dom_roots *r, const lf_snapshot *s)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    lf_owner_holders_init(&r->held);
}

void dom_roots_free(dom_roots *r)
{
    free(r->by_node);
    lf_big_free(r->expected);
    lf_owner_holders_free(&r->held);
    r->by_node = NULL;
    r->expected = NULL;
}

void dom_roots_expect(dom_roots *r, uint32_t node)
{
    if (lf_vec_reserve((void **)&r->expected, &r->expected_cap, r->expected_count + 1,
                       sizeof *r->expected) == 0)
        r->expected[r->expected_count++] = node; /* no memory: asked for alone later */
}

static const lf_root *sort_roots;

static int by_node_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (sort_roots[a].node != sort_roots[b].node)
        return sort_roots[a].node < sort_roots[b].node ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void build(dom_roots *r)
{
    r->by_node = malloc(((size_t)r->s->root_count + 1) * sizeof *r->by_node);
    if (!r->by_node) {
        r->failed = 1;
        return;
    }
    for (uint32_t i = 0; i < r->s->root_count; i++)
        r->by_node[i] = i;
    sort_roots = r->s->root;
    qsort(r->by_node, r->s->root_count, sizeof *r->by_node, by_node_cmp);
}

/* The roots naming node, in root order, into out (at most cap); returns how
 * many there are. */
static size_t roots_of(dom_roots *r, uint32_t node, uint32_t *out, size_t cap)
{
    const lf_snapshot *s = r->s;
    size_t n = 0;
    if (!r->by_node && !r->failed)
        build(r);
    if (r->failed) {
        for (uint32_t i = 0; i < s->root_count; i++)
            if (s->root[i].node == node && n++ < cap)
                out[n - 1] = i;
        return n;
    }
    size_t lo = 0, hi = s->root_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->root[r->by_node[mid]].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < s->root_count && s->root[r->by_node[lo]].node == node; lo++)
        if (n++ < cap)
            out[n - 1] = r->by_node[lo];
    return n;
}

/* Looks for the holders of the top owners in ask[0 .. count) and of every
 * expected owner no root names, together. */
static void find_held(dom_roots *r, const uint32_t *ask, size_t count)
{
    size_t kept = 0;
    for (size_t i = 0; i < r->expected_count; i++) {
        uint32_t none, owner = r->expected[i];
        if (r->s->idom[owner] == LF_NODE_SUPER && roots_of(r, owner, &none, 1) == 0 &&
            !lf_owner_holders_known(&r->held, owner))
            r->expected[kept++] = owner;
    }
    r->expected_count = kept;
    for (size_t i = 0; i < count; i++)
        dom_roots_expect(r, ask[i]);
    if (lf_owner_holders_find(&r->held, r->s, r->expected, r->expected_count))
        r->held_failed = 1;
    r->expected_count = 0;
}

typedef struct id_list {
    uint32_t *v;
    size_t len, cap;
} id_list;

static int id_push(id_list *l, uint32_t id)
{
    if (lf_vec_reserve((void **)&l->v, &l->cap, l->len + 1, sizeof *l->v))
        return -1;
    l->v[l->len++] = id;
    return 0;
}

/* The roots of the top owners that hold node, a top owner no root names,
 * into out, in the order the edges name the holders: a holder that no root
 * names either is held by other top owners in turn, whose roots count, up
 * the holders level by level (one pass over the edges per level), each
 * owner once. Returns 0, or -1 when some were left out (the bounds: the
 * count is then at least the one given; no memory: held_failed too). */
static int held_roots(dom_roots *r, uint32_t node, id_list *out)
{
    id_list level = {0}, next = {0};
    Pvoid_t visited = NULL;
    int rc = 0, fresh;
    J1S(fresh, visited, (Word_t)node);
    if (fresh == JERR || id_push(&level, node))
        rc = -1;
    for (int depth = 0; rc == 0 && level.len && depth < HOLDER_LEVELS; depth++) {
        next.len = 0; /* first: this level's owners not looked for yet, together */
        for (size_t i = 0; i < level.len && rc == 0; i++)
            if (!lf_owner_holders_known(&r->held, level.v[i]))
                rc = id_push(&next, level.v[i]);
        if (rc == 0 && next.len)
            find_held(r, next.v, next.len);
        if (rc || r->held_failed) {
            rc = -1;
            break;
        }
        next.len = 0;
        for (size_t i = 0; i < level.len && rc == 0; i++) {
            const uint32_t *holder;
            size_t n = lf_owner_holders_get(&r->held, level.v[i], &holder);
            for (size_t j = 0; j < n && rc == 0; j++) {
                J1S(fresh, visited, (Word_t)holder[j]);
                if (fresh == JERR)
                    rc = -1;
                else if (!fresh)
                    continue;
                else if (roots_of(r, holder[j], NULL, 0) == 0)
                    rc = id_push(&next, holder[j]); /* no root of its own: its holders' */
                else if (out->len >= ROOTS_MAX)
                    rc = -1;
                else if (lf_vec_reserve((void **)&out->v, &out->cap,
                                        out->len + roots_of(r, holder[j], NULL, 0), sizeof *out->v))
                    rc = -1;
                else
                    out->len += roots_of(r, holder[j], out->v + out->len, out->cap - out->len);
            }
        }
        id_list t = level;
        level = next;
        next = t;
    }
    if (rc && out->len < ROOTS_MAX)
        r->held_failed = 1; /* no memory: the field is written short */
    if (rc == 0 && level.len)
        rc = -1; /* owners still unnamed past HOLDER_LEVELS */
    Word_t freed;
    J1FA(freed, visited);
    (void)freed;
    lf_big_free(level.v);
    lf_big_free(next.v);
    return rc;
}

static size_t root_text(const lf_snapshot *s, uint32_t root, char *buf, size_t size)
{
    return lf_root_text(s, root, buf, size);
}

static int same_root_text(const lf_snapshot *s, uint32_t a, uint32_t b)
{
    lf_str ka = lf_snapshot_string(s, s->root[a].kind), kb = lf_snapshot_string(s, s->root[b].kind);
    lf_str na = lf_snapshot_string(s, s->root[a].name), nb = lf_snapshot_string(s, s->root[b].name);
    return ka.len == kb.len && na.len == nb.len && memcmp(ka.ptr, kb.ptr, ka.len) == 0 &&
           memcmp(na.ptr, nb.ptr, na.len) == 0;
}

static const lf_snapshot *text_order_snapshot;

static int by_root_text(const void *pa, const void *pb)
{
    const lf_snapshot *s = text_order_snapshot;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    lf_str ka = lf_snapshot_string(s, s->root[a].kind), kb = lf_snapshot_string(s, s->root[b].kind);
    lf_str na = lf_snapshot_string(s, s->root[a].name), nb = lf_snapshot_string(s, s->root[b].name);
    int c = memcmp(ka.ptr, kb.ptr, ka.len < kb.len ? ka.len : kb.len);
    if (c || ka.len != kb.len)
        return c ? c : ka.len < kb.len ? -1 : 1;
    c = memcmp(na.ptr, nb.ptr, na.len < nb.len ? na.len : nb.len);
    return c ? c : na.len < nb.len ? -1 : na.len > nb.len;
}

/* How many of roots[0 .. n) differ in kind or name; -1: no memory. */
static long distinct_roots(const lf_snapshot *s, const uint32_t *roots, size_t n)
{
    if (n == 0)
        return 0;
    uint32_t *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, roots, n * sizeof *sorted);
    text_order_snapshot = s;
    qsort(sorted, n, sizeof *sorted, by_root_text);
    long distinct = 1;
    for (size_t i = 1; i < n; i++)
        distinct += !same_root_text(s, sorted[i - 1], sorted[i]);
    free(sorted);
    return distinct;
}

/* "root: static field X.y", or "3 roots: A, B, C" (at most LISTED named,
 * then "..."); roots alike in kind and name count once, and the count is
 * every root's, not the listing's ("2000 roots: finaliser 2000, ...").
 * "2000+" when some could not be counted (memory, ROOTS_MAX). */
static size_t root_list_text(dom_roots *r, uint32_t node, char *buf, size_t size)
{
    id_list found = {0};
    int short_count = 0;
    size_t direct = roots_of(r, node, NULL, 0);
    if (direct) {
        if (lf_vec_reserve((void **)&found.v, &found.cap, direct, sizeof *found.v) == 0)
            found.len = roots_of(r, node, found.v, direct);
        else
            r->held_failed = 1; /* the field written short: an error */
    } else if (r->s->idom && r->s->idom[node] == LF_NODE_SUPER) {
        /* no root names it: the roots of the top owners whose objects hold it */
        short_count = held_roots(r, node, &found) != 0;
    }
    long counted = distinct_roots(r->s, found.v, found.len);
    uint32_t listed[LISTED];
    size_t n = 0, shown = 0;
    for (size_t i = 0; i < found.len && shown < LISTED; i++) {
        size_t j = 0;
        while (j < shown && !same_root_text(r->s, listed[j], found.v[i]))
            j++;
        if (j == shown)
            listed[shown++] = found.v[i];
    }
    if (counted < 0)
        counted = (long)shown, short_count = 1;
    if (counted == 1 && !short_count) {
        n = root_text(r->s, listed[0], buf, size);
    } else if (counted >= 1) {
        n = (size_t)snprintf(buf, size, "%ld%s roots: ", counted, short_count ? "+" : "");
        for (size_t i = 0; i < shown; i++) {
            if (i)
                n += (size_t)snprintf(buf + n, size - n, ", ");
            n += root_text(r->s, listed[i], buf + n, size - n - 8);
        }
        if ((size_t)counted > shown || short_count)
            n += (size_t)snprintf(buf + n, size - n, ", ...");
    }
    lf_big_free(found.v);
    return n < size ? n : size - 1;
}

/* "root: (GC roots) / (Stack roots)": the synthetic nodes from the top of
 * the tree down to via; V8's root entry is left out when more follow. */
static size_t chain_text(dom_roots *r, uint32_t via, char *buf, size_t size)
{
    const lf_snapshot *s = r->s;
    uint32_t chain[CHAIN_MAX];
    size_t len = 0;
    for (uint32_t d = via; d != LF_NODE_SUPER && d != LF_NODE_NONE && len < CHAIN_MAX; d = s->idom[d])
        chain[len++] = d;
    if (len > 1 && s->idom[chain[len - 1]] == LF_NODE_SUPER)
        len--; /* the root entry above everything says nothing */
    size_t n = 0;
    for (size_t i = len; i > 0; i--) {
        lf_str name = lf_snapshot_object_label(s, chain[i - 1]);
        uint32_t root;
        if (name.len == 0 && roots_of(r, chain[i - 1], &root, 1))
            name = lf_snapshot_string(s, s->root[root].kind); /* V8's root entry: "(root)" */
        n += (size_t)snprintf(buf + n, size - n, "%s%.*s", i < len ? " / " : "",
                              (int)(name.len > 200 ? 200 : name.len), name.ptr);
    }
    return n < size ? n : size - 1;
}

size_t dom_roots_text(dom_roots *r, uint32_t node, uint32_t via, char *buf, size_t size)
{
    return via != LF_NODE_NONE ? chain_text(r, via, buf, size) : root_list_text(r, node, buf, size);
}

void dom_roots_write(dom_roots *r, out_writer *w, uint32_t node, uint32_t via)
{
    char buf[4096];
    out_str(w, buf, dom_roots_text(r, node, via, buf, sizeof buf));
}

int dom_roots_failed(const dom_roots *r)
{
    return r->held_failed;
}
