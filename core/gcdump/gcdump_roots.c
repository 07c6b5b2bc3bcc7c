/* gcdump_roots.c - GC roots from a .gcdump's synthetic nodes (docs/DOTNET.md,
 * "Roots"). The collector hangs what the runtime reports as roots under a
 * tree of bracketed nodes of address 0: [.NET Roots] > [static vars] >
 * [static var T.F] > the object, [local vars] > objects, [other roots] >
 * [strong Handles] > objects, and so on. These nodes are not objects: each
 * object one of them holds becomes a root, its kind from the nearest
 * category above it, its name from a [static var T.F] node's field F (T is
 * the type of the value the runtime reported, not the class declaring the
 * field). The tree is walked breadth first with a queue, each synthetic
 * node once. The roots are added statics first: an object several roots
 * hold is named by its first (holders.c), and a static field says where it
 * lives where a local, which the breadth-first walk meets sooner (two
 * levels down against three), says only that a frame had it at hand. */
#include "gcdump_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "../model/builder.h"

/* The root kind of the objects under a category node, by its name. */
static const char *category_kind(const char *name)
{
    static const struct {
        const char *node, *kind;
    } kinds[] = {
        {"[static vars]", "static field"},
        {"[thread static vars]", "thread static field"},
        {"[local vars]", "local"},
        {"[strong Handles]", "strong handle"},
        {"[pinning Handles]", "pinned handle"},
        {"[async pinning Handles]", "pinned handle"},
        {"[finalizer Handles]", "finalizer"},
        {"[other Handles]", "other handle"},
        {"[Dependent Handles]", "dependent handle"},
        {"[COM/WinRT Objects]", "COM/WinRT"},
        {"[other roots]", "other"},
        {"[.NET Roots]", "other"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(name, kinds[i].node))
            return kinds[i].kind;
    return NULL;
}

/* "[static var System.Collections.Generic.List<System.String>.Strings]" ->
 * "Strings": after the last '.' outside <...>. */
static int static_field_name(const char *name, const char **field, size_t *len)
{
    static const char prefix[] = "[static var ";
    static const char thread_prefix[] = "[thread static var ";
    size_t n = strlen(name);
    const char *p = !strncmp(name, prefix, sizeof prefix - 1)                 ? name + sizeof prefix - 1
                    : !strncmp(name, thread_prefix, sizeof thread_prefix - 1) ? name + sizeof thread_prefix - 1
                                                                               : NULL;
    if (!p || name[n - 1] != ']')
        return 0;
    const char *end = name + n - 1, *dot = NULL;
    int depth = 0;
    for (const char *q = p; q < end; q++) {
        if (*q == '<')
            depth++;
        else if (*q == '>' && depth > 0)
            depth--;
        else if (*q == '.' && depth == 0)
            dot = q;
    }
    *field = dot ? dot + 1 : p;
    *len = (size_t)(end - *field);
    return 1;
}

typedef struct pending {
    uint32_t node;
    uint32_t kind, name; /* builder strings of the roots below it */
    uint32_t statics;    /* below [static vars] or [thread static vars] */
} pending;

/* A root found, added once the walk ends (statics first). */
typedef struct found_root {
    uint64_t id;
    uint32_t kind, name, statics;
} found_root;

typedef struct roots_walk {
    const gc_graph *g;
    lf_builder *b;
    const gc_ranks *ranks;
    uint8_t *seen; /* synthetic nodes queued */
    pending *queue;
    size_t head, tail;
    found_root *found;
    size_t found_count, found_cap;
    uint32_t empty;
    lf_error *err;
} roots_walk;

static int64_t string_of(roots_walk *w, const char *s, size_t len)
{
    int64_t i = lf_builder_string(w->b, s, len);
    if (i < 0)
        lf_fail(w->err, LF_ERR_SYSTEM, "out of memory for the .gcdump roots");
    return i;
}

/* A synthetic child: queued with the kind and name of the roots below it. */
static int queue_synthetic(roots_walk *w, const pending *parent, uint32_t child, const char *name)
{
    if (w->seen[child])
        return 0;
    w->seen[child] = 1;
    pending next = {child, parent->kind, parent->name, parent->statics};
    const char *kind = category_kind(name), *field;
    size_t field_len;
    int64_t s;
    if (kind) {
        if ((s = string_of(w, kind, strlen(kind))) < 0)
            return -1;
        next.kind = (uint32_t)s;
        next.name = w->empty;
        next.statics = strstr(kind, "static field") != NULL;
    } else if (static_field_name(name, &field, &field_len)) {
        if ((s = string_of(w, field, field_len)) < 0)
            return -1;
        next.name = (uint32_t)s;
    }
    w->queue[w->tail++] = next;
    return 0;
}

static int visit(roots_walk *w, const pending *p)
{
    gc_node n;
    if (gc_node_read(w->g, p->node, &n, w->err))
        return -1;
    for (uint32_t k = 0; k < n.child_count; k++) {
        uint32_t child;
        gc_node c;
        if (gc_next_child(w->g, p->node, &n, &child, w->err) || gc_node_read(w->g, child, &c, w->err))
            return -1;
        int64_t id = gc_target_id(w->g, w->ranks, child);
        if (gc_node_address(w->g, child) == 0 && !gc_type_is_undefined(w->g, c.type)) {
            if (queue_synthetic(w, p, child, w->g->type[c.type].name))
                return -1;
        } else if (id >= 0) {
            if (lf_vec_reserve((void **)&w->found, &w->found_cap, w->found_count + 1, sizeof *w->found))
                return lf_fail(w->err, LF_ERR_SYSTEM, "out of memory for the .gcdump roots");
            w->found[w->found_count++] = (found_root){(uint64_t)id, p->kind, p->name, p->statics};
        }
    }
    return 0;
}

int gc_roots_add(const gc_graph *g, lf_builder *b, const gc_ranks *ranks, lf_error *err)
{
    roots_walk w = {g, b, ranks, calloc((size_t)g->node_count + 1, 1),
                    malloc(((size_t)g->node_count + 1) * sizeof(pending)), 0, 0, NULL, 0, 0, 0, err};
    int64_t empty = lf_builder_string(b, "", 0), other = lf_builder_string(b, "other", 5);
    int rc = 0;
    if (!w.seen || !w.queue || empty < 0 || other < 0) {
        rc = lf_fail_nomem(err, "the .gcdump roots");
    } else {
        w.empty = (uint32_t)empty;
        w.seen[g->root] = 1;
        w.queue[w.tail++] = (pending){g->root, (uint32_t)other, (uint32_t)empty, 0};
        while (w.head < w.tail && !rc)
            rc = visit(&w, &w.queue[w.head++]);
    }
    for (int pass = 0; pass < 2 && !rc; pass++) /* statics, then the rest */
        for (size_t i = 0; i < w.found_count && !rc; i++)
            if (w.found[i].statics == (pass == 0) &&
                lf_builder_root(b, w.found[i].id, w.found[i].kind, w.found[i].name))
                rc = lf_fail(err, LF_ERR_SYSTEM, "out of memory for the .gcdump roots");
    free(w.seen);
    free(w.queue);
    lf_big_free(w.found);
    return rc;
}
