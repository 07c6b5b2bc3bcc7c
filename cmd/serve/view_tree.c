/* view_tree.c - /api/children: one node's children in the dominator tree,
 * a page at a time (MAT's dominator tree, DevTools' Containment), largest
 * retained first, or by shallow size or class; filtered by a text in the
 * label; grouped by class (MAT's "group by class"); and below a collection
 * (docs/COLLECTIONS.md) its members, looking through buckets and chains, as
 * `dominators` shows them. The children are read where the tree keeps them;
 * a copy is made only to filter or sort, so a node with millions of
 * children pages as quickly as one with ten.
 *
 * Arguments: snap, id (an object id, or "root"), from, count, sort
 * (retained, shallow, class), filter, group=class, cls (one class's
 * children), raw=1 (a collection's own children, not its members). */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/collections.h"
#include "../../core/model/edge_batch.h"
#include "serve.h"

typedef struct child_list {
    const uint32_t *node;      /* node space */
    const uint32_t *via;       /* the top level: the synthetic node each hangs under */
    size_t count;
    uint32_t *owned;           /* node when a copy was made */
    const lf_collection_members *set; /* a collection's members: kept, or own */
    lf_collection_members own;
    int collection;
} child_list;

typedef struct page_args {
    uint64_t from, count;
    const char *sort, *filter, *group;
    uint32_t cls;              /* class space; UINT32_MAX: any */
    int raw;
} page_args;

static int read_page_args(const serve_snapshot *snap, const serve_request *rq, page_args *p, serve_fail *fail)
{
    memset(p, 0, sizeof *p);
    p->cls = UINT32_MAX;
    if (serve_arg_page(rq, &p->from, &p->count, fail))
        return -1;
    p->sort = serve_arg_text(rq, "sort");
    p->filter = serve_arg_text(rq, "filter");
    p->group = serve_arg_text(rq, "group");
    p->raw = serve_arg_text(rq, "raw") != NULL;
    if (p->sort && strcmp(p->sort, "retained") && strcmp(p->sort, "shallow") && strcmp(p->sort, "class"))
        return serve_failf(fail, 400, "sort is retained, shallow or class, not '%.40s'", p->sort);
    if (p->group && strcmp(p->group, "class") && *p->group)
        return serve_failf(fail, 400, "group is class, not '%.40s'", p->group);
    if (p->group && !*p->group)
        p->group = NULL;
    if (serve_arg_text(rq, "cls") && serve_arg_class(snap, rq, "cls", &p->cls, fail))
        return -1;
    return 0;
}

/* The children as the tree keeps them, or a collection's members; the top
 * level as `dominators` shows it (V8's synthetic nodes skipped) unless raw. */
static int gather(serve_snapshot *snap, uint32_t node, int raw, child_list *c)
{
    const lf_snapshot *s = &snap->s;
    memset(c, 0, sizeof *c);
    if (node == LF_NODE_SUPER && !raw) {
        c->node = snap->top;
        c->via = snap->top_via;
        c->count = snap->top_count;
        return 0;
    }
    int collection = node != LF_NODE_SUPER && !raw ? serve_members(snap, node, &c->own, &c->set) : 0;
    if (collection < 0)
        return -1;
    if (collection) {
        c->collection = 1;
        c->node = c->set->payload;
        c->count = c->set->payload_count;
        return 0;
    }
    uint32_t slot = node == LF_NODE_SUPER ? s->object_count : node;
    c->node = s->domtree_child + s->domtree_offset[slot];
    c->count = s->domtree_offset[slot + 1] - s->domtree_offset[slot];
    return 0;
}

static void child_list_free(child_list *c)
{
    free(c->owned);
    lf_collection_members_free(&c->own);
}

/* Keeps the children of class cls whose label has filter; -1 (memory). */
static int keep_matching(const lf_snapshot *s, child_list *c, uint32_t cls, const char *filter)
{
    if (cls == UINT32_MAX && (!filter || !*filter))
        return 0;
    uint32_t *kept = malloc((c->count + 1) * sizeof *kept);
    if (!kept)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < c->count; i++) {
        uint32_t v = c->node[i];
        if ((cls == UINT32_MAX || s->object_class[v] == cls) && serve_matches(lf_snapshot_object_label(s, v), filter))
            kept[n++] = v;
    }
    free(c->owned);
    c->owned = kept;
    c->node = kept;
    c->via = NULL;
    c->count = n;
    return 0;
}

