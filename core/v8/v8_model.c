/* v8_model.c - Chrome DevTools' semantics on a raw V8 snapshot.
 *
 * Mirrors what DevTools' heap snapshot worker (HeapSnapshot.ts) computes
 * before its dominator tree, so that retained sizes and dominators agree
 * node for node (docs/V8.md lists the rules and the few deviations):
 *  - class names as the Summary view groups objects;
 *  - "page-owned" nodes: reachable without weak edges from the root's
 *    shortcut edges (global objects) and from "(Document DOM trees)";
 *  - essential edges: not weak, not a self edge, not the WeakMap table ->
 *    value edge, and except at the root not a shortcut and not an edge from
 *    a non-page-owned node into a page-owned one; the others get the weak bit;
 *  - shallow sizes: an array or hidden node reachable (through other such
 *    nodes) from exactly one other node has its size moved to that owner;
 *  - roots: the root, then every node without an essential retainer (DevTools
 *    hangs those under the root); nodes reachable from neither are left to
 *    the analysis, which gives each its own entry (LF_SNAP_UNREACHED_ALONE). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/bits.h"
#include "../model/snapshot.h"
#include "v8_internal.h"
#include "../base/vec.h"

#define NO_OWNER 0xffffffffu
#define MANY_OWNERS 0xfffffffeu

/* A string by its index in the table (node names are, once
 * v8_build_snapshot starts; edge names are by their index in the file). */
static const char *str(const v8_raw *raw, uint32_t s, size_t *len)
{
    *len = (size_t)(raw->strings.offset[s + 1] - raw->strings.offset[s]);
    return raw->strings.bytes + raw->strings.offset[s];
}

int64_t v8_file_string(const v8_raw *raw, const char *s, size_t len)
{
    for (uint32_t k = 0; k < raw->string_count; k++) {
        size_t have;
        const char *bytes = str(raw, V8_STRING_BASE + k, &have);
        if (have == len && memcmp(bytes, s, len) == 0)
            return V8_STRING_BASE + k;
    }
    return -1;
}

enum { DOM_UNKNOWN = 0, DOM_ATTACHED = 1, DOM_DETACHED = 2 };

/* DevTools' propagateDOMState: embedder (native) nodes inherit their
 * parent's attached or detached state; detached ones are renamed
 * "Detached <name>", which is how the Summary view flags them. */
static int propagate_dom_state(v8_raw *raw, lf_error *err)
{
    const uint32_t n = raw->node_count;
    if (!raw->have_detached)
        return 0;
    uint8_t *visited = lf_big_calloc((size_t)n + 1, 1);
    /* A node is visited once and pushed at most once: the attached stack
     * grows up from the start of one array (pending[0, na)), the detached
     * one down from its end (pending(n - nd, n]). */
    uint32_t *pending = lf_big_malloc(((size_t)n + 1) * sizeof *pending);
    char *buf = NULL;
    size_t cap = 0, na = 0, nd = 0;
    int rc = -1;
    if (!visited || !pending)
        goto out;
    for (int phase = 0; phase < 3; phase++) {
        for (uint32_t k = 0;; k++) {
            uint32_t from, new_state;
            if (phase == 0) { /* every node with a known state */
                if (k >= n)
                    break;
                from = k;
                new_state = v8_node_dom_state(raw, k);
                if (new_state == DOM_UNKNOWN)
                    continue;
            } else if (phase == 1) { /* children of attached nodes are attached */
                if (na == 0)
                    break;
                from = pending[--na];
                new_state = DOM_ATTACHED;
            } else { /* children of detached nodes inherit their state */
                if (nd == 0)
                    break;
                from = pending[n - --nd];
                if (v8_node_dom_state(raw, from) == DOM_ATTACHED)
                    continue;
                new_state = DOM_DETACHED;
            }
            uint64_t e = phase == 0 ? 0 : v8_edges_begin(raw, from);
            uint64_t end = phase == 0 ? 1 : v8_edges_end(raw, from);
            for (; e < end; e++) {
                uint32_t v = from;
                if (phase != 0) {
                    uint8_t t = v8_edge_kind(raw, e);
                    if (t == V8E_HIDDEN || t == V8E_WEAK || t == V8E_OTHER)
                        continue; /* "invisible" edges are of no known type here */
                    v = raw->edge_target[e];
                }
                if (visited[v])
                    continue;
                visited[v] = 1;
                if (v8_node_kind(raw, v) != V8N_NATIVE)
                    continue;
                raw->node_type[v] = (uint8_t)(v8_node_type_index(raw, v) | new_state << V8_NODE_DOM_SHIFT);
                if (new_state == DOM_ATTACHED) {
                    pending[na++] = v;
                } else if (new_state == DOM_DETACHED) {
                    size_t len;
                    const char *name = str(raw, raw->node_name[v], &len);
                    if (lf_vec_reserve((void **)&buf, &cap, len + 10, 1))
                        goto out;
                    memcpy(buf, "Detached ", 9);
                    memcpy(buf + 9, name, len);
                    int64_t renamed = lf_strtab_intern(&raw->strings, buf, len + 9);
                    if (renamed < 0)
                        goto out;
                    raw->node_name[v] = (uint32_t)renamed;
                    pending[n - nd++] = v;
                }
            }
        }
    }
    rc = 0;
out:
    if (rc)
        lf_fail_nomem(err, "reading the snapshot");
    lf_big_free(visited);
    lf_big_free(pending);
    lf_big_free(buf);
    return rc;
}

