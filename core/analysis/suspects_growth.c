/* suspects_growth.c - growth findings of a series (see suspects.h). */
#include "suspects.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "collections.h"
#include "owners.h"

/* The class of the last snapshot named like trend row cls; LF_NODE_NONE if none. */
static uint32_t class_named(const lf_snapshot *s, const lf_trend *t, uint32_t cls)
{
    const char *name = t->names.bytes + t->names.offset[cls];
    size_t len = t->names.offset[cls + 1] - t->names.offset[cls];
    for (uint32_t c = 0; c < s->class_count; c++) {
        lf_str n = lf_snapshot_class_name(s, c);
        if (n.len == len && memcmp(n.ptr, name, len) == 0)
            return c;
    }
    return LF_NODE_NONE;
}

/* The holders' nodes in the last snapshot, one per finding's row: by id
 * when the series has stable ids, else the largest node with the row's
 * signature (trend_holders.h). */
static int find_holders(const lf_trend *t, const lf_snapshot *s, lf_suspect *f, size_t count, lf_error *err)
{
    const lf_trend_holders *h = &t->holders;
    if (h->by_id) {
        for (size_t k = 0; k < count; k++) {
            uint64_t key = h->row_key[f[k].holder_row];
            f[k].node = key != 0 ? lf_snapshot_find_id(s, key - 1) : LF_NODE_NONE;
        }
        return 0;
    }
    uint64_t *keys = malloc((count + 1) * sizeof *keys), *top = malloc((count + 1) * sizeof *top);
    uint32_t *node = malloc((count + 1) * sizeof *node);
    int rc = keys && top && node ? 0 : lf_fail_nomem(err, "growth findings");
    for (size_t k = 0; k < count && !rc; k++)
        keys[k] = h->row_key[f[k].holder_row];
    if (!rc)
        rc = lf_trend_holders_nodes(h, s, keys, count, node, top, err);
    for (size_t k = 0; k < count && !rc; k++) {
        /* top owners of one signature (one root name, one class: the
         * closures of many Gc.finalise calls) hold the growth together */
        f[k].node = node[k];
        f[k].retained = top[k];
    }
    free(keys);
    free(top);
    free(node);
    return rc;
}

/* Whether a root of this kind holds node. */
static int root_holds(const lf_snapshot *s, uint32_t node, const char *kind, int *other)
{
    int found = 0;
    size_t len = strlen(kind);
    for (uint32_t r = 0; r < s->root_count; r++) {
        if (s->root[r].node != node)
            continue;
        lf_str k = lf_snapshot_string(s, s->root[r].kind);
        if (k.len == len && memcmp(k.ptr, kind, len) == 0)
            found = 1;
        else
            *other = 1;
    }
    return found;
}

/* The holder is held only through Gc.finalise registrations: the top owner
 * above it has finaliser roots, no other root, and no reference from any
 * reachable object (one pass over the edges, for the few findings whose
 * top owner a finaliser holds). */
static int held_by_finalisers(const lf_snapshot *s, uint32_t node)
{
    uint32_t top = node;
    while (s->idom[top] != LF_NODE_SUPER && s->idom[top] != LF_NODE_NONE)
        top = s->idom[top];
    int other = 0;
    if (s->idom[top] != LF_NODE_SUPER || !root_holds(s, top, "finaliser", &other) || other)
        return 0;
    for (uint32_t u = 0; u < s->object_count; u++) {
        if (s->idom[u] == LF_NODE_NONE)
            continue; /* unreachable */
        for (uint64_t e = lf_snapshot_edges_begin(s, u); e < lf_snapshot_edges_end(s, u); e++)
            if (s->edge_target[e] == top) /* a weak edge has its flag: never equal */
                return 0;
    }
    return 1;
}

static int by_bytes_rate(const void *pa, const void *pb)
{
    const lf_suspect *a = pa, *b = pb;
    if (a->bytes_rate != b->bytes_rate)
        return a->bytes_rate > b->bytes_rate ? -1 : 1;
    if (a->rate != b->rate)
        return a->rate > b->rate ? -1 : 1;
    return a->name < b->name ? -1 : a->name > b->name;
}

