/* gcdump_model.c - the snapshot a .gcdump's graph gives (docs/DOTNET.md,
 * "What a dump holds"):
 *   - objects: the nodes with an address and a real type, id = address;
 *     class = the type's name without its size bucket (" (Bytes > 10K)"),
 *     with what the collector's bracket rewriting lost put back (<>c,
 *     T[,]);
 *   - references: their children that are objects, no field names (the file
 *     has none); a child never described (type UNDEFINED) with an address
 *     is a dangling reference;
 *   - roots: the synthetic nodes under [.NET Roots] ([static vars], [local
 *     vars], [other roots] > [strong Handles]...) are not objects: each
 *     object one of them points to is a root of the kind its category
 *     gives, a static field named by the field. */
#include "gcdump_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../base/vec.h"
#include "../model/builder.h"

#define CLASS_LATER (-2)

typedef struct gc_build {
    const gc_graph *g;
    lf_builder *b;
    int64_t *class_of_type; /* builder class; CLASS_LATER: made with its first object; -1: UNDEFINED */
    gc_ranks ranks;         /* node -> object number */
    lf_error *err;
} gc_build;

/* ---- class names */

/* The size bucket the collector appends to objects over 1,000 bytes. */
static size_t without_bucket(const char *name)
{
    size_t n = strlen(name);
    const char *open = n ? strrchr(name, '(') : NULL;
    if (open && open > name && open[-1] == ' ' && !strncmp(open, "(Bytes > ", 9) && name[n - 1] == ')')
        return (size_t)(open - 1 - name);
    return n;
}

static int is_ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* The collector wrote generic arguments as <...> by turning every [ into <,
 * then "<>" back into "[]" for arrays: a compiler-generated "<>c" became
 * "[]c", and a 2-D array "T[,]" stayed "T<,>". Both are put back. */
static void repair_brackets(char *s, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] == '[' && s[i + 1] == ']' && i + 2 < n && is_ident_char(s[i + 2])) {
            s[i] = '<';
            s[i + 1] = '>';
        } else if (s[i] == '<' && s[i + 1] == ',') {
            size_t j = i + 1;
            while (j < n && s[j] == ',')
                j++;
            if (j < n && s[j] == '>') {
                s[i] = '[';
                s[j] = ']';
            }
        }
    }
}

/* The class of type t's objects, made with the first of them (a synthetic
 * node's type never becomes a class). */
static int64_t class_of(gc_build *x, uint32_t t)
{
    if (x->class_of_type[t] != CLASS_LATER)
        return x->class_of_type[t];
    const char *name = x->g->type[t].name;
    size_t n = without_bucket(name);
    char *copy = malloc(n + 1);
    if (!copy)
        return lf_fail_nomem(x->err, "a .gcdump class name");
    memcpy(copy, name, n);
    copy[n] = 0;
    repair_brackets(copy, n);
    int64_t cls = lf_builder_class(x->b, copy, n);
    free(copy);
    if (cls < 0)
        return lf_fail(x->err, LF_ERR_SYSTEM, "out of memory for the .gcdump classes");
    return x->class_of_type[t] = cls;
}

static int make_classes(gc_build *x)
{
    const gc_graph *g = x->g;
    x->class_of_type = malloc(((size_t)g->type_count + 1) * sizeof *x->class_of_type);
    if (!x->class_of_type)
        return lf_fail_nomem(x->err, "the .gcdump classes");
    for (uint32_t t = 0; t < g->type_count; t++)
        x->class_of_type[t] = gc_type_is_undefined(g, t) ? -1 : CLASS_LATER;
    return 0;
}

/* ---- objects and references
 *
 * Objects are numbered in node order (rank), the builder's ids 0, 1, 2...
 * which need no id table; references and roots are given by rank, and the
 * addresses become the ids at the end (lf_builder_rename). */

/* An object: a node with an address whose type is real (synthetic nodes
 * have address 0; an RCW is a real object with a bracketed name). */
static int is_object(const gc_build *x, uint32_t type, uint64_t address)
{
    return address != 0 && x->class_of_type[type] != -1;
}

/* Pass 1: the nodes that are not objects, the objects' count and
 * references, and the sum of every node's size. */
static int number_objects(gc_build *x, uint64_t *objects, uint64_t *references, int64_t *node_bytes)
{
    const gc_graph *g = x->g;
    gc_ranks *r = &x->ranks;
    *objects = *references = 0;
    *node_bytes = 0;
    for (uint32_t i = 0; i < g->node_count; i++) {
        gc_node n;
        if (gc_node_read(g, i, &n, x->err))
            return -1;
        *node_bytes += n.size;
        if (is_object(x, n.type, gc_node_address(g, i))) {
            (*objects)++;
            *references += n.child_count;
        } else if (lf_vec_reserve((void **)&r->not_object, &r->cap, r->count + 1, sizeof *r->not_object)) {
            return lf_fail_nomem(x->err, "the .gcdump nodes");
        } else {
            r->not_object[r->count++] = i;
        }
    }
    return 0;
}

uint32_t gc_rank_of(const gc_ranks *r, uint32_t node)
{
    size_t lo = 0, hi = r->count; /* the first not-object index >= node */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->not_object[mid] < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->count && r->not_object[lo] == node ? GC_NO_RANK : node - (uint32_t)lo;
}

/* The id a reference or root to node is given: its number, or an id no
 * object has (a dangling reference) when the collector saw it referenced at
 * an address but never described it; -1: no reference at all. */