/* "123 / part of key (K @1) -> value (V @2) pair in WeakMap (table @3)":
 * the edge V8 writes from a WeakMap's table to a value; returns the table's
 * id, or 0 when the name is not of that form (DevTools' ephemeron regex). */
static uint64_t weakmap_table_id(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    static const char lead[] = " / part of key (";
    static const char tail[] = " pair in WeakMap (table @";
    if (i == 0 || len - i < sizeof lead - 1 || memcmp(s + i, lead, sizeof lead - 1) != 0)
        return 0;
    if (len < 2 || s[len - 1] != ')')
        return 0;
    size_t d = len - 1;
    while (d > i && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    if (d == len - 1 || d < sizeof tail - 1 || memcmp(s + d - (sizeof tail - 1), tail, sizeof tail - 1) != 0)
        return 0;
    /* between: "K @1) -> value (V @2)" */
    const char *mid = s + i + sizeof lead - 1;
    size_t mid_len = d - (sizeof tail - 1) - (i + sizeof lead - 1);
    static const char arrow[] = ") -> value (";
    int found = 0;
    for (size_t k = 0; k + sizeof arrow - 1 <= mid_len; k++)
        if (memcmp(mid + k, arrow, sizeof arrow - 1) == 0) {
            size_t at = k; /* " @digits" must end right before the arrow */
            size_t q = at;
            while (q > 0 && mid[q - 1] >= '0' && mid[q - 1] <= '9')
                q--;
            if (q < at && q >= 2 && mid[q - 1] == '@' && mid[q - 2] == ' ' && mid_len > 0 &&
                mid[mid_len - 1] == ')') {
                found = 1;
                break;
            }
        }
    if (!found)
        return 0;
    uint64_t id = 0;
    for (size_t k = d; k < len - 1; k++)
        id = id * 10 + (uint64_t)(s[k] - '0');
    return id;
}

/* Page-owned nodes: DevTools' markPageOwnedNodes, in two steps. The seeds
 * (the root's shortcut edges and "(Document DOM trees)") are read on the
 * calling thread, before class names overwrite the node names; the spread
 * over non-weak edges runs on the edges thread. */
typedef struct page_marks {
    uint8_t *owned;            /* node -> 1 when page-owned */
    uint32_t *stack;           /* nodes marked, their edges not yet followed */
    size_t depth;
} page_marks;

static int seed_page_owned(const v8_raw *raw, int64_t dom_trees_name, page_marks *pm, lf_error *err)
{
    const uint32_t n = raw->node_count, root = raw->root_ordinal;
    pm->owned = lf_big_calloc((size_t)n + 1, 1);
    pm->stack = lf_big_malloc(((size_t)n + 1) * sizeof *pm->stack);
    pm->depth = 0;
    if (!pm->owned || !pm->stack)
        return lf_fail_nomem(err, "reading the snapshot");
    for (uint64_t e = v8_edges_begin(raw, root); e < v8_edges_end(raw, root); e++) {
        uint32_t t = raw->edge_target[e];
        if (v8_edge_kind(raw, e) == V8E_ELEMENT) {
            if (v8_node_kind(raw, t) != V8N_SYNTHETIC || raw->node_name[t] != dom_trees_name)
                continue;
        } else if (v8_edge_kind(raw, e) != V8E_SHORTCUT) {
            continue;
        }
        if (!pm->owned[t]) {
            pm->owned[t] = 1;
            pm->stack[pm->depth++] = t;
        }
    }
    return 0;
}

/* Nodes leave the stack a batch at a time. */
#define SPREAD_BATCH 32

/* Nodes taken off the top of a worklist, with their edge ranges. */
typedef struct node_batch {
    uint32_t node[SPREAD_BATCH];
    uint64_t begin[SPREAD_BATCH], end[SPREAD_BATCH];
    unsigned count;
} node_batch;

/* Takes up to SPREAD_BATCH nodes off work[0, *len) and asks for their
 * first edges (the misses of a batch overlap). */
static inline void take_batch(const v8_raw *raw, const uint32_t *work, size_t *len, node_batch *b)
{
    b->count = 0;
    for (; *len && b->count < SPREAD_BATCH; b->count++)
        b->node[b->count] = work[--*len];
    for (unsigned k = 0; k < b->count; k++) {
        b->begin[k] = v8_edges_begin(raw, b->node[k]);
        b->end[k] = v8_edges_end(raw, b->node[k]);
        __builtin_prefetch(&raw->edge_target[b->begin[k]]);
        __builtin_prefetch(&raw->edge_word[b->begin[k]]);
    }
}

/* Marks what the seeds reach over edges that are not weak. A mark is a
 * set, in whatever order it is made: the stack gives up a batch of nodes,
 * whose edge ranges and first edges are asked for before any is read, so
 * that their cache misses overlap (a node at a time, the walk was one long
 * chain of them, 60-80 ms of the Express snapshot's build on its own, 30-40 ms so). */
static void spread_page_owned(const v8_raw *raw, page_marks *pm)
{
    uint8_t *owned = pm->owned;
    uint32_t *stack = pm->stack;
    size_t depth = pm->depth;
    const uint32_t *target = raw->edge_target;
    while (depth) {
        node_batch b;
        take_batch(raw, stack, &depth, &b);
        for (unsigned k = 0; k < b.count; k++)
            for (uint64_t e = b.begin[k]; e < b.end[k]; e++) {
                uint32_t t = target[e];
                if (owned[t] || v8_edge_kind(raw, e) == V8E_WEAK)
                    continue;
                owned[t] = 1;
                stack[depth++] = t;
            }
    }
    lf_big_free(stack);
    pm->stack = NULL;
    pm->depth = 0;
}

/* For every string of the file that names a WeakMap's table -> value edge,
 * the table's id (else 0). Made before the threads: the strings only grow
 * later, on the other thread. */
static uint64_t *weakmap_names(const v8_raw *raw, lf_error *err)
{
    uint64_t *table = lf_big_calloc((size_t)raw->string_count + 1, sizeof *table);
    if (!table) {
        lf_fail_nomem(err, "reading the snapshot");
        return NULL;
    }
    for (uint32_t i = 0; i < raw->string_count; i++) {
        size_t len;
        const char *s = str(raw, V8_STRING_BASE + i, &len);
        if (len > 40 && s[0] >= '0' && s[0] <= '9')
            table[i] = weakmap_table_id(s, len);
    }
    return table;
}

typedef struct edges_job {
    const v8_raw *raw;
    page_marks page;           /* seeded: the thread spreads, uses and frees it */
    const uint64_t *weakmap_table;
    /* edge -> 1 for the edges that do not retain: OR-ed into the raw
     * targets once every reader of them is done, so that they become the
     * snapshot's without a second 4-byte-per-edge array */
    uint64_t *weak_bits;
    uint8_t *has_retainer;     /* node -> 1 when a retaining edge points at it */
    int split_edges;           /* classify the edges on two threads */
} edges_job;

/* The two halves share the word where they meet: OR, not store. */
static void flush_weak_word(uint64_t *weak_bits, uint64_t at, uint64_t word)
{
    if (word)
        __atomic_fetch_or(&weak_bits[at], word, __ATOMIC_RELAXED);
}

/* The edges of nodes [lo, hi): retaining or not (kinds and labels are read
 * back from the file when output asks: v8_lazy.c). */
static void classify_edges(const edges_job *job, const uint8_t *page, uint32_t lo, uint32_t hi)
{
    const v8_raw *raw = job->raw;
    const uint32_t root = raw->root_ordinal;
    uint64_t word = 0, word_at = v8_edges_begin(raw, lo) / 64;
    for (uint32_t v = lo; v < hi; v++) {
        for (uint64_t e = v8_edges_begin(raw, v); e < v8_edges_end(raw, v); e++) {
            uint32_t t = raw->edge_target[e];
            uint8_t type = v8_edge_kind(raw, e);
            int essential = 1;
            if (type == V8E_INTERNAL) {
                const uint64_t table = job->weakmap_table[v8_edge_name(raw, e)];
                essential = !table || table != raw->node_id[v];
            }
            if (type == V8E_WEAK || t == v)
                essential = 0;
            if (v != root && (type == V8E_SHORTCUT || (!page[v] && page[t])))
                essential = 0;
            if (e / 64 != word_at) {
                flush_weak_word(job->weak_bits, word_at, word);
                word = 0, word_at = e / 64;
            }
            word |= (uint64_t)!essential << (e % 64);
            /* Both halves may mark one node: the same byte, the same value. */
            if (essential)
                __atomic_store_n(&job->has_retainer[t], 1, __ATOMIC_RELAXED);
        }
    }
    flush_weak_word(job->weak_bits, word_at, word);
}

typedef struct edge_half {
    const edges_job *job;
    const uint8_t *page;
    uint32_t lo, hi;
} edge_half;

static void *classify_half_run(void *arg)
{
    edge_half *h = arg;
    classify_edges(h->job, h->page, h->lo, h->hi);
    return NULL;
}

/* Page-owned nodes spread, then every edge. The other core builds sizes and class
 * names meanwhile, which takes about half as long as the edges: the second
 * half of the edges gets its own thread, so that both cores stay busy to the
 * end (two threads share one core until the class names are done). */
static void *edges_run(void *arg)
{
    edges_job *job = arg;
    const v8_raw *raw = job->raw;
    const uint32_t n = raw->node_count;
    spread_page_owned(raw, &job->page);
    const uint8_t *page = job->page.owned;
    /* The first node whose edges start at or after the middle edge. */
    const lf_edge_offsets offsets = lf_edge_offsets_view(raw->edge_offset);
    uint32_t split = job->split_edges ? lf_edge_offsets_lower_bound(offsets, n, raw->edge_count / 2) : n;
    edge_half upper = {job, page, split, n};
    pthread_t upper_thread;
    int two = split < n && pthread_create(&upper_thread, NULL, classify_half_run, &upper) == 0;
    classify_edges(job, page, 0, two ? split : n);
    if (two)
        pthread_join(upper_thread, NULL);
    lf_big_free(job->page.owned);
    job->page.owned = NULL;
    return NULL;
}

/* The owners of the nodes that can be owned (hidden, array, external
 * string data) only, by rank among those: the other nodes own themselves,
 * and in a browser's or Node's heap most nodes are of the other kinds. */
typedef struct owners {
    uint64_t *ownable;         /* node -> 1 when it can be owned */
    uint32_t *rank_at;         /* per 64 nodes: the ownable nodes before them */
    uint32_t *owner;           /* ownable rank -> owner node, NO_OWNER or MANY_OWNERS */
    uint32_t count;            /* ownable nodes */
} owners;

static void owners_free(owners *ow)
{
    lf_big_free(ow->ownable);
    lf_big_free(ow->rank_at);
    lf_big_free(ow->owner);
}

static int owners_init(const v8_raw *raw, int64_t external_name, owners *ow)
{
    const uint32_t n = raw->node_count;
    const size_t words = (size_t)n / 64 + 1;
    ow->ownable = lf_big_calloc(words, sizeof *ow->ownable);
    ow->rank_at = lf_big_malloc(words * sizeof *ow->rank_at);
    if (!ow->ownable || !ow->rank_at)
        return -1;
    for (uint32_t v = 0; v < n; v++) {
        uint8_t type = v8_node_kind(raw, v);
        if (type == V8N_HIDDEN || type == V8N_ARRAY || (type == V8N_NATIVE && raw->node_name[v] == external_name))
            ow->ownable[v / 64] |= 1ull << (v % 64);
    }
    uint32_t count = 0;
    for (size_t w = 0; w < words; w++) {
        ow->rank_at[w] = count;
        count += (uint32_t)lf_popcount64(ow->ownable[w]);
    }
    ow->count = count;
    ow->owner = lf_big_malloc(((size_t)count + 1) * sizeof *ow->owner);
    if (!ow->owner)
        return -1;
    for (uint32_t k = 0; k < count; k++)
        ow->owner[k] = NO_OWNER;
    return 0;
}

/* Node v's owner slot, or NULL: v owns itself. */
static inline uint32_t *owner_of(const owners *ow, uint32_t v)
{
    uint64_t word = ow->ownable[v / 64], bit = 1ull << (v % 64);
    if (!(word & bit))
        return NULL;
    return &ow->owner[ow->rank_at[v / 64] + (uint32_t)lf_popcount64(word & (bit - 1))];
}

/* Node v's edges pass v's owner (o) on to the ownable nodes they reach:
 * one owner taken, a second one makes many. Each node whose owner changed
 * goes on the worklist (twice at most: none to one, one to many). */
static inline size_t pass_owner_on(const v8_raw *raw, const owners *ow, uint64_t e, uint64_t end, uint32_t o,
                                   uint32_t *work, size_t work_len)
{
    const uint32_t *target = raw->edge_target;
    for (; e < end; e++) {
        if (v8_edge_kind(raw, e) == V8E_WEAK)
            continue;
        uint32_t t = target[e];
        uint32_t *cur = owner_of(ow, t);
        if (!cur || *cur == o || *cur == MANY_OWNERS)
            continue;
        *cur = *cur == NO_OWNER ? o : MANY_OWNERS;
        work[work_len++] = t;
    }
    return work_len;
}

/* The owners a node ends with (none, one, many) are the least fixed point
 * of passing owners on, whatever the order: first every node that owns
 * itself passes itself on, in node order (its edges in file order); then
 * the worklist, a batch at a time, its edge ranges asked for before any is
 * read so that the misses overlap (as spread_page_owned). */
static int spread_owners(const v8_raw *raw, owners *ow)
{
    const uint32_t n = raw->node_count;
    uint32_t *work = lf_big_malloc((2 * (size_t)ow->count + 1) * sizeof *work);
    if (!work)
        return -1;
    size_t work_len = 0;
    for (uint32_t from = 0; from < n; from++)
        if (!owner_of(ow, from))
            work_len = pass_owner_on(raw, ow, v8_edges_begin(raw, from), v8_edges_end(raw, from), from, work,
                                     work_len);
    while (work_len) {
        node_batch b;
        take_batch(raw, work, &work_len, &b);
        for (unsigned k = 0; k < b.count; k++) /* the owner now, which may have become many since */
            work_len = pass_owner_on(raw, ow, b.begin[k], b.end[k], *owner_of(ow, b.node[k]), work, work_len);
    }
    lf_big_free(work);
    return 0;
}

/* DevTools' calculateShallowSizes: array and hidden nodes (and external
 * string data) owned through such nodes by exactly one other node give
 * their size to it. Only when the root has a non-synthetic child ("user
 * roots"); otherwise the snapshot exposes internals and sizes stay. */
static int move_owned_sizes(const v8_raw *raw, uint64_t *size, int64_t external_name, lf_error *err)
{
    const uint32_t n = raw->node_count, root = raw->root_ordinal;
    int user_roots = 0;
    for (uint64_t e = v8_edges_begin(raw, root); e < v8_edges_end(raw, root); e++)
        user_roots |= v8_node_kind(raw, raw->edge_target[e]) != V8N_SYNTHETIC;
    if (!user_roots)
        return 0;
    owners ow = {0};
    if (owners_init(raw, external_name, &ow) || spread_owners(raw, &ow)) {
        owners_free(&ow);
        return lf_fail_nomem(err, "reading the snapshot");
    }
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t *slot = owner_of(&ow, v);
        uint32_t o = slot ? *slot : v;
        if (o == NO_OWNER || o == MANY_OWNERS || o == v)
            continue;
        if (v8_node_kind(raw, o) == V8N_SYNTHETIC || o == root)
            continue;
        size[o] += size[v];
        size[v] = 0;
    }
    owners_free(&ow);
    return 0;
}