/* A finding of class c at holder row r: its counts and bytes fitted. */
static int add_growth(const lf_trend *t, const lf_snapshot *s, const double *workload, uint32_t c, int64_t r,
                      lf_suspect_list *list)
{
    const uint32_t n = t->series;
    const uint64_t *y = t->holders.count + (size_t)r * t->capacity;
    const uint64_t *bytes = t->holders.bytes + (size_t)r * t->capacity;
    lf_suspect f = {.kind = LF_SUSPECT_GROWTH, .cls = class_named(s, t, c), .instances = y[n - 1],
                    .name = c, .holder_row = r, .gain = (int64_t)y[n - 1] - (int64_t)y[0],
                    .rate = lf_trend_fit_counts(y, n, workload).slope,
                    .bytes_rate = lf_trend_fit_counts(bytes, n, workload).slope};
    f.acc.point = f.acc.cls = LF_NODE_NONE;
    return lf_suspect_add(list, &f);
}

/* Adds class c's rows other than `except` that grow by the rule, those
 * whose holder already has a finding (Judy1 holders) when `only` is set. */
static int add_growing_rows(const lf_trend *t, const lf_snapshot *s, const double *workload,
                            const lf_trend_rule *rule, uint32_t c, int64_t except, Pvoid_t only,
                            lf_suspect_list *list)
{
    const lf_trend_holders *h = &t->holders;
    PWord_t slot;
    Word_t key = 0;
    JLF(slot, h->by_class[c], key);
    while (slot) {
        int64_t r = (int64_t)*slot - 1;
        const uint64_t *y = h->count + (size_t)r * t->capacity;
        lf_trend_fit fit = lf_trend_fit_counts(y, t->series, workload);
        int known = 1;
        if (only)
            J1T(known, only, (Word_t)key);
        if (r != except && known && lf_trend_grows(y, t->series, &fit, rule) &&
            add_growth(t, s, workload, c, r, list))
            return -1;
        JLN(slot, h->by_class[c], key);
    }
    return 0;
}

/* The flagged classes at their holder, and at every other holder under
 * which they grow by the rule too (two maps that each gain one HashMap$Node
 * per request); then, under the holders found, the classes that grow there
 * by the rule though not flagged as a whole (the keys of one map, strings
 * like the values of another): the bytes a holder gains per unit are those
 * of all the classes growing under it. */
static int flagged(const lf_trend *t, const lf_snapshot *s, const double *workload, const lf_trend_rule *rule,
                   lf_suspect_list *list)
{
    const lf_trend_holders *h = &t->holders;
    uint8_t *done = calloc((size_t)t->classes + 1, 1);
    Pvoid_t holders = NULL;
    int rc = done ? 0 : -1;
    for (uint32_t c = 0; c < t->classes && !rc; c++) {
        lf_trend_fit fit;
        int64_t holder;
        if (lf_trend_judge(t, c, workload, rule, &fit, &holder) != LF_TREND_GROWS || holder < 0)
            continue;
        done[c] = 1;
        if (add_growth(t, s, workload, c, holder, list) ||
            add_growing_rows(t, s, workload, rule, c, holder, NULL, list))
            rc = -1;
    }
    for (size_t k = 0; k < list->count && !rc; k++) {
        int set = 0;
        if (list->item[k].kind == LF_SUSPECT_GROWTH)
            J1S(set, holders, (Word_t)h->row_key[list->item[k].holder_row]);
        if (set == JERR)
            rc = -1;
    }
    for (uint32_t c = 0; c < t->classes && !rc && holders; c++)
        if (!done[c] && c < h->classes && add_growing_rows(t, s, workload, rule, c, -1, holders, list))
            rc = -1;
    Word_t freed;
    J1FA(freed, holders);
    (void)freed;
    free(done);
    return rc;
}

static const lf_trend_holders *sorting_holders;

/* By holder (its key in the trend, then its node), fastest first within. */
static int by_holder(const void *pa, const void *pb)
{
    const lf_suspect *a = pa, *b = pb;
    uint64_t ka = sorting_holders->row_key[a->holder_row], kb = sorting_holders->row_key[b->holder_row];
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    return by_bytes_rate(a, b);
}

static void growths_free(lf_suspect_growth *g, uint32_t count)
{
    for (uint32_t i = 0; g && i < count; i++)
        free(g[i].counts);
    free(g);
}

/* Findings of one holder become one: each class is listed in grows with
 * its counts and rate, and the finding's rates add up. */