static int by_shallow(const void *pa, const void *pb, void *ctx)
{
    const lf_snapshot *s = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    uint64_t x = lf_snapshot_shallow(s, a), y = lf_snapshot_shallow(s, b);
    return x != y ? (x > y ? -1 : 1) : (a < b ? -1 : a > b);
}

static int by_class(const void *pa, const void *pb, void *ctx)
{
    const lf_snapshot *s = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    lf_str x = lf_snapshot_object_label(s, a), y = lf_snapshot_object_label(s, b);
    int c = memcmp(x.ptr, y.ptr, x.len < y.len ? x.len : y.len);
    if (c || x.len != y.len)
        return c ? c : x.len < y.len ? -1 : 1;
    return by_shallow(pa, pb, ctx);
}

/* Another order than the tree's (largest retained first); -1 (memory). */
static int sort_children(const lf_snapshot *s, child_list *c, const char *sort)
{
    if (!sort || strcmp(sort, "retained") == 0)
        return 0;
    if (!c->owned) {
        uint32_t *copy = malloc((c->count + 1) * sizeof *copy);
        if (!copy)
            return -1;
        if (c->count) /* an empty collection's node is NULL: no memcpy from it */
            memcpy(copy, c->node, c->count * sizeof *copy);
        c->owned = copy;
        c->node = copy;
        c->via = NULL;
    }
    qsort_r(c->owned, c->count, sizeof *c->owned, strcmp(sort, "class") == 0 ? by_class : by_shallow, (void *)s);
    return 0;
}

/* The field each row's dominator holds it by: one batch for the page, so
 * a page of a huge array reads the array's edges once. */
/* top_first: the rows are top entries top_first... (snap->top), whose
 * texts say what holds them; -1: rows below an object. */
static int write_rows(FILE *f, serve_snapshot *snap, const uint32_t *node, int64_t top_first, size_t count)
{
    const lf_snapshot *s = &snap->s;
    lf_edge_question *q = malloc((count + 1) * sizeof *q);
    lf_edge_answer *a = malloc((count + 1) * sizeof *a);
    const int top = top_first >= 0;
    const char **root = top ? calloc(count + 1, sizeof *root) : NULL;
    int rc = q && a && (root || !top) ? 0 : -1;
    size_t asked = 0;
    for (size_t i = 0; rc == 0 && i < count; i++)
        if (!top && s->idom[node[i]] < s->object_count)
            q[asked++] = (lf_edge_question){s->idom[node[i]], node[i]};
    if (rc == 0 && (lf_edge_batch_answer(s, q, asked, a) || (top && serve_top_texts(snap, (uint32_t)top_first, (uint32_t)count, root))))
        rc = -1;
    fputs("[", f);
    for (size_t i = 0, k = 0; rc == 0 && i < count; i++) {
        uint32_t v = node[i];
        fputs(i ? ",\n{\"object\":" : "\n{\"object\":", f);
        serve_json_object(f, s, v);
        if (top) {
            fputs(",\"root\":", f);
            serve_json_cstr(f, root[i] ? root[i] : "");
        } else if (s->idom[v] < s->object_count) {
            lf_edge_answer ans = a[k++];
            char label[1024];
            size_t n = ans.flags & LF_HOP_FOUND ? lf_snapshot_label_text(s, ans.kind, ans.label, label, sizeof label) : 0;
            fputs(",\"field\":", f);
            serve_json_str(f, label, n);
        } else {
            serve_json_root_of(f, snap, v);
        }
        fputs("}", f);
    }
    fputs("]", f);
    free(root), free(q), free(a);
    return rc;
}

typedef struct class_group {
    uint32_t cls;
    uint64_t count, shallow, retained;
} class_group;