/* The class name string (strtab index) of every node, as DevTools'
 * getNodeClassIndex names them, in place of its name (raw->node_name). */
static int class_names(v8_raw *raw, lf_error *err)
{
    const uint32_t n = raw->node_count;
    int64_t fixed_system = lf_strtab_intern(&raw->strings, "(system)", 8);
    int64_t fixed_code = lf_strtab_intern(&raw->strings, "(compiled code)", 15);
    int64_t fixed_function = lf_strtab_intern(&raw->strings, "Function", 8);
    int64_t fixed_regexp = lf_strtab_intern(&raw->strings, "RegExp", 6);
    int64_t by_type[32];
    for (unsigned t = 0; t < raw->type_count; t++) {
        char name[128];
        int len = snprintf(name, sizeof name, "(%s)", raw->type_names[t]);
        by_type[t] = lf_strtab_intern(&raw->strings, name, (size_t)len < sizeof name ? (size_t)len : sizeof name - 1);
        if (by_type[t] < 0)
            return lf_fail_nomem(err, "naming classes");
    }
    if (fixed_system < 0 || fixed_code < 0 || fixed_function < 0 || fixed_regexp < 0)
        return lf_fail_nomem(err, "naming classes");
    /* Node names are all in the table by now; per name, its class string
     * + 1 (0: not seen yet): a name is looked at and hashed once. */
    const uint32_t names = raw->strings.count;
    uint32_t *class_of_name = lf_big_calloc(names, sizeof *class_of_name);
    if (!class_of_name)
        return lf_fail_nomem(err, "naming classes");
    char *buf = NULL;
    size_t cap = 0;
    int rc = -1;
    for (uint32_t v = 0; v < n; v++) {
        int64_t s;
        switch (v8_node_kind(raw, v)) {
        case V8N_HIDDEN: s = fixed_system; break;
        case V8N_CODE: s = fixed_code; break;
        case V8N_CLOSURE: s = fixed_function; break;
        case V8N_REGEXP: s = fixed_regexp; break;
        case V8N_OBJECT:
        case V8N_NATIVE: {
            const uint32_t name_index = raw->node_name[v];
            if (class_of_name[name_index]) {
                s = class_of_name[name_index] - 1;
                break;
            }
            size_t len;
            const char *name = str(raw, name_index, &len);
            /* '<div id="a">' is class '<div>', 'Detached <div id="a">' 'Detached <div>' */
            size_t from = 0;
            if (len > 0 && name[0] == '<')
                from = 1;
            else if (len >= 10 && memcmp(name, "Detached <", 10) == 0)
                from = 10;
            const char *space = from ? memchr(name + from, ' ', len - from) : NULL;
            if (!space) {
                /* equal names (the file's, and those made here) are one class */
                s = lf_strtab_canonical(&raw->strings, name_index);
            } else {
                size_t keep = (size_t)(space - name);
                if (lf_vec_reserve((void **)&buf, &cap, keep + 1, 1))
                    goto out;
                memcpy(buf, name, keep);
                buf[keep] = '>';
                s = lf_strtab_intern(&raw->strings, buf, keep + 1);
            }
            if (s >= 0)
                class_of_name[name_index] = (uint32_t)s + 1;
            break;
        }
        default:
            s = v8_node_type_index(raw, v) < raw->type_count ? by_type[v8_node_type_index(raw, v)] : fixed_system;
            break;
        }
        if (s < 0)
            goto out;
        raw->node_name[v] = (uint32_t)s;
    }
    rc = 0;
out:
    if (rc)
        lf_fail_nomem(err, "naming classes");
    lf_big_free(class_of_name);
    lf_big_free(buf);
    return rc;
}

