/* dom_roots.c - see dom_roots.h. */
#include "dom_roots.h"

#include "../../core/base/bigmem.h"
#include "../../core/base/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LISTED = 3, CHAIN_MAX = 16 };

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

/* Looks for the holders of node and of every expected owner no root
 * names, together. */
static void find_held(dom_roots *r, uint32_t node)
{
    size_t kept = 0;
    for (size_t i = 0; i < r->expected_count; i++) {
        uint32_t none, owner = r->expected[i];
        if (r->s->idom[owner] == LF_NODE_SUPER && roots_of(r, owner, &none, 1) == 0)
            r->expected[kept++] = owner;
    }
    r->expected_count = kept;
    dom_roots_expect(r, node);
    if (lf_owner_holders_find(&r->held, r->s, r->expected, r->expected_count))
        r->held_failed = 1;
    r->expected_count = 0;
}

/* The first root of each of node's holders (distinct), into out; how many holders. */
static size_t held_roots(dom_roots *r, uint32_t node, uint32_t *out, size_t cap, size_t *kept)
{
    *kept = 0;
    if (r->held_failed)
        return 0;
    if (!lf_owner_holders_known(&r->held, node))
        find_held(r, node);
    const uint32_t *holder;
    size_t total = lf_owner_holders_get(&r->held, node, &holder);
    for (size_t i = 0; i < total && i < LF_OWNER_HOLDERS_MAX && *kept < cap; i++) {
        uint32_t root;
        if (roots_of(r, holder[i], &root, 1))
            out[(*kept)++] = root;
    }
    return total;
}

/* "static field X.y": a root's kind and name. */
static size_t root_text(const lf_snapshot *s, uint32_t root, char *buf, size_t size)
{
    lf_str kind = lf_snapshot_string(s, s->root[root].kind);
    lf_str name = lf_snapshot_string(s, s->root[root].name);
    int n = snprintf(buf, size, "%.*s%s%.*s", (int)(kind.len > 500 ? 500 : kind.len), kind.ptr,
                     name.len ? " " : "", (int)(name.len > 1000 ? 1000 : name.len), name.ptr);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

static int same_root_text(const lf_snapshot *s, uint32_t a, uint32_t b)
{
    lf_str ka = lf_snapshot_string(s, s->root[a].kind), kb = lf_snapshot_string(s, s->root[b].kind);
    lf_str na = lf_snapshot_string(s, s->root[a].name), nb = lf_snapshot_string(s, s->root[b].name);
    return ka.len == kb.len && na.len == nb.len && memcmp(ka.ptr, kb.ptr, ka.len) == 0 &&
           memcmp(na.ptr, nb.ptr, na.len) == 0;
}

/* "root: static field X.y", or "3 roots: A, B, C" (at most LISTED named,
 * then "..."); roots alike in kind and name count once. */
static size_t root_list_text(dom_roots *r, uint32_t node, char *buf, size_t size)
{
    enum { CAP = 256 };
    uint32_t found[CAP], distinct[CAP];
    size_t total = roots_of(r, node, found, CAP), kept = 0;
    int more_holders = 0;
    if (total == 0 && r->s->idom && r->s->idom[node] == LF_NODE_SUPER) {
        /* no root names it: the roots of the top owners whose objects hold it */
        size_t named, holders = held_roots(r, node, found, CAP, &named);
        total = named;
        more_holders = holders > LF_OWNER_HOLDERS_MAX;
    }
    for (size_t i = 0; i < total && i < CAP; i++) {
        size_t j = 0;
        while (j < kept && !same_root_text(r->s, distinct[j], found[i]))
            j++;
        if (j == kept)
            distinct[kept++] = found[i];
    }
    size_t n = 0;
    if (kept == 1) {
        n = root_text(r->s, distinct[0], buf, size);
    } else if (kept > 1) {
        int more = total > CAP || kept > LISTED || more_holders;
        n = (size_t)snprintf(buf, size, "%zu%s roots: ", kept, total > CAP ? "+" : "");
        for (size_t i = 0; i < kept && i < LISTED; i++) {
            if (i)
                n += (size_t)snprintf(buf + n, size - n, ", ");
            n += root_text(r->s, distinct[i], buf + n, size - n - 8);
        }
        if (more)
            n += (size_t)snprintf(buf + n, size - n, ", ...");
    }
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
