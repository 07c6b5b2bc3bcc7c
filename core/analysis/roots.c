/* roots.c - per-root and per-kind retained sizes. A root's object is a child
 * of the super-root in the dominator tree, or (V8) of a synthetic node that
 * only other roots reach, so its retained size is what that root alone keeps
 * alive. */
#include "roots.h"

#include <stdlib.h>
#include <string.h>

static const lf_snapshot *sorting;
static const lf_root_row *sorting_rows;

/* On a V8 snapshot the named nodes (lf_snapshot_named_index) are exactly
 * its synthetic ones. */

static int push_row(lf_root_row **rows, size_t *count, size_t *cap, lf_root_row row)
{
    if (*count == *cap) {
        size_t want = *cap ? *cap * 2 : 64;
        lf_root_row *grown = realloc(*rows, want * sizeof *grown);
        if (!grown)
            return -1;
        *rows = grown, *cap = want;
    }
    (*rows)[(*count)++] = row;
    return 0;
}

/* A V8 root that is a synthetic node: its synthetic levels breadth first
 * (a queue of named indices; each level once), a row per retaining edge
 * into a real object. The top (root)'s own real children are the global
 * objects V8 hangs there. */
static int expand_synthetic(const lf_snapshot *s, uint32_t start, uint8_t *seen, uint32_t *queue,
                            lf_root_row **rows, size_t *count, size_t *cap)
{
    size_t head = 0, tail = 0;
    uint32_t first = lf_snapshot_named_index(s, start);
    if (seen[first])
        return 0;
    seen[first] = 1;
    queue[tail++] = first;
    while (head < tail) {
        uint32_t level = queue[head++], u = s->named_node[level];
        for (uint64_t e = lf_snapshot_edges_begin(s, u); e < lf_snapshot_edges_end(s, u); e++) {
            uint32_t target = s->edge_target[e];
            if (lf_edge_is_weak(target))
                continue; /* a weak root, or one DevTools' rules do not count */
            uint32_t t = lf_edge_node(target), named = lf_snapshot_named_index(s, t);
            if (named != UINT32_MAX) {
                if (!seen[named]) {
                    seen[named] = 1;
                    queue[tail++] = named;
                }
                continue;
            }
            uint32_t kind = u == start ? LF_ROOT_KIND_GLOBAL : s->named_string[level];
            if (push_row(rows, count, cap, (lf_root_row){t, kind, 0, e}))
                return -1;
        }
    }
    return 0;
}

int lf_is_global_object(const lf_snapshot *s, uint32_t node)
{
    if (s->source_format != LF_FORMAT_V8 || s->named_count == 0 || lf_snapshot_named_index(s, node) != UINT32_MAX)
        return 0;
    for (uint32_t r = 0; r < s->root_count; r++) {
        uint32_t u = s->root[r].node;
        if (lf_snapshot_named_index(s, u) == UINT32_MAX)
            continue;
        for (uint64_t e = lf_snapshot_edges_begin(s, u); e < lf_snapshot_edges_end(s, u); e++)
            if (!lf_edge_is_weak(s->edge_target[e]) && lf_edge_node(s->edge_target[e]) == node)
                return 1;
    }
    return 0;
}

int64_t lf_root_rows(const lf_snapshot *s, lf_root_row **rows, lf_error *err)
{
    lf_root_row *out = NULL;
    size_t count = 0, cap = 0;
    int v8 = s->source_format == LF_FORMAT_V8 && s->named_count > 0;
    uint8_t *seen = v8 ? calloc(s->named_count, 1) : NULL;
    uint32_t *queue = v8 ? malloc((size_t)s->named_count * sizeof *queue) : NULL;
    int rc = v8 && (!seen || !queue) ? -1 : 0;
    for (uint32_t r = 0; rc == 0 && r < s->root_count; r++) {
        const lf_root *root = &s->root[r];
        if (v8 && lf_snapshot_named_index(s, root->node) != UINT32_MAX)
            rc = expand_synthetic(s, root->node, seen, queue, &out, &count, &cap);
        else
            rc = push_row(&out, &count, &cap, (lf_root_row){root->node, root->kind, root->name, LF_ROOT_NO_EDGE});
    }
    free(seen);
    free(queue);
    if (rc) {
        free(out);
        return lf_fail_nomem(err, "listing roots");
    }
    if (!out && !(out = malloc(sizeof *out)))
        return lf_fail_nomem(err, "listing roots");
    *rows = out;
    return (int64_t)count;
}