int64_t gc_target_id(const gc_graph *g, const gc_ranks *r, uint32_t node)
{
    uint32_t rank = gc_rank_of(r, node);
    if (rank != GC_NO_RANK)
        return rank;
    return gc_node_address(g, node) ? (int64_t)GC_DANGLING_ID : -1;
}

static int add_references(gc_build *x, uint32_t node, uint32_t from, gc_node *n)
{
    for (uint32_t k = 0; k < n->child_count; k++) {
        uint32_t child;
        if (gc_next_child(x->g, node, n, &child, x->err))
            return -1;
        int64_t to = gc_target_id(x->g, &x->ranks, child);
        if (to >= 0 && lf_builder_edge(x->b, from, (uint64_t)to, 0, LF_EDGE_KIND_NONE, 0))
            return lf_fail(x->err, LF_ERR_SYSTEM, "out of memory for the .gcdump references");
    }
    return 0;
}

/* Pass 2: the objects with their references. */
static int add_objects(gc_build *x, const lf_progress *progress)
{
    const gc_graph *g = x->g;
    lf_progress_counter pc;
    lf_progress_begin(&pc, progress, "reading", g->node_count);
    size_t skip = 0; /* not_object entries below i */
    for (uint32_t i = 0; i < g->node_count; i++) {
        if (skip < x->ranks.count && x->ranks.not_object[skip] == i) {
            skip++;
            continue;
        }
        uint32_t rank = i - (uint32_t)skip;
        gc_node n;
        if (gc_node_read(g, i, &n, x->err))
            return -1;
        int64_t cls = class_of(x, n.type);
        if (cls < 0)
            return -1;
        int rc = lf_builder_object(x->b, rank, (uint32_t)cls, (uint64_t)n.size);
        if (rc)
            return lf_fail(x->err, rc == LF_BUILDER_NOMEM ? LF_ERR_SYSTEM : LF_ERR_INPUT,
                           "node %u: %s", i, rc == LF_BUILDER_NOMEM ? "out of memory" : "too many objects");
        if (add_references(x, i, rank, &n))
            return -1;
        if ((i & 0xffff) == 0)
            lf_progress_reach(&pc, i);
    }
    lf_progress_reach(&pc, g->node_count);
    return 0;
}

/* ---- ids: the objects' addresses, read back from the mapped dump */

typedef struct gc_lazy {
    lf_lazy_fields fields;
    const uint8_t *address; /* the dump's address table, node_count LE u64 */
    gc_ranks ranks;
} gc_lazy;

/* Object number -> node index: the number plus the non-object nodes before
 * it; not_object[j] - j objects come before the j-th of those. */
static uint64_t lazy_address(const void *ctx, uint32_t object)
{
    const gc_lazy *l = ctx;
    size_t lo = 0, hi = l->ranks.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->ranks.not_object[mid] - mid <= object)
            lo = mid + 1;
        else
            hi = mid;
    }
    const uint8_t *p = l->address + ((size_t)object + lo) * 8;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Never called while the snapshot has its label arrays; all plain. */
static void lazy_plain_edges(const void *ctx, const lf_snapshot *s, uint32_t node, uint64_t end, uint8_t *kind,
                             uint32_t *label)
{
    (void)ctx;
    uint64_t first = lf_snapshot_edges_begin(s, node);
    memset(kind, 0, end - first);
    memset(label, 0, (end - first) * sizeof *label);
}

static int attach_addresses(gc_build *x, lf_snapshot *out)
{
    gc_lazy *l = lf_snapshot_own(out, calloc(1, sizeof *l));
    if (!l || (x->ranks.not_object && !lf_snapshot_own(out, x->ranks.not_object)))
        return lf_fail_nomem(x->err, "the .gcdump addresses");
    l->address = x->g->address;
    l->ranks = x->ranks;
    x->ranks.not_object = NULL; /* the snapshot's now */
    l->fields = (lf_lazy_fields){.ctx = l, .object_id = lazy_address, .node_edges = lazy_plain_edges};
    out->lazy = &l->fields;
    return 0;
}

static int build(gc_build *x, const lf_progress *progress)
{
    uint64_t objects, references;
    int64_t node_bytes;
    if (make_classes(x) || number_objects(x, &objects, &references, &node_bytes))
        return -1;
    if (node_bytes != x->g->total_size)
        return lf_fail_at(x->err, x->g->total_size_at, "bad .gcdump",
                          "the graph's total size says %lld bytes, its nodes add up to %lld",
                          (long long)x->g->total_size, (long long)node_bytes);
    if (lf_builder_reserve(x->b, objects, references))
        return lf_fail_nomem(x->err, "the .gcdump objects");
    return add_objects(x, progress) || gc_roots_add(x->g, x->b, &x->ranks, x->err) ? -1 : 0;
}

int gc_model_build(const gc_graph *g, const lf_progress *progress, lf_snapshot *out, lf_error *err)
{
    gc_build x = {g, lf_builder_new(), NULL, {NULL, 0, 0}, err};
    int rc = !x.b ? lf_fail_nomem(err, "the snapshot builder") : build(&x, progress);
    free(x.class_of_type);
    if (rc) {
        free(x.ranks.not_object);
        lf_builder_free(x.b);
        return -1;
    }
    lf_builder_set_flags(x.b, LF_SNAP_NO_FIELD_NAMES);
    lf_builder_ids_elsewhere(x.b);
    if (lf_builder_finish(x.b, out, err)) {
        free(x.ranks.not_object);
        return -1;
    }
    if (attach_addresses(&x, out)) {
        free(x.ranks.not_object);
        lf_snapshot_free(out);
        return -1;
    }
    return 0;
}
