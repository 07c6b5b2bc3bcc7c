/* domview.c - see domview.h. */
#include "domview.h"

#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "bigmem.h"

int lf_is_synthetic(const lf_snapshot *s, uint32_t node)
{
    if (s->source_format != LF_FORMAT_V8 || s->object_shallow[node] != 0)
        return 0;
    return lf_snapshot_named_index(s, node) != UINT32_MAX;
}

static int add_entry(lf_top_view *v, size_t *cap, uint32_t node, uint32_t via)
{
    if (lf_vec_reserve((void **)&v->entry, cap, v->entry_count + 1, sizeof *v->entry))
        return -1;
    v->entry[v->entry_count++] = (lf_top_entry){node, via};
    return 0;
}

/* The super-root's children, each synthetic one replaced by its own
 * children (an explicit stack: no recursion). */
static int collect_entries(const lf_snapshot *s, int collapse, lf_top_view *v)
{
    const uint32_t n = s->object_count;
    size_t cap = 0, stack_cap = 0, depth = 0;
    uint32_t *stack = NULL;
    int rc = 0;
    for (uint32_t i = s->domtree_offset[n]; i < s->domtree_offset[n + 1] && !rc; i++) {
        uint32_t c = s->domtree_child[i];
        if (collapse && lf_is_synthetic(s, c)) {
            rc = lf_vec_reserve((void **)&stack, &stack_cap, depth + 1, sizeof *stack);
            if (!rc)
                stack[depth++] = c;
        } else {
            rc = add_entry(v, &cap, c, LF_NODE_NONE);
        }
    }
    while (depth > 0 && !rc) {
        uint32_t d = stack[--depth];
        for (uint32_t i = s->domtree_offset[d]; i < s->domtree_offset[d + 1] && !rc; i++) {
            uint32_t c = s->domtree_child[i];
            if (lf_is_synthetic(s, c)) {
                rc = lf_vec_reserve((void **)&stack, &stack_cap, depth + 1, sizeof *stack);
                if (!rc)
                    stack[depth++] = c;
            } else {
                rc = add_entry(v, &cap, c, d);
            }
        }
    }
    lf_big_free(stack);
    return rc;
}

typedef struct keyed {
    uint64_t retained;
    uint32_t kind;    /* 0: object, 1: group */
    uint32_t key;     /* node or class */
    size_t index;
} keyed;

/* Larger retained first, objects before groups, then node or class number. */
static int keyed_cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->retained != b->retained)
        return a->retained > b->retained ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* Sorts the entries largest retained first. */
static int sort_entries(const lf_snapshot *s, lf_top_view *v)
{
    keyed *k = malloc((v->entry_count + 1) * sizeof *k);
    lf_top_entry *sorted = malloc((v->entry_count + 1) * sizeof *sorted);
    if (!k || !sorted) {
        free(k);
        free(sorted);
        return -1;
    }
    for (size_t i = 0; i < v->entry_count; i++)
        k[i] = (keyed){s->retained[v->entry[i].node], 0, v->entry[i].node, i};
    qsort(k, v->entry_count, sizeof *k, keyed_cmp);
    for (size_t i = 0; i < v->entry_count; i++)
        sorted[i] = v->entry[k[i].index];
    free(k);
    lf_big_free(v->entry);
    v->entry = sorted;
    return 0;
}

static int visible_alone(const lf_snapshot *s, const lf_top_view *v, size_t rank, uint64_t top,
                         uint64_t min)
{
    return (top == 0 || rank < top) && s->retained[v->entry[rank].node] >= min;
}

/* grouped[c]: 1 when class c's entries not visible alone make one group
 * (domview.h); count[c]: how many those are. */
static uint8_t *choose_groups(const lf_snapshot *s, const lf_top_view *v, uint64_t top,
                              uint64_t min, uint32_t *count)
{
    uint64_t *sum = calloc((size_t)s->class_count + 1, sizeof *sum);
    uint8_t *grouped = calloc((size_t)s->class_count + 1, 1);
    if (!sum || !grouped) {
        free(sum);
        free(grouped);
        return NULL;
    }
    for (size_t i = 0; i < v->entry_count; i++) {
        uint32_t node = v->entry[i].node, c = s->object_class[node];
        if (!visible_alone(s, v, i, top, min)) {
            count[c]++;
            sum[c] += s->retained[node];
        }
    }
    for (uint32_t c = 0; c < s->class_count; c++)
        grouped[c] = count[c] >= 2 && sum[c] >= min;
    free(sum);
    return grouped;
}

/* Reorders the sorted entries so each group's are contiguous (still
 * largest first) and makes one row per group or ungrouped entry. */