lf_str lf_root_row_kind(const lf_snapshot *s, const lf_root_row *row)
{
    if (row->kind == LF_ROOT_KIND_GLOBAL)
        return (lf_str){"global object", 13};
    if (row->kind == LF_ROOT_KIND_SHARED)
        return (lf_str){"several roots", 13};
    return lf_snapshot_string(s, row->kind);
}

lf_str lf_root_row_name(const lf_snapshot *s, const lf_root_row *row, char *buf, size_t size)
{
    if (row->edge == LF_ROOT_NO_EDGE)
        return lf_snapshot_string(s, row->name);
    if (row->kind == LF_ROOT_KIND_GLOBAL || row->kind == LF_ROOT_KIND_SHARED)
        return (lf_str){"", 0}; /* V8 numbers these edges: nothing to read */
    size_t len = lf_snapshot_edge_label(s, row->edge, buf, size);
    return (lf_str){buf, len < size ? len : size - 1};
}

static int str_cmp(lf_str a, lf_str b)
{
    int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int by_kind_then_node(const void *a, const void *b)
{
    const lf_root_row *x = &sorting_rows[*(const uint32_t *)a], *y = &sorting_rows[*(const uint32_t *)b];
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

static int by_retained(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t x = lf_snapshot_retained(sorting, sorting_rows[i].node);
    uint64_t y = lf_snapshot_retained(sorting, sorting_rows[j].node);
    if (x != y)
        return x > y ? -1 : 1;
    return i < j ? -1 : i > j;
}

static int by_total(const void *a, const void *b)
{
    const lf_root_kind_total *x = a, *y = b;
    if (x->retained != y->retained)
        return x->retained > y->retained ? -1 : 1;
    lf_root_row rx = {0, x->kind, 0, 0}, ry = {0, y->kind, 0, 0};
    return str_cmp(lf_root_row_kind(sorting, &rx), lf_root_row_kind(sorting, &ry));
}

/* The order of rows under cmp, as row indices. */
static uint32_t *sorted_order(const lf_snapshot *s, const lf_root_row *rows, uint64_t count,
                              int (*cmp)(const void *, const void *))
{
    uint32_t *o = malloc(((size_t)count + 1) * sizeof *o);
    if (!o)
        return NULL;
    for (uint64_t r = 0; r < count; r++)
        o[r] = (uint32_t)r;
    sorting = s;
    sorting_rows = rows;
    qsort(o, (size_t)count, sizeof *o, cmp);
    return o;
}

int lf_roots_by_retained(const lf_snapshot *s, lf_root_row *rows, uint64_t count, lf_error *err)
{
    uint32_t *o = sorted_order(s, rows, count, by_retained);
    lf_root_row *copy = malloc(((size_t)count + 1) * sizeof *copy);
    if (!o || !copy) {
        free(o);
        free(copy);
        return lf_fail_nomem(err, "sorting roots");
    }
    for (uint64_t i = 0; i < count; i++)
        copy[i] = rows[o[i]];
    memcpy(rows, copy, (size_t)count * sizeof *rows);
    free(o);
    free(copy);
    return 0;
}

int64_t lf_root_kind_totals(const lf_snapshot *s, lf_root_row *rows, uint64_t count,
                            lf_root_kind_total **totals, lf_error *err)
{
    uint32_t *o = sorted_order(s, rows, count, by_kind_then_node);
    lf_root_kind_total *t = malloc(((size_t)count + 1) * sizeof *t);
    if (!o || !t) {
        free(o);
        free(t);
        return lf_fail_nomem(err, "root totals");
    }
    int64_t kinds = 0;
    for (uint64_t i = 0; i < count; i++) {
        const lf_root_row *r = &rows[o[i]], *prev = i ? &rows[o[i - 1]] : NULL;
        if (!prev || r->kind != prev->kind)
            t[kinds++] = (lf_root_kind_total){r->kind, 0, 0, 0};
        lf_root_kind_total *k = &t[kinds - 1];
        k->roots++;
        if (!prev || r->kind != prev->kind || r->node != prev->node) {
            k->objects++; /* an object named twice by one kind counts once */
            k->retained += lf_snapshot_retained(s, r->node);
        }
    }
    free(o);
    sorting = s;
    qsort(t, (size_t)kinds, sizeof *t, by_total);
    *totals = t;
    return kinds;
}

static int same_root(const lf_snapshot *s, const lf_root_row *x, const lf_root_row *y)
{
    char bx[256], by[256];
    return x->node == y->node && x->kind == y->kind &&
           str_cmp(lf_root_row_name(s, x, bx, sizeof bx), lf_root_row_name(s, y, by, sizeof by)) == 0;
}

/* Rows by object, kind and name (text), to find repeats. */
static int by_identity(const void *a, const void *b)
{
    const lf_root_row *x = &sorting_rows[*(const uint32_t *)a], *y = &sorting_rows[*(const uint32_t *)b];
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    char bx[256], by[256];
    int c = str_cmp(lf_root_row_name(sorting, x, bx, sizeof bx), lf_root_row_name(sorting, y, by, sizeof by));
    if (c)
        return c;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

int64_t lf_roots_folded(const lf_snapshot *s, lf_root_row *rows, uint64_t count, uint32_t **repeats,
                        lf_error *err)
{
    if (lf_roots_by_retained(s, rows, count, err))
        return -1;
    uint32_t *o = sorted_order(s, rows, count, by_identity);
    uint32_t *n = calloc((size_t)count + 1, sizeof *n);
    if (!o || !n) {
        free(o);
        free(n);
        return lf_fail_nomem(err, "folding roots");
    }
    /* the first of each run (the lowest index: by retained) stands for it */
    for (uint64_t i = 0, first = 0; i < count; i++) {
        if (i == 0 || !same_root(s, &rows[o[first]], &rows[o[i]]))
            first = i;
        n[o[first]]++;
    }
    uint64_t kept = 0;
    for (uint64_t i = 0; i < count; i++)
        if (n[i]) {
            rows[kept] = rows[i];
            n[kept++] = n[i];
        }
    free(o);
    *repeats = n;
    return (int64_t)kept;
}

int lf_roots_at_top(const lf_snapshot *s, uint32_t v)
{
    uint32_t d = s->idom[v];
    return d == LF_NODE_SUPER || (s->source_format == LF_FORMAT_V8 && s->named_count && d < s->object_count &&
                                  lf_snapshot_named_index(s, d) != UINT32_MAX);
}

int64_t lf_roots_add_shared(const lf_snapshot *s, lf_root_row **rows, uint64_t count, uint64_t least,
                            lf_error *err)
{
    uint64_t *named = calloc(((size_t)s->object_count + 63) / 64 + 1, sizeof *named);
    if (!named)
        return lf_fail_nomem(err, "roots");
    for (uint64_t r = 0; r < count; r++)
        if ((*rows)[r].node < s->object_count)
            named[(*rows)[r].node >> 6] |= 1ull << ((*rows)[r].node & 63);
    size_t n = (size_t)count, cap = (size_t)count;
    int rc = 0;
    for (uint32_t v = 0; v < s->object_count && rc == 0; v++) {
        if (!lf_roots_at_top(s, v) || (named[v >> 6] >> (v & 63) & 1) || lf_snapshot_retained(s, v) < least ||
            (s->named_count && lf_snapshot_named_index(s, v) != UINT32_MAX))
            continue; /* V8's synthetic levels are no objects */
        rc = push_row(rows, &n, &cap, (lf_root_row){v, LF_ROOT_KIND_SHARED, 0, LF_ROOT_NO_EDGE});
    }
    free(named);
    return rc ? lf_fail_nomem(err, "roots") : (int64_t)n;
}
