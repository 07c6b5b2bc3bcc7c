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

#include "../model/builder.h"

#define CLASS_LATER (-2)

typedef struct gc_build {
    const gc_graph *g;
    lf_builder *b;
    int64_t *class_of_type; /* builder class; CLASS_LATER: made with its first object; -1: UNDEFINED */
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

/* ---- objects and references */

/* An object: a node with an address whose type is real (synthetic nodes
 * have address 0; an RCW is a real object with a bracketed name). */
static int is_object(const gc_build *x, uint32_t type, uint64_t address)
{
    return address != 0 && x->class_of_type[type] != -1;
}

static int add_references(gc_build *x, uint32_t node, uint64_t from, gc_node *n)
{
    for (uint32_t k = 0; k < n->child_count; k++) {
        uint32_t child;
        if (gc_next_child(x->g, node, n, &child, x->err))
            return -1;
        uint64_t to = gc_node_address(x->g, child);
        if (to == 0)
            continue; /* a synthetic node, or nothing (UNDEFINED at 0) */
        /* an UNDEFINED node with an address: an object the collector never
         * described, left dangling by the builder */
        if (lf_builder_edge(x->b, from, to, 0, LF_EDGE_KIND_NONE, 0))
            return lf_fail(x->err, LF_ERR_SYSTEM, "out of memory for the .gcdump references");
    }
    return 0;
}

static int add_objects(gc_build *x, const lf_progress *progress, int64_t *node_bytes)
{
    const gc_graph *g = x->g;
    lf_progress_counter pc;
    lf_progress_begin(&pc, progress, "reading", g->node_count);
    *node_bytes = 0;
    for (uint32_t i = 0; i < g->node_count; i++) {
        gc_node n;
        if (gc_node_read(g, i, &n, x->err))
            return -1;
        *node_bytes += n.size;
        uint64_t address = gc_node_address(g, i);
        if (!is_object(x, n.type, address))
            continue;
        int64_t cls = class_of(x, n.type);
        if (cls < 0)
            return -1;
        int rc = lf_builder_object(x->b, address, (uint32_t)cls, (uint64_t)n.size);
        if (rc)
            return lf_fail_at(x->err, g->node_offset_at + (uint64_t)i * 4, "bad .gcdump",
                              "node %u: object 0x%llx not added (%s)", i, (unsigned long long)address,
                              rc == LF_BUILDER_NOMEM       ? "out of memory"
                              : rc == LF_BUILDER_DUPLICATE ? "its address given twice"
                                                           : "too many objects");
        if (add_references(x, i, address, &n))
            return -1;
        if ((i & 0xffff) == 0)
            lf_progress_reach(&pc, i);
    }
    lf_progress_reach(&pc, g->node_count);
    return 0;
}


int gc_model_build(const gc_graph *g, const lf_progress *progress, lf_snapshot *out, lf_error *err)
{
    gc_build x = {g, lf_builder_new(), NULL, err};
    int64_t node_bytes = 0;
    int rc = !x.b ? lf_fail_nomem(err, "the snapshot builder")
                  : lf_builder_reserve(x.b, g->node_count, g->node_count) ? lf_fail_nomem(err, "the objects")
                  : make_classes(&x) || add_objects(&x, progress, &node_bytes) ||
                            gc_roots_add(g, x.b, err)
                      ? -1
                      : 0;
    if (!rc && node_bytes != g->total_size)
        rc = lf_fail_at(err, g->total_size_at, "bad .gcdump",
                        "the graph's total size says %lld bytes, its nodes add up to %lld",
                        (long long)g->total_size, (long long)node_bytes);
    free(x.class_of_type);
    if (rc) {
        lf_builder_free(x.b);
        return -1;
    }
    lf_builder_set_flags(x.b, LF_SNAP_NO_FIELD_NAMES);
    return lf_builder_finish(x.b, out, err);
}