static int make_rows(const lf_snapshot *s, lf_top_view *v, const uint8_t *grouped,
                     const uint32_t *count, uint64_t top, uint64_t min)
{
    const uint32_t classes = s->class_count;
    uint32_t *start = calloc((size_t)classes + 1, sizeof *start);
    lf_top_entry *order = malloc((v->entry_count + 1) * sizeof *order);
    v->row = malloc((v->entry_count + 1) * sizeof *v->row);
    if (!start || !order || !v->row) {
        free(start);
        free(order);
        return -1;
    }
    uint32_t at = 0;
    for (uint32_t c = 0; c < classes; c++)
        if (grouped[c]) {
            start[c] = at;
            v->row[v->row_count++] = (lf_top_row){0, c, at, count[c], 1, 0, 0};
            at += count[c];
        }
    uint32_t fill = at;
    size_t groups = v->row_count;
    for (size_t i = 0; i < v->entry_count; i++) {
        uint32_t node = v->entry[i].node, c = s->object_class[node];
        if (grouped[c] && !visible_alone(s, v, i, top, min)) {
            order[start[c]++] = v->entry[i];
        } else {
            v->row[v->row_count++] = (lf_top_row){fill, c, 0, 0,
                                                  (uint32_t)visible_alone(s, v, i, top, min),
                                                  s->object_shallow[node], s->retained[node]};
            order[fill++] = v->entry[i];
        }
    }
    for (size_t g = 0; g < groups; g++) {
        lf_top_row *r = &v->row[g];
        for (uint32_t i = r->first; i < r->first + r->count; i++) {
            r->shallow += s->object_shallow[order[i].node];
            r->retained += s->retained[order[i].node];
        }
    }
    free(start);
    lf_big_free(v->entry);
    v->entry = order;
    return 0;
}

static int sort_rows(lf_top_view *v)
{
    keyed *k = malloc((v->row_count + 1) * sizeof *k);
    lf_top_row *sorted = malloc((v->row_count + 1) * sizeof *sorted);
    if (!k || !sorted) {
        free(k);
        free(sorted);
        return -1;
    }
    for (size_t i = 0; i < v->row_count; i++) {
        const lf_top_row *r = &v->row[i];
        k[i] = r->count ? (keyed){r->retained, 1, r->cls, i}
                        : (keyed){r->retained, 0, v->entry[r->node].node, i};
    }
    qsort(k, v->row_count, sizeof *k, keyed_cmp);
    for (size_t i = 0; i < v->row_count; i++)
        sorted[i] = v->row[k[i].index];
    free(k);
    free(v->row);
    v->row = sorted;
    return 0;
}

int lf_top_view_build(const lf_snapshot *s, int collapse, int group, uint64_t top, uint64_t min,
                      lf_top_view *v)
{
    memset(v, 0, sizeof *v);
    if (collect_entries(s, collapse, v) || sort_entries(s, v))
        goto fail;
    uint32_t *count = calloc((size_t)s->class_count + 1, sizeof *count);
    uint8_t *grouped = count ? (group ? choose_groups(s, v, top, min, count)
                                      : calloc((size_t)s->class_count + 1, 1))
                             : NULL;
    int rc = grouped ? make_rows(s, v, grouped, count, top, min) : -1;
    free(count);
    free(grouped);
    if (rc || sort_rows(v))
        goto fail;
    return 0;
fail:
    lf_top_view_free(v);
    return -1;
}

void lf_top_view_free(lf_top_view *v)
{
    lf_big_free(v->entry);
    free(v->row);
    memset(v, 0, sizeof *v);
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* Class numbers sorted, run lengths taken: the LF_SUMMARY_CLASSES largest
 * runs, ties to the smaller class number. */
int lf_summarize_hidden(const lf_snapshot *s, const uint32_t *nodes, size_t count,
                        lf_hidden_summary *out)
{
    memset(out, 0, sizeof *out);
    uint32_t *cls = malloc((count + 1) * sizeof *cls);
    if (!cls)
        return -1;
    for (size_t i = 0; i < count; i++) {
        out->shallow += s->object_shallow[nodes[i]];
        out->retained += s->retained[nodes[i]];
        cls[i] = s->object_class[nodes[i]];
    }
    out->count = count;
    qsort(cls, count, sizeof *cls, cmp_u32);
    for (size_t i = 0; i < count;) {
        size_t j = i;
        while (j < count && cls[j] == cls[i])
            j++;
        uint64_t run = j - i;
        out->class_count++;
        for (unsigned k = 0; k < LF_SUMMARY_CLASSES; k++) {
            if (run <= out->cls_count[k])
                continue;
            memmove(&out->cls[k + 1], &out->cls[k], (LF_SUMMARY_CLASSES - 1 - k) * sizeof *out->cls);
            memmove(&out->cls_count[k + 1], &out->cls_count[k],
                    (LF_SUMMARY_CLASSES - 1 - k) * sizeof *out->cls_count);
            out->cls[k] = cls[i];
            out->cls_count[k] = run;
            break;
        }
        i = j;
    }
    free(cls);
    return 0;
}