static int merge_by_holder(const lf_trend *t, lf_suspect_list *list, size_t start)
{
    lf_suspect *f = list->item + start;
    size_t count = list->count - start, out = 0;
    const uint32_t n = t->series;
    sorting_holders = &t->holders;
    qsort(f, count, sizeof *f, by_holder);
    for (size_t i = 0, j; i < count; i = j) {
        lf_suspect m = f[i];
        uint64_t key = t->holders.row_key[f[i].holder_row];
        for (j = i + 1; j < count && f[j].node == f[i].node && t->holders.row_key[f[j].holder_row] == key;)
            j++;
        m.grows = calloc(j - i, sizeof *m.grows);
        m.counts = NULL;
        if (!m.grows)
            return -1;
        m.grows_count = (uint32_t)(j - i);
        m.rate = m.bytes_rate = 0;
        for (size_t k = i; k < j; k++) {
            lf_suspect_growth *g = &m.grows[k - i];
            *g = (lf_suspect_growth){f[k].name, f[k].rate, f[k].bytes_rate, malloc(n * sizeof *g->counts)};
            if (!g->counts) {
                growths_free(m.grows, m.grows_count);
                return -1;
            }
            memcpy(g->counts, t->holders.count + (size_t)f[k].holder_row * t->capacity, n * sizeof *g->counts);
            m.rate += f[k].rate;
            m.bytes_rate += f[k].bytes_rate;
        }
        f[out++] = m;
    }
    list->count = start + out;
    return 0;
}

static int by_growth_rate(const void *pa, const void *pb)
{
    const lf_suspect_growth *a = pa, *b = pb;
    if (a->bytes_rate != b->bytes_rate)
        return a->bytes_rate > b->bytes_rate ? -1 : 1;
    return a->name < b->name ? -1 : a->name > b->name;
}

/* Adds finding a's classes, counts and rates to b's; a's are taken over or
 * freed. */
static int fold_into(lf_suspect *b, lf_suspect *a, uint32_t series)
{
    lf_suspect_growth *g = realloc(b->grows, (b->grows_count + a->grows_count) * sizeof *g);
    if (!g)
        return -1;
    b->grows = g;
    for (uint32_t i = 0; i < a->grows_count; i++) {
        uint32_t j = 0;
        while (j < b->grows_count && g[j].name != a->grows[i].name)
            j++;
        if (j == b->grows_count) { /* a class new to b; else its rates and counts add up */
            g[b->grows_count++] = a->grows[i];
            a->grows[i].counts = NULL;
            continue;
        }
        g[j].rate += a->grows[i].rate;
        g[j].bytes_rate += a->grows[i].bytes_rate;
        for (uint32_t x = 0; x < series; x++)
            g[j].counts[x] += a->grows[i].counts[x];
    }
    b->rate += a->rate;
    b->bytes_rate += a->bytes_rate;
    return 0;
}

/* A holder below another finding's holder in the dominator tree (the
 * byte[] that grow inside the Listeners that grow in a list) is part of
 * that finding: each finding goes into the topmost one above it. */
static int fold_nested(const lf_trend *t, const lf_snapshot *s, lf_suspect_list *list, size_t start)
{
    lf_suspect *f = list->item + start;
    size_t count = list->count - start;
    uint8_t *gone = calloc(count + 1, 1);
    if (!gone)
        return -1;
    for (size_t a = 0; a < count; a++) {
        size_t top = count;
        for (uint32_t v = f[a].node; v != LF_NODE_NONE && s->idom[v] != LF_NODE_SUPER;) {
            v = s->idom[v];
            for (size_t b = 0; b < count && v != LF_NODE_NONE; b++)
                if (b != a && f[b].node == v)
                    top = b;
        }
        if (top < count && (gone[a] = 1, fold_into(&f[top], &f[a], t->series))) {
            free(gone);
            return -1;
        }
    }
    size_t out = 0;
    for (size_t k = 0; k < count; k++) {
        if (!gone[k])
            f[out++] = f[k];
        else
            growths_free(f[k].grows, f[k].grows_count);
    }
    list->count = start + out;
    free(gone);
    return 0;
}

/* Whether class group g of s has the name of trend row `name`. */
static int group_is(const lf_trend *t, const lf_snapshot *s, const lf_class_group *g, uint32_t name)
{
    lf_str n = lf_snapshot_class_name(s, g->cls);
    size_t len = t->names.offset[name + 1] - t->names.offset[name];
    return n.len == len && memcmp(n.ptr, t->names.bytes + t->names.offset[name], len) == 0;
}

/* The next cell of bucket cell x in its chain: the block in x's field [2]
 * (next), when x dominates it (the data may be a cell's shape too). */