/* The model's arrays while they are made: each step frees what it alone
 * needed, model_free what a failure leaves. */
typedef struct model {
    uint64_t *weak_bits;       /* edge -> 1 for an edge that does not retain */
    uint8_t *has_retainer;     /* node -> 1 when a retaining edge points at it */
    uint32_t *target;          /* edge -> target node | LF_EDGE_WEAK: the raw targets, taken */
    uint32_t *object_class;    /* node -> class */
    uint32_t *class_name;      /* class -> strtab index */
    size_t class_count, class_cap;
    lf_root *roots;
    size_t root_count, root_cap;
    uint32_t *named;           /* synthetic nodes, then their names */
    size_t named_count;
    lf_place *place;           /* source places by node (v8_places.c) */
    uint32_t place_count;
} model;

static void model_free(model *md)
{
    lf_big_free(md->weak_bits);
    lf_big_free(md->has_retainer);
    lf_big_free(md->target);
    lf_big_free(md->object_class);
    lf_big_free(md->class_name);
    lf_big_free(md->roots);
    free(md->named);
    lf_big_free(md->place);
}

/* Node names become table indices: the file's string k is table string
 * V8_STRING_BASE + k. */
static void rebase_node_names(v8_raw *raw)
{
    for (uint32_t v = 0; v < raw->node_count; v++)
        raw->node_name[v] += V8_STRING_BASE;
}