static int by_group_retained(const void *pa, const void *pb)
{
    const class_group *a = pa, *b = pb;
    if (a->retained != b->retained)
        return a->retained > b->retained ? -1 : 1;
    return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* The children by class, largest retained first (siblings share nothing:
 * their retained sizes add up). */
static int write_groups(FILE *f, const lf_snapshot *s, const child_list *c, const page_args *p, size_t *total)
{
    class_group *g = calloc((size_t)s->class_count + 1, sizeof *g);
    if (!g)
        return -1;
    for (size_t i = 0; i < c->count; i++) {
        class_group *x = &g[s->object_class[c->node[i]]];
        x->count++;
        x->shallow += lf_snapshot_shallow(s, c->node[i]);
        x->retained += lf_snapshot_retained(s, c->node[i]);
    }
    size_t n = 0;
    for (uint32_t k = 0; k < s->class_count; k++)
        if (g[k].count)
            g[n] = g[k], g[n++].cls = k;
    qsort(g, n, sizeof *g, by_group_retained);
    fputs("[", f);
    for (size_t i = p->from; i < n && i < p->from + p->count; i++) {
        lf_str name = lf_snapshot_class_name(s, g[i].cls);
        fprintf(f, "%s\n{\"cls\":%u,\"label\":", i > p->from ? "," : "", g[i].cls);
        serve_json_str(f, name.ptr, name.len);
        fprintf(f, ",\"count\":%llu,\"shallow\":%llu,\"retained\":%llu}", (unsigned long long)g[i].count,
                (unsigned long long)g[i].shallow, (unsigned long long)g[i].retained);
    }
    fputs("]", f);
    *total = n;
    free(g);
    return 0;
}

/* A collection's own objects (entries, links, arrays) by class. */
static void write_structure(FILE *f, const lf_snapshot *s, const child_list *c)
{
    fprintf(f, ",\"collection\":{\"members\":%zu,\"structure\":[", c->count);
    for (size_t i = 0; i < c->set->group_count; i++) {
        const lf_class_group *g = &c->set->group[i];
        lf_str name = lf_snapshot_class_name(s, g->cls);
        fputs(i ? ",{\"label\":" : "{\"label\":", f);
        serve_json_str(f, name.ptr, name.len);
        fprintf(f, ",\"count\":%llu,\"shallow\":%llu}", (unsigned long long)g->count, (unsigned long long)g->shallow);
    }
    fputs("]}", f);
}

static int write_answer(FILE *f, serve_snapshot *snap, uint32_t node, const child_list *c, const page_args *p)
{
    const lf_snapshot *s = &snap->s;
    fputs("{\"parent\":", f);
    if (node == LF_NODE_SUPER)
        fputs("null", f);
    else
        serve_json_object(f, s, node);
    fprintf(f, ",\"from\":%llu", (unsigned long long)p->from);
    if (c->collection)
        write_structure(f, s, c);
    int rc;
    size_t total = c->count;
    if (p->group) {
        fputs(",\"groups\":", f);
        rc = write_groups(f, s, c, p, &total);
    } else {
        size_t from = p->from < c->count ? p->from : c->count;
        size_t n = c->count - from < p->count ? c->count - from : p->count;
        fputs(",\"rows\":", f);
        /* a collection without members has no array at all: no offset
         * into NULL (undefined, fuzz_serve found it) */
        rc = write_rows(f, snap, n ? c->node + from : c->node, c->via && n ? (int64_t)from : -1, n);
    }
    fprintf(f, ",\"total\":%zu}\n", total);
    return rc;
}

int serve_view_children(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint32_t node;
    page_args p;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_node(snap, rq, "id", 1, &node, fail) ||
        read_page_args(snap, rq, &p, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    if (node != LF_NODE_SUPER && s->idom[node] == LF_NODE_NONE)
        return serve_failf(fail, 404, "that object is unreachable: it has no place in the dominator tree");
    child_list c;
    int rc = gather(snap, node, p.raw, &c);
    rc = rc ? rc : keep_matching(s, &c, p.cls, p.filter);
    rc = rc ? rc : sort_children(s, &c, p.sort);
    rc = rc ? rc : write_answer(out, snap, node, &c, &p);
    child_list_free(&c);
    return rc ? serve_failf(fail, 500, "out of memory") : 0;
}