static uint32_t next_cell(const lf_snapshot *s, uint32_t x)
{
    for (uint64_t e = lf_snapshot_edges_begin(s, x); e < lf_snapshot_edges_end(s, x); e++) {
        uint8_t kind;
        uint32_t label, t = s->edge_target[e];
        if ((t & LF_EDGE_WEAK) || lf_snapshot_edge_info(s, e, &kind, &label) ||
            kind != LF_EDGE_KIND_ELEMENT || label != 2)
            continue;
        return s->idom[t] == x ? t : LF_NODE_NONE;
    }
    return LF_NODE_NONE;
}

/* OCaml's Hashtbl has no entry class that leakfind knows by name, as
 * java.util's HashMap$Node: its buckets are cells {key; data; next},
 * chained through next, labelled `... Hashtbl.bucketlist` in a typed
 * snapshot and `block(tag 0, 3 fields)` in an untyped one (recognised there
 * below a table's bucket array: lf_is_ocaml_bucket_cell). The cells among
 * the payload below the holder are the heads of the chains and the buckets
 * of one entry: the members are what they hold (the sessions, not the
 * cells: issue 48), and m is rebuilt below them when there are any.
 * Returns 0 or -1 (memory). */
static int through_bucket_heads(const lf_snapshot *s, lf_collection_members *m)
{
    int rc = 0, found = 0;
    uint32_t *members = NULL;
    size_t len = 0, cap = 0;
    for (size_t i = 0; i < m->payload_count && !rc; i++) {
        uint32_t x = m->payload[i];
        if (i + LF_PREFETCH_AHEAD < m->payload_count) /* a cell is known by its class */
            __builtin_prefetch(&s->object_class[m->payload[i + LF_PREFETCH_AHEAD]]);
        int head = lf_is_ocaml_bucket_cell(s, x);
        found |= head;
        if (!head) {
            rc = lf_vec_reserve((void **)&members, &cap, len + 1, sizeof *members);
            if (!rc)
                members[len++] = x;
            continue;
        }
        /* the chain from x: each cell's children but the next cell are members */
        for (uint32_t cell = x; cell != LF_NODE_NONE && !rc;) {
            uint32_t next = next_cell(s, cell);
            for (uint32_t c = s->domtree_offset[cell]; c < s->domtree_offset[cell + 1] && !rc; c++) {
                if (s->domtree_child[c] == next)
                    continue;
                rc = lf_vec_reserve((void **)&members, &cap, len + 1, sizeof *members);
                if (!rc)
                    members[len++] = s->domtree_child[c];
            }
            cell = next;
        }
    }
    if (!rc && found) { /* the members are the payload; no structure group is needed */
        lf_big_free(m->payload);
        m->payload = members, m->payload_count = len, m->payload_cap = cap;
        m->group_count = 0;
        members = NULL;
    }
    lf_big_free(members);
    return rc;
}

/* Which of f's growing classes leaks, as a person names it: of the holder's
 * members in the last snapshot, looking through its collection's structure
 * (entries, buckets, backing arrays: DESIGN 13), the first class by
 * retained bytes that grows there (a map's sessions, not their byte[]
 * payloads or the map's nodes); without one, the fastest in bytes. Its
 * index in f->grows, and in *members how many of its objects are members. */
static uint32_t leading(const lf_trend *t, const lf_snapshot *s, const lf_suspect *f, uint64_t *members)
{
    lf_collection_members m;
    uint32_t lead = 0;
    *members = 0;
    if (f->node == LF_NODE_NONE)
        return 0;
    const uint32_t *kids = s->domtree_child + s->domtree_offset[f->node];
    size_t kid_count = s->domtree_offset[f->node + 1] - s->domtree_offset[f->node];
    if (lf_collection_members_unordered(s, kids, kid_count, &m))
        return 0;
    if (through_bucket_heads(s, &m))
        return 0; /* m is freed */
    int found = 0;
    if (lf_group_payload(s, &m, 0) == 0)
        for (size_t k = 0; k < m.group_count && !found; k++)
            for (uint32_t g = 0; g < f->grows_count && !found && !m.group[k].structure; g++)
                if (group_is(t, s, &m.group[k], f->grows[g].name)) {
                    lead = g;
                    *members = m.group[k].count;
                    found = 1;
                }
    lf_collection_members_free(&m);
    return lead;
}

/* grows: the leading class first, the others fastest first; the finding's
 * class, counts, instances, gain and rate are the leading class's. With
 * stable ids (V8) a holder's counts are of the objects new since the first
 * snapshot: those of the last snapshot that were there before are added to
 * every count, so the counts agree with what the holder holds. */