/* Two independent jobs: the edges (page-owned nodes, retaining or not) on a
 * second thread; sizes, class names and interfaces, which add strings, here.
 * The edge job reads no string bytes and no node names: class names
 * replace those (raw->node_name holds class strings from then on). */
static int classify_and_name(v8_raw *raw, unsigned threads, model *md, lf_error *err)
{
    const uint32_t n = raw->node_count;
    md->weak_bits = lf_big_calloc(raw->edge_count / 64 + 1, sizeof *md->weak_bits);
    md->has_retainer = lf_big_calloc((size_t)n + 1, 1);
    if (!md->weak_bits || !md->has_retainer)
        return lf_fail_nomem(err, "reading the snapshot");
    edges_job ej = {.raw = raw, .weak_bits = md->weak_bits, .has_retainer = md->has_retainer,
                    .split_edges = threads > 1};
    if (seed_page_owned(raw, v8_file_string(raw, "(Document DOM trees)", 20), &ej.page, err) ||
        !(ej.weakmap_table = weakmap_names(raw, err))) {
        lf_big_free(ej.page.owned);
        lf_big_free(ej.page.stack);
        return -1;
    }
    pthread_t edges_thread;
    int threaded = threads > 1 && pthread_create(&edges_thread, NULL, edges_run, &ej) == 0;
    int64_t external_name = v8_file_string(raw, "system / ExternalStringData", 27);
    int rc = move_owned_sizes(raw, raw->node_size, external_name, err);
    if (!rc)
        rc = class_names(raw, err);
    if (!rc)
        rc = v8_infer_interfaces(raw, raw->node_name, err);
    if (threaded)
        pthread_join(edges_thread, NULL);
    else
        edges_run(&ej);
    lf_big_free((void *)ej.weakmap_table);
    return rc;
}

