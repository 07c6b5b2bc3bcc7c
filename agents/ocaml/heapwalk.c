/* heapwalk.c - every block reachable from the roots, once, without recursion.
 *
 * Nothing here allocates in the OCaml heap and nothing moves: the program is
 * stopped in the agent (a C call or a GC hook; on OCaml 5 every domain is
 * in the agent's stop-the-world section) while the walk reads it. What
 * differs between runtimes (where blocks live, ephemerons, fibers) is the
 * runtime's heap.c (ocaml4/, ocaml5/). Two passes: the first marks what the
 * roots reach (bitmaps over the heap's regions, one bit per word: 1/64 of
 * the heap, plus a small hash set for static data; the DFS stack holds blocks still to
 * scan, each pushed once); the second writes the marked blocks in address
 * order, each block's id its rank in that order, so that the writer takes
 * ids 0, 1, 2... and a reference's target id is a popcount away. The
 * writer streams (lfs_writer_new_streaming): each block's record and its
 * references go to the file as the block is visited, nothing of the graph
 * is held. Weak references are collected on the side in pass 1, put in
 * their source's rank order, and written after their source's strong ones,
 * only between marked blocks. */
#define CAML_INTERNALS
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/base/bits.h"
#include "../../core/model/idrank.h" /* lf_sort_u64 */
#include "../../core/base/vec.h"

#include <caml/bigarray.h>
#include <caml/custom.h>
#include <caml/weak.h>

typedef struct mark_region {
    uintptr_t lo, hi;    /* [lo, hi) in bytes */
    uint64_t *bits;      /* one bit per word */
    uint32_t *word_rank; /* per 64-bit word of bits: marked blocks before it */
    uint64_t first_rank; /* marked blocks in the regions before this one */
    int window;          /* added around a block (add_window), not listed by the runtime */
} mark_region;

typedef struct pending_root {
    value block;
    const char *kind;
    char *name;
} pending_root;

typedef struct weak_edge {
    value from, to;
    const char *field;
} weak_edge;

/* A weak reference between marked blocks, by rank, in the order written. */
typedef struct ranked_weak {
    uint64_t from, to;
    const char *field;
    size_t order; /* its place in walk->weak: ties keep it */
} ranked_weak;

struct agent_walk {
    lfs_writer *w;
    mark_region *region;
    size_t region_count, region_cap, last_region;
    agent_map static_seen;   /* static data blocks visited (value 1) */
    agent_map ephemeron;     /* the runtime's ephemerons (value 1) */
    agent_map label;         /* label key -> writer class index */
    agent_map label_as;      /* block -> writer class index + 1, for a few blocks */
    value *stack;
    size_t stack_len, stack_cap;
    weak_edge *weak;
    size_t weak_len, weak_cap;
    ranked_weak *weak_ranked;
    size_t weak_ranked_len, weak_next;
    pending_root *root;
    size_t root_len, root_cap;
    agent_typed_root *typed;
    size_t typed_len, typed_cap;
    uint32_t *class_by_rank; /* writer class + 1 of a typed block, by rank;
                              * the top bit: from a vague type */
    uint64_t block_total;    /* ranks: marked blocks, heap and static */
    uint64_t visited;
    int failed;
};

static int push(agent_walk *walk, value v)
{
    if (lf_vec_reserve((void **)&walk->stack, &walk->stack_cap, walk->stack_len + 1,
                       sizeof *walk->stack))
        return -1;
    walk->stack[walk->stack_len++] = v;
    return 0;
}

/* ---- visited marks */