static int name_the_leak(const lf_trend *t, const lf_snapshot *s, lf_suspect *f)
{
    const uint32_t n = t->series;
    qsort(f->grows, f->grows_count, sizeof *f->grows, by_growth_rate);
    uint64_t members;
    uint32_t lead = leading(t, s, f, &members);
    lf_suspect_growth first = f->grows[lead];
    memmove(f->grows + 1, f->grows, lead * sizeof *f->grows);
    f->grows[0] = first;
    if (!(f->counts = malloc(n * sizeof *f->counts)))
        return -1;
    uint64_t before = t->holders.by_id && members > first.counts[n - 1] ? members - first.counts[n - 1] : 0;
    for (uint32_t x = 0; x < n; x++)
        f->counts[x] = first.counts[x] + before;
    f->name = first.name;
    f->cls = class_named(s, t, first.name);
    f->rate = first.rate;
    f->instances = f->counts[n - 1];
    f->gain = (int64_t)f->counts[n - 1] - (int64_t)f->counts[0];
    return 0;
}

/* Whether trend row r counts objects of the class named like node's. */
static int row_of_class_of(const lf_trend *t, const lf_snapshot *s, size_t r, uint32_t node)
{
    uint32_t name = t->holders.row_class[r];
    lf_str n = lf_snapshot_class_name(s, s->object_class[node]);
    size_t len = t->names.offset[name + 1] - t->names.offset[name];
    return n.len == len && memcmp(n.ptr, t->names.bytes + t->names.offset[name], len) == 0;
}

/* A holder's bytes per unit are its whole growth: every class counted under
 * it, those whose count does not grow included (a map's buckets, an event's
 * invocation list grow in size, not in number), and the holder's own class
 * where its parent counts it (a list's array, replaced by a larger one), as
 * diff --owners sees it. One pass over the trend's rows per finding. */
static int whole_holder_bytes(const lf_trend *t, const lf_snapshot *s, const double *workload, lf_suspect *f,
                              size_t count)
{
    const lf_trend_holders *h = &t->holders;
    const uint32_t n = t->series;
    uint64_t *sum = malloc(((size_t)n + 1) * sizeof *sum);
    if (!sum)
        return -1;
    for (size_t k = 0; k < count; k++) {
        uint64_t key = h->row_key[f[k].holder_row], parent = h->row_parent[f[k].holder_row];
        memset(sum, 0, (size_t)n * sizeof *sum);
        for (size_t r = 0; r < h->rows; r++)
            if (h->row_key[r] == key ||
                (parent && h->row_key[r] == parent && f[k].node != LF_NODE_NONE && row_of_class_of(t, s, r, f[k].node)))
                for (uint32_t x = 0; x < n; x++)
                    sum[x] += h->bytes[r * h->capacity + x];
        f[k].bytes_rate = lf_trend_fit_counts(sum, n, workload).slope;
    }
    free(sum);
    return 0;
}

int lf_suspects_by_growth(const lf_trend *t, const lf_snapshot *last, const double *workload,
                          const lf_trend_rule *rule, lf_accumulation_memo *memo, lf_suspect_list *list,
                          lf_error *err)
{
    size_t start = list->count;
    if (flagged(t, last, workload, rule, list))
        return lf_fail_nomem(err, "growth findings");
    if (list->count == start)
        return 0;
    if (find_holders(t, last, list->item + start, list->count - start, err))
        return -1;
    if (merge_by_holder(t, list, start) ||
        whole_holder_bytes(t, last, workload, list->item + start, list->count - start) ||
        fold_nested(t, last, list, start))
        return lf_fail_nomem(err, "growth findings");
    lf_suspect *f = list->item + start;
    size_t count = list->count - start;
    for (size_t k = 0; k < count; k++) {
        if (f[k].node == LF_NODE_NONE)
            continue;
        if (last->idom[f[k].node] != LF_NODE_SUPER || !f[k].retained)
            f[k].retained = lf_snapshot_retained(last, f[k].node);
        f[k].finaliser_held = (uint8_t)held_by_finalisers(last, f[k].node);
        if (lf_accumulation_find(last, memo, f[k].node, &f[k].acc, err))
            return -1;
    }
    for (size_t k = 0; k < count; k++)
        if (name_the_leak(t, last, &f[k]))
            return lf_fail_nomem(err, "growth findings");
    qsort(f, count, sizeof *f, by_bytes_rate);
    for (size_t k = 0; k < count; k++) /* the largest, f[0], is a finding unless its rate is nothing */
        f[k].minor = fabs(f[k].rate) < LF_SUSPECT_MINOR_RATE || f[k].bytes_rate < rule->minor_share * f[0].bytes_rate;
    return 0;
}