/* Nothing reads the raw targets any more: they become the snapshot's, the
 * edges that do not retain marked weak. */
static void take_targets(v8_raw *raw, model *md, lf_snapshot *out)
{
    md->target = raw->edge_target;
    raw->edge_target = NULL;
    uint64_t non_owning = 0; /* left out by DevTools' rules, not weak by type */
    for (uint64_t w = 0; w <= raw->edge_count / 64; w++)
        for (uint64_t bits = md->weak_bits[w]; bits; bits &= bits - 1) {
            uint64_t e = w * 64 + (uint64_t)__builtin_ctzll(bits);
            md->target[e] |= LF_EDGE_WEAK;
            non_owning += v8_edge_kind(raw, e) != V8E_WEAK;
        }
    out->stats.non_owning_edges = non_owning;
    lf_big_free(md->weak_bits);
    md->weak_bits = NULL;
}

/* Roots: the root, then the nodes DevTools hangs under it because nothing
 * retains them. */
static int collect_roots(v8_raw *raw, model *md, lf_error *err)
{
    int64_t root_kind = lf_strtab_intern(&raw->strings, "(root)", 6);
    int64_t weak_kind = lf_strtab_intern(&raw->strings, "only weakly retained", 20);
    if (root_kind < 0 || weak_kind < 0 ||
        lf_vec_reserve((void **)&md->roots, &md->root_cap, 1, sizeof *md->roots))
        return lf_fail_nomem(err, "reading the snapshot");
    md->roots[md->root_count++] = (lf_root){raw->root_ordinal, (uint32_t)root_kind, 0, 0};
    for (uint32_t v = 0; v < raw->node_count; v++) {
        if (v == raw->root_ordinal || md->has_retainer[v])
            continue;
        if (lf_vec_reserve((void **)&md->roots, &md->root_cap, md->root_count + 1, sizeof *md->roots))
            return lf_fail_nomem(err, "reading the snapshot");
        md->roots[md->root_count++] = (lf_root){v, (uint32_t)weak_kind, 0, 0};
    }
    lf_big_free(md->has_retainer);
    md->has_retainer = NULL;
    return 0;
}