static int by_lo(const void *a, const void *b)
{
    const mark_region *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

int agent_walk_add_region(agent_walk *walk, uintptr_t lo, uintptr_t hi)
{
    if (lf_vec_reserve((void **)&walk->region, &walk->region_cap, walk->region_count + 1,
                       sizeof *walk->region))
        return -1;
    size_t words = (hi - lo) / sizeof(value);
    uint64_t *bits = calloc(words / 64 + 1, sizeof *bits);
    if (!bits)
        return -1;
    walk->region[walk->region_count++] = (mark_region){lo, hi, bits, NULL, 0, 0};
    return 0;
}

static int build_regions(agent_walk *walk)
{
    if (agent_heap_regions(walk))
        return -1;
    qsort(walk->region, walk->region_count, sizeof *walk->region, by_lo);
    return 0;
}

/* A heap block outside every region (OCaml 5's pools and large blocks,
 * which the runtime does not list): a window of WINDOW_BYTES around it,
 * cut to the gap between its neighbours, inserted in address order. */
enum { WINDOW_BYTES = 4 << 20 };

static int add_window(agent_walk *walk, uintptr_t a)
{
    size_t next = agent_keys_at_most(walk->region, walk->region_count, sizeof *walk->region,
                                     offsetof(mark_region, hi), a);
    uintptr_t lo = a & ~(uintptr_t)(WINDOW_BYTES - 1), hi = lo + WINDOW_BYTES;
    if (next > 0 && walk->region[next - 1].hi > lo)
        lo = walk->region[next - 1].hi;
    if (next < walk->region_count && walk->region[next].lo < hi)
        hi = walk->region[next].lo;
    if (agent_walk_add_region(walk, lo, hi))
        return -1;
    mark_region added = walk->region[walk->region_count - 1];
    added.window = 1;
    memmove(&walk->region[next + 1], &walk->region[next],
            (walk->region_count - 1 - next) * sizeof *walk->region);
    walk->region[next] = added;
    walk->last_region = next;
    return 0;
}

static mark_region *region_of(agent_walk *walk, uintptr_t a)
{
    mark_region *r = &walk->region[walk->last_region];
    if (walk->region_count && a >= r->lo && a < r->hi)
        return r;
    /* the first region ending above a: the one holding a, if any */
    size_t lo = agent_keys_at_most(walk->region, walk->region_count, sizeof *walk->region,
                                   offsetof(mark_region, hi), a);
    if (lo < walk->region_count && a >= walk->region[lo].lo) {
        walk->last_region = lo;
        return &walk->region[lo];
    }
    return NULL;
}

/* The region whose bits mark b; NULL for a static block. A window may
 * cover the program's static data too: malloc's heap, where OCaml 5 puts
 * large blocks, can start right after the program image (always so
 * without address randomisation), within 4 MiB of its constants. */
static mark_region *marking_region(agent_walk *walk, value b)
{
    mark_region *r = region_of(walk, (uintptr_t)b);
    return r && r->window && agent_heap_is_static(b) ? NULL : r;
}

/* 1 when b was not marked before (and is now), 0 when it was, -1 on no memory. */
static int mark(agent_walk *walk, value b)
{
    mark_region *r = marking_region(walk, b);
    if (!r && !agent_heap_is_static(b)) {
        if (add_window(walk, (uintptr_t)b))
            return -1;
        r = marking_region(walk, b);
    }
    if (r) {
        size_t word = ((uintptr_t)b - r->lo) / sizeof(value);
        uint64_t bit = 1ULL << (word & 63);
        if (r->bits[word >> 6] & bit)
            return 0;
        r->bits[word >> 6] |= bit;
        return 1;
    }
    int64_t *slot = agent_map_slot(&walk->static_seen, (uint64_t)b, 1);
    if (!slot)
        return -1;
    if (*slot)
        return 0;
    *slot = 1;
    return 1;
}

static int is_marked(agent_walk *walk, value b)
{
    mark_region *r = marking_region(walk, b);
    if (r) {
        size_t word = ((uintptr_t)b - r->lo) / sizeof(value);
        return (r->bits[word >> 6] >> (word & 63)) & 1;
    }
    int64_t *slot = agent_map_slot(&walk->static_seen, (uint64_t)b, 0);
    return slot && *slot;
}

/* ---- labels */

enum { KEY_FIXED = 1, KEY_BLOCK, KEY_CUSTOM, KEY_CLOSURE, KEY_RUNTIME };

static uint64_t label_key(int kind, uint64_t x)
{
    return ((uint64_t)kind << 56) ^ (x & 0x00ffffffffffffffULL);
}

/* The code pointer that names a closure: a curried or tupled function of
 * several arguments keeps its own code in field 2. */
static uintptr_t closure_code(value v)
{
    uintnat info = Closinfo_val(v);
    intnat arity = Arity_closinfo(info);
    if ((arity > 1 || arity < 0) && Start_env_closinfo(info) > 2)
        return (uintptr_t)Field(v, 2);
    return (uintptr_t)Code_val(v);
}

/* Whether a demangled name is an anonymous function's, Module.fun_NNN;
 * unit gets the last part of its module path ("Leaky", "List"). */
static int is_anonymous(const char *name, char *unit, size_t len)
{
    const char *last = strrchr(name, '.');
    if (!last || strncmp(last + 1, "fun_", 4) != 0 || !last[5])
        return 0;
    for (const char *p = last + 5; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    const char *first = last;
    while (first > name && first[-1] != '.')
        first--;
    snprintf(unit, len, "%.*s", (int)(last - first), first);
    return 1;
}

/* "closure Module.function"; an anonymous one also says where it is,
 * "closure Leaky.fun_412 (leaky.ml:17)", when the program has debuginfo. */
static void closure_label(uintptr_t code, char *buf, size_t len)
{
    const agent_symbol *s = agent_symbol_holding(agent_symbols_get(), code);
    char name[256], file[200], unit[128];
    int line;
    if (!s) {
        snprintf(buf, len, "closure (unknown)");
        return;
    }
    agent_demangle(s->name, name, sizeof name);
    if (is_anonymous(name, unit, sizeof unit) && s->size &&
        agent_code_location(s->addr, s->addr + s->size, unit, file, sizeof file, &line) == 0)
        snprintf(buf, len, "closure %.180s (%.100s:%d)", name, file, line);
    else
        snprintf(buf, len, "closure %s", name);
}

static void label_text(value v, int is_ephemeron, char *buf, size_t len)
{
    const char *runtime_label = agent_heap_label(v);
    if (runtime_label) {
        snprintf(buf, len, "%s", runtime_label);
        return;
    }
    switch (Tag_val(v)) {
    case Closure_tag:
        closure_label(closure_code(v), buf, len);
        break;
    case String_tag: snprintf(buf, len, "string"); break;
    case Double_tag: snprintf(buf, len, "float"); break;
    case Double_array_tag: snprintf(buf, len, "float array"); break;
    case Custom_tag: {
        const char *id = Custom_ops_val(v) ? Custom_ops_val(v)->identifier : NULL;
        snprintf(buf, len, "custom %s", id ? id : "(unnamed)");
        break;
    }
    case Abstract_tag:
        snprintf(buf, len, is_ephemeron ? "ephemeron" : "abstract");
        break;
    default:
        snprintf(buf, len, "block(tag %u, %lu fields)", (unsigned)Tag_val(v),
                 (unsigned long)Wosize_val(v));
    }
}

static int64_t label_of(agent_walk *walk, value v, int is_ephemeron)
{
    tag_t tag = Tag_val(v);
    uint64_t key;
    if (agent_heap_label(v))
        key = label_key(KEY_RUNTIME, tag);
    else if (tag == Closure_tag)
        key = label_key(KEY_CLOSURE, closure_code(v));
    else if (tag == Custom_tag)
        key = label_key(KEY_CUSTOM, (uint64_t)(uintptr_t)Custom_ops_val(v));
    else if (tag >= No_scan_tag)
        key = label_key(KEY_FIXED, (uint64_t)tag * 2 + (is_ephemeron ? 1 : 0));
    else
        key = label_key(KEY_BLOCK, ((uint64_t)tag << 40) | Wosize_val(v));
    int64_t *slot = agent_map_slot(&walk->label, key, 1);
    if (!slot)
        return -1;
    if (*slot)
        return *slot - 1;
    char text[320];
    label_text(v, is_ephemeron, text, sizeof text);
    int64_t cls = lfs_writer_class(walk->w, text);
    if (cls < 0)
        return -1;
    *slot = cls + 1;
    return cls;
}

/* ---- sizes */

static uint64_t size_of(value v, int is_static)
{
    if (is_static)
        return 0; /* part of the program's image, not of its heap */
    uint64_t bytes = (uint64_t)Whsize_val(v) * sizeof(value) + agent_heap_extra_bytes(v);
    if (Tag_val(v) == Custom_tag && Custom_ops_val(v) && Custom_ops_val(v)->identifier &&
        strncmp(Custom_ops_val(v)->identifier, "_bigarr", 7) == 0) {
        struct caml_ba_array *ba = Caml_ba_array_val(v);
        if ((ba->flags & CAML_BA_MANAGED_MASK) == CAML_BA_MANAGED)
            bytes += caml_ba_byte_size(ba); /* the payload this block owns */
    }
    return bytes;
}

/* ---- the walk */

value agent_walk_block(value v)
{
    return agent_heap_block(v);
}

/* agent_walk_block for the scan's hot loop: an address in a region is a
 * heap block, with no question to the runtime. */
static value field_block(agent_walk *walk, value v)
{
    if (Is_long(v) || v == 0)
        return 0;
    if (!region_of(walk, (uintptr_t)v))
        return agent_heap_block(v);
    if (Tag_val(v) == Infix_tag)
        v -= Infix_offset_val(v);
    return v;
}

static int reach(agent_walk *walk, value b)
{
    int fresh = mark(walk, b);
    if (fresh < 0)
        return -1;
    return fresh ? push(walk, b) : 0;
}

int agent_walk_root(agent_walk *walk, value v, const char *kind, const char *name)
{
    value b = agent_walk_block(v);
    if (!b)
        return 0;
    char *copy = strdup(name);
    if (!copy || lf_vec_reserve((void **)&walk->root, &walk->root_cap, walk->root_len + 1,
                                sizeof *walk->root)) {
        free(copy);
        return -1;
    }
    walk->root[walk->root_len++] = (pending_root){b, kind, copy};
    return reach(walk, b);
}

static uint64_t rank_of(agent_walk *walk, value b);

int agent_walk_child(agent_walk *walk, value from, value v, const char *field, int emit)
{
    value b = field_block(walk, v);
    if (!b)
        return 0;
    if (!emit)
        return reach(walk, b);
    return lfs_writer_reference(walk->w, rank_of(walk, from), rank_of(walk, b), field) < 0 ? -1 : 0;
}

int agent_walk_weak(agent_walk *walk, value from, value to, const char *field)
{
    value f = agent_walk_block(from), t = agent_walk_block(to);
    if (!f || !t)
        return 0;
    if (lf_vec_reserve((void **)&walk->weak, &walk->weak_cap, walk->weak_len + 1,
                       sizeof *walk->weak))
        return -1;
    walk->weak[walk->weak_len++] = (weak_edge){f, t, field};
    return 0;
}

/* An ephemeron whose key the GC found dead still shows its data until
 * the GC cleans it; that data is garbage, not held. */
static int ephemeron_data_held(value e)
{
    for (mlsize_t i = CAML_EPHE_FIRST_KEY; i < Wosize_val(e); i++) {
        value k = Field(e, i);
        if (k != caml_ephe_none && Is_block(k) && agent_heap_key_dead(k))
            return 0;
    }
    return 1;
}

/* Pass 1 (emit 0) reaches the children and notes the weak references;
 * pass 2 (emit 1) writes the strong references, by rank. */
static int scan_ephemeron(agent_walk *walk, value e, int emit)
{
    static const char *key_names[] = {"key[0]", "key[1]", "key[2]", "key[3]",
                                      "key[4]", "key[5]", "key[6]", "key[7]"};
    value data = Field(e, CAML_EPHE_DATA_OFFSET);
    value b = data != caml_ephe_none ? agent_walk_block(data) : 0;
    if (b) {
        int held = ephemeron_data_held(e);
        if (emit && held &&
            lfs_writer_reference(walk->w, rank_of(walk, e), rank_of(walk, b), "data") < 0)
            return -1;
        if (!emit && (held ? reach(walk, b) : agent_walk_weak(walk, e, b, "data")))
            return -1;
    }
    for (mlsize_t i = CAML_EPHE_FIRST_KEY; i < Wosize_val(e) && !emit; i++) {
        value k = Field(e, i);
        mlsize_t n = i - CAML_EPHE_FIRST_KEY;
        if (k != caml_ephe_none &&
            agent_walk_weak(walk, e, k, n < 8 ? key_names[n] : "key"))
            return -1;
    }
    return 0;
}

static int scan_fields(agent_walk *walk, value v, int emit)
{
    mlsize_t start = 0;
    int closure = Tag_val(v) == Closure_tag;
    if (closure)
        start = Start_env_closinfo(Closinfo_val(v));
    for (mlsize_t i = start; i < Wosize_val(v); i++) {
        value b = field_block(walk, Field(v, i));
        if (!b)
            continue;
        if (!emit) {
            if (reach(walk, b))
                return -1;
            continue;
        }
        int rc;
        if (closure) {
            char name[32];
            snprintf(name, sizeof name, "env[%lu]", (unsigned long)(i - start));
            rc = lfs_writer_reference(walk->w, rank_of(walk, v), rank_of(walk, b), name);
        } else {
            rc = lfs_writer_element(walk->w, rank_of(walk, v), rank_of(walk, b), (uint32_t)i);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int is_ephemeron(agent_walk *walk, value v)
{
    return Tag_val(v) == Abstract_tag && agent_map_slot(&walk->ephemeron, (uint64_t)v, 0) != NULL;
}

/* Pass 1: everything the roots reach is marked, nothing written yet. */
static int mark_reachable(agent_walk *walk)
{
    while (walk->stack_len) {
        value v = walk->stack[--walk->stack_len];
        int rc = 0;
        if (is_ephemeron(walk, v))
            rc = scan_ephemeron(walk, v, 0);
        else if ((rc = agent_heap_scan_own(walk, v, 0)) == 0 && Tag_val(v) < No_scan_tag)
            rc = scan_fields(walk, v, 0);
        if (rc > 0)
            rc = 0;
        if (rc)
            return -1;
    }
    return 0;
}

/* Ids are ranks: the marked blocks numbered in address order, heap and
 * minor heap first, then static data. The writer then takes ids 0, 1, 2...
 * in order and needs no id table, and a reference's target id is a
 * popcount away. */
static int number_blocks(agent_walk *walk, value **statics, size_t *static_count)
{
    uint64_t rank = 0;
    for (size_t i = 0; i < walk->region_count; i++) {
        mark_region *r = &walk->region[i];
        size_t words = ((r->hi - r->lo) / sizeof(value)) / 64 + 1;
        r->word_rank = malloc(words * sizeof *r->word_rank);
        if (!r->word_rank)
            return -1;
        r->first_rank = rank;
        uint64_t in_region = 0;
        for (size_t w = 0; w < words; w++) {
            r->word_rank[w] = (uint32_t)in_region;
            in_region += (uint64_t)lf_popcount64(r->bits[w]);
        }
        rank += in_region;
    }
    agent_map *st = &walk->static_seen;
    *statics = malloc((st->count ? st->count : 1) * sizeof **statics);
    if (!*statics)
        return -1;
    *static_count = 0;
    for (size_t i = 0; i < st->cap; i++)
        if (st->key[i])
            (*statics)[(*static_count)++] = (value)st->key[i];
    if (lf_sort_u64((uint64_t *)*statics, *static_count))
        return -1;
    for (size_t i = 0; i < *static_count; i++)
        *agent_map_slot(st, (uint64_t)(*statics)[i], 0) = (int64_t)(rank + i) + 1;
    walk->block_total = rank + *static_count;
    return 0;
}

static uint64_t rank_of(agent_walk *walk, value b)
{
    mark_region *r = marking_region(walk, b);
    if (r) {
        size_t word = ((uintptr_t)b - r->lo) / sizeof(value);
        uint64_t below = r->bits[word >> 6] & ((1ULL << (word & 63)) - 1);
        return r->first_rank + r->word_rank[word >> 6] + (uint64_t)lf_popcount64(below);
    }
    return (uint64_t)*agent_map_slot(&walk->static_seen, (uint64_t)b, 0) - 1;
}

static int emit_block(agent_walk *walk, value v, int is_static)
{
    int ephemeron = is_ephemeron(walk, v);
    uint64_t rank = rank_of(walk, v);
    int64_t cls = agent_walk_class_of(walk, rank);
    if (cls < 0)
        cls = label_of(walk, v, ephemeron);
    if (walk->label_as.count && Tag_val(v) == 0) {
        int64_t *own = agent_map_slot(&walk->label_as, (uint64_t)v, 0);
        if (own)
            cls = *own - 1;
    }
    if (cls < 0 || lfs_writer_object(walk->w, rank, cls, size_of(v, is_static)) < 0)
        return -1;
    walk->visited++;
    int rc = 0, own;
    if (ephemeron)
        rc = scan_ephemeron(walk, v, 1);
    else if ((own = agent_heap_scan_own(walk, v, 1)) != 0)
        rc = own < 0 ? -1 : 0;
    else if (Tag_val(v) < No_scan_tag)
        rc = scan_fields(walk, v, 1);
    /* its weak references after its strong ones, as the file keeps them */
    for (; rc == 0 && walk->weak_next < walk->weak_ranked_len &&
           walk->weak_ranked[walk->weak_next].from == rank;
         walk->weak_next++) {
        ranked_weak *e = &walk->weak_ranked[walk->weak_next];
        if (lfs_writer_weak_reference(walk->w, e->from, e->to, e->field) < 0)
            rc = -1;
    }
    return rc;
}

static int by_source_rank(const void *a, const void *b)
{
    const ranked_weak *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The weak references between marked blocks in their sources' rank order
 * (a source's own in the order found); the pass-1 list is freed. */
static int rank_weak(agent_walk *walk)
{
    walk->weak_ranked = malloc((walk->weak_len + 1) * sizeof *walk->weak_ranked);
    if (!walk->weak_ranked)
        return -1;
    for (size_t i = 0; i < walk->weak_len; i++) {
        weak_edge *e = &walk->weak[i];
        if (is_marked(walk, e->from) && is_marked(walk, e->to))
            walk->weak_ranked[walk->weak_ranked_len++] =
                (ranked_weak){rank_of(walk, e->from), rank_of(walk, e->to), e->field, i};
    }
    qsort(walk->weak_ranked, walk->weak_ranked_len, sizeof *walk->weak_ranked, by_source_rank);
    free(walk->weak);
    walk->weak = NULL;
    walk->weak_len = walk->weak_cap = 0;
    return 0;
}

/* Pass 2: every marked block in rank order with its references (weak ones
 * last), then the roots. */
static int emit_marked(agent_walk *walk, const value *statics, size_t static_count)
{
    for (size_t i = 0; i < walk->region_count; i++) {
        mark_region *r = &walk->region[i];
        size_t words = ((r->hi - r->lo) / sizeof(value)) / 64 + 1;
        for (size_t w = 0; w < words; w++)
            for (uint64_t bits = r->bits[w]; bits; bits &= bits - 1) {
                size_t word = w * 64 + (size_t)__builtin_ctzll(bits);
                if (emit_block(walk, (value)(r->lo + word * sizeof(value)), 0))
                    return -1;
            }
    }
    for (size_t i = 0; i < static_count; i++)
        if (emit_block(walk, statics[i], 1))
            return -1;
    for (size_t i = 0; i < walk->root_len; i++) {
        pending_root *p = &walk->root[i];
        if (lfs_writer_root(walk->w, rank_of(walk, p->block), p->kind, p->name) < 0)
            return -1;
    }
    return 0;
}

int agent_walk_run(agent_walk *walk)
{
    value *statics = NULL;
    size_t static_count = 0;
    /* the writer needs the block count before the first block (and the
     * allocation sites, which come before the blocks) */
    int rc = mark_reachable(walk) || number_blocks(walk, &statics, &static_count) ||
                     lfs_writer_objects(walk->w, walk->block_total) < 0 || rank_weak(walk) ||
                     agent_sites_collect(walk) || agent_types_label(walk) ||
                     emit_marked(walk, statics, static_count)
                 ? -1
                 : 0;
    free(statics);
    return rc;
}

int agent_walk_ephemeron(agent_walk *walk, value e)
{
    int64_t *slot = agent_map_slot(&walk->ephemeron, (uint64_t)e, 1);
    if (!slot)
        return -1;
    *slot = 1;
    return 0;
}

agent_walk *agent_walk_new(lfs_writer *w)
{
    agent_walk *walk = calloc(1, sizeof *walk);
    if (!walk)
        return NULL;
    walk->w = w;
    uint64_t blocks, fields;
    agent_heap_estimate(&blocks, &fields);
    lfs_writer_expect(w, blocks, fields); /* a hint: without it the arrays grow */
    if (build_regions(walk) || agent_heap_ephemerons(walk)) {
        agent_walk_free(walk);
        return NULL;
    }
    return walk;
}

int agent_walk_marked(agent_walk *walk, value b)
{
    return is_marked(walk, b);
}

uint64_t agent_walk_rank(agent_walk *walk, value b)
{
    return rank_of(walk, b);
}

int agent_walk_marked_rank(agent_walk *walk, value v, value *block, uint64_t *rank)
{
    value b = field_block(walk, v);
    if (!b || !is_marked(walk, b))
        return 0;
    *block = b;
    *rank = rank_of(walk, b);
    return 1;
}

lfs_writer *agent_walk_writer(agent_walk *walk)
{
    return walk->w;
}

int agent_walk_label_as(agent_walk *walk, value b, int64_t cls)
{
    int64_t *slot = agent_map_slot(&walk->label_as, (uint64_t)b, 1);
    if (!slot)
        return -1;
    *slot = cls + 1;
    return 0;
}

int agent_walk_typed_root(agent_walk *walk, value v, uint32_t shape)
{
    value b = agent_walk_block(v);
    if (!shape || !b)
        return 0;
    if (lf_vec_reserve((void **)&walk->typed, &walk->typed_cap, walk->typed_len + 1,
                       sizeof *walk->typed))
        return -1;
    walk->typed[walk->typed_len++] = (agent_typed_root){b, shape};
    return 0;
}

const agent_typed_root *agent_walk_typed_roots(const agent_walk *walk, size_t *count)
{
    *count = walk->typed_len;
    return walk->typed;
}

#define VAGUE_BIT 0x80000000u

int64_t agent_walk_class_of(const agent_walk *walk, uint64_t rank)
{
    if (!walk->class_by_rank || rank >= walk->block_total)
        return -1;
    return (int64_t)(walk->class_by_rank[rank] & ~VAGUE_BIT) - 1;
}

int agent_walk_class_state(const agent_walk *walk, uint64_t rank)
{
    if (!walk->class_by_rank || rank >= walk->block_total || !walk->class_by_rank[rank])
        return AGENT_CLASS_NONE;
    return walk->class_by_rank[rank] & VAGUE_BIT ? AGENT_CLASS_VAGUE : AGENT_CLASS_FIRM;
}

int agent_walk_set_class(agent_walk *walk, uint64_t rank, int64_t cls, int vague)
{
    if (rank >= walk->block_total || cls < 0 || cls >= VAGUE_BIT - 1)
        return 0;
    if (!walk->class_by_rank) {
        walk->class_by_rank = calloc(walk->block_total, sizeof *walk->class_by_rank);
        if (!walk->class_by_rank)
            return -1;
    }
    walk->class_by_rank[rank] = ((uint32_t)cls + 1) | (vague ? VAGUE_BIT : 0);
    return 0;
}

uint64_t agent_walk_count(const agent_walk *walk)
{
    return walk->visited;
}

uint64_t agent_walk_memory(const agent_walk *walk)
{
    uint64_t bytes = walk->stack_cap * sizeof(value) + walk->weak_cap * sizeof(weak_edge) +
                     walk->weak_ranked_len * sizeof(ranked_weak) +
                     walk->region_count * sizeof(mark_region);
    for (size_t i = 0; i < walk->region_count; i++)
        bytes += ((walk->region[i].hi - walk->region[i].lo) / sizeof(value) / 64 + 1) * 8;
    const agent_map *maps[] = {&walk->static_seen, &walk->ephemeron, &walk->label,
                               &walk->label_as};
    for (size_t i = 0; i < 4; i++)
        bytes += maps[i]->cap * 16;
    if (walk->class_by_rank)
        bytes += walk->block_total * sizeof *walk->class_by_rank;
    return bytes + walk->typed_cap * sizeof *walk->typed;
}

void agent_walk_free(agent_walk *walk)
{
    if (!walk)
        return;
    for (size_t i = 0; i < walk->region_count; i++) {
        free(walk->region[i].bits);
        free(walk->region[i].word_rank);
    }
    for (size_t i = 0; i < walk->root_len; i++)
        free(walk->root[i].name);
    free(walk->root);
    free(walk->region);
    agent_map_free(&walk->static_seen);
    agent_map_free(&walk->ephemeron);
    agent_map_free(&walk->label);
    agent_map_free(&walk->label_as);
    free(walk->stack);
    free(walk->weak);
    free(walk->weak_ranked);
    free(walk->typed);
    free(walk->class_by_rank);
    free(walk);
}