/* Classes: one per distinct class name, in order of first appearance, and
 * for objects with a location entry (their constructor's place) one per
 * name apart from the objects of that name without one, as DevTools' class
 * keys have it (docs/V8.md 4.2: TextEncoder.prototype, unlocated, is not
 * counted with the TextEncoder instances). The node's class in place of its
 * class string (raw->node_name becomes md->object_class). */
static int number_classes(v8_raw *raw, model *md, lf_error *err)
{
    const uint32_t n = raw->node_count, strings = raw->strings.count;
    const uint8_t *located = raw->places ? raw->places->located : NULL;
    uint32_t *class_of_string = lf_big_malloc(2 * ((size_t)strings + 1) * sizeof *class_of_string);
    if (!class_of_string)
        return lf_fail_nomem(err, "naming classes");
    md->object_class = raw->node_name;
    raw->node_name = NULL;
    memset(class_of_string, 0xff, 2 * ((size_t)strings + 1) * sizeof *class_of_string);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t s = md->object_class[v];
        /* class_of_string's second half: the located objects' classes */
        size_t key = located && (located[v >> 3] >> (v & 7) & 1) && v8_node_kind(raw, v) == V8N_OBJECT
                         ? (size_t)strings + 1 + s : s;
        if (class_of_string[key] == 0xffffffffu) {
            if (lf_vec_reserve((void **)&md->class_name, &md->class_cap, md->class_count + 1,
                               sizeof *md->class_name)) {
                lf_big_free(class_of_string);
                return lf_fail_nomem(err, "naming classes");
            }
            md->class_name[md->class_count] = s;
            class_of_string[key] = (uint32_t)md->class_count++;
        }
        md->object_class[v] = class_of_string[key];
    }
    lf_big_free(class_of_string);
    return 0;
}

/* Synthetic nodes ("(GC roots)", "(Strong roots)", ...) are shown by name. */
static int name_synthetic_nodes(const v8_raw *raw, model *md, lf_error *err)
{
    const uint32_t n = raw->node_count;
    size_t count = 0;
    for (uint32_t v = 0; v < n; v++)
        count += v8_node_kind(raw, v) == V8N_SYNTHETIC;
    md->named = malloc((2 * count + 1) * sizeof *md->named);
    if (!md->named)
        return lf_fail_nomem(err, "reading the snapshot");
    for (uint32_t v = 0, i = 0; v < n; v++)
        if (v8_node_kind(raw, v) == V8N_SYNTHETIC) {
            md->named[i] = v;
            md->named[count + i++] = raw->node_name[v];
        }
    md->named_count = count;
    return 0;
}

/* The reader's 8-byte sizes become 4-byte ones in the same block, which
 * then shrinks (graph/sizes.h); the sizes of 4 GiB or more go to big. Entry
 * v moves from bytes 8v to 4v, below what is still to be read: memcpy, as
 * the two views of the block alias. Returns the narrow array, NULL when out
 * of memory (the block is then still the reader's). */
static uint32_t *narrow_sizes(v8_raw *raw, lf_size_table *big)
{
    unsigned char *block = (unsigned char *)raw->node_size;
    for (uint32_t v = 0; v < raw->node_count; v++) {
        uint64_t bytes;
        memcpy(&bytes, block + 8 * (size_t)v, sizeof bytes);
        uint32_t narrow = bytes < LF_SIZE_BIG ? (uint32_t)bytes : LF_SIZE_BIG;
        if (narrow == LF_SIZE_BIG && lf_size_table_add(big, v, bytes))
            return NULL;
        memcpy(block + 4 * (size_t)v, &narrow, sizeof narrow);
    }
    size_t keep = ((size_t)raw->node_count + 1) * sizeof(uint32_t);
    void *shrunk = lf_big_realloc(block, keep);
    raw->node_size = NULL;
    return shrunk ? shrunk : (uint32_t *)block;
}

/* The arrays become the snapshot's (out frees them from now on, even those
 * lf_snapshot_own could not take: those are freed here). */
static int hand_over(v8_raw *raw, model *md, lf_snapshot *out, lf_error *err)
{
    out->named_count = (uint32_t)md->named_count;
    out->named_node = md->named;
    out->named_string = md->named + md->named_count;
    out->place_count = md->place_count;
    out->place = md->place;
    out->format = LF_FORMAT_V8;
    out->source_format = LF_FORMAT_V8;
    out->flags = LF_SNAP_IDS_STABLE | LF_SNAP_IDS_AT | LF_SNAP_UNREACHED_ALONE | LF_SNAP_EMPTY_UNCOUNTED;
    out->object_count = raw->node_count;
    out->edge_count = raw->edge_count;
    out->class_count = (uint32_t)md->class_count;
    out->root_count = (uint32_t)md->root_count;
    out->string_count = raw->strings.count;
    lf_size_table size_big = {0};
    uint32_t *size = narrow_sizes(raw, &size_big);
    if (!size) { /* the reader frees raw->node_size */
        lf_size_table_free(&size_big);
        model_free(md);
        memset(md, 0, sizeof *md);
        return lf_fail_nomem(err, "reading the snapshot");
    }
    void *handed[] = {raw->node_id, md->object_class, size, size_big.entry, lf_edge_offsets_block(raw->edge_offset),
                      md->target, md->class_name, md->roots, raw->strings.offset, raw->strings.bytes,
                      md->named, md->place};
    int rc = 0;
    for (size_t i = 0; i < sizeof handed / sizeof handed[0]; i++)
        if (handed[i] && (rc || !lf_snapshot_own(out, handed[i]))) {
            if (!rc)
                lf_fail_nomem(err, "reading the snapshot");
            rc = -1;
            lf_big_free(handed[i]);
        }
    if (rc == 0) {
        out->object_id = NULL; /* 4 bytes per node, read through the lazy fields (v8.c) */
        out->object_class = md->object_class;
        out->object_shallow = lf_sizes_of(size, &size_big);
        out->edge_offset = lf_edge_offsets_view(raw->edge_offset);
        out->edge_target = md->target;
        out->class_name = md->class_name;
        out->root = md->roots;
        out->string_offset = raw->strings.offset;
        out->string_bytes = raw->strings.bytes;
    }
    memset(md, 0, sizeof *md);
    raw->node_id = NULL;
    raw->edge_offset = (lf_edge_offsets_mut){NULL, NULL};
    raw->strings.offset = NULL;
    raw->strings.bytes = NULL;
    return rc;
}

int v8_build_snapshot(v8_raw *raw, unsigned threads, lf_snapshot *out, lf_error *err)
{
    model md;
    memset(&md, 0, sizeof md);
    rebase_node_names(raw);
    int rc = propagate_dom_state(raw, err);
    if (!rc) /* before class names replace node names */
        rc = name_synthetic_nodes(raw, &md, err);
    if (!rc) /* node names and raw edge targets still there */
        rc = v8_places_resolve(raw, raw->places, &md.place, &md.place_count, err);
    if (!rc)
        rc = classify_and_name(raw, threads, &md, err);
    if (!rc)
        take_targets(raw, &md, out);
    if (!rc)
        rc = collect_roots(raw, &md, err);
    if (!rc)
        rc = number_classes(raw, &md, err);
    if (!rc)
        return hand_over(raw, &md, out, err);
    model_free(&md);
    return rc;
}
