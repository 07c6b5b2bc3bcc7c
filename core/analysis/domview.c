/* domview.c - see domview.h. */
#include "domview.h"

#include <stdlib.h>
#include <string.h>

#include "topcursor.h"

uint64_t lf_view_min(const lf_snapshot *s)
{
    /* as `--min 0.1%` reads it (cli_parse_size), to the byte */
    return (uint64_t)(0.1 * (double)s->reachable_shallow / 100.0 + 0.5);
}

int lf_is_synthetic(const lf_snapshot *s, uint32_t node)
{
    if (s->source_format != LF_FORMAT_V8 || lf_snapshot_shallow(s, node) != 0)
        return 0;
    return lf_snapshot_named_index(s, node) != UINT32_MAX;
}

/* Per class, the top-level entries not visible alone: how many, and their
 * bytes. */
typedef struct class_tally {
    uint32_t *count;
    uint64_t *shallow, *retained;
    uint32_t *next, *end;    /* a group's slots in view.entry while filling */
} class_tally;

static void tally_free(class_tally *t)
{
    free(t->count);
    free(t->shallow);
    free(t->retained);
    free(t->next);
    free(t->end);
}

static int tally_alloc(class_tally *t, uint32_t classes)
{
    size_t n = (size_t)classes + 1;
    t->count = calloc(n, sizeof *t->count);
    t->shallow = calloc(n, sizeof *t->shallow);
    t->retained = calloc(n, sizeof *t->retained);
    t->next = calloc(n, sizeof *t->next);
    t->end = calloc(n, sizeof *t->end);
    return t->count && t->shallow && t->retained && t->next && t->end ? 0 : -1;
}

static int visible_alone(const lf_snapshot *s, size_t rank, uint32_t node, uint64_t top, uint64_t min)
{
    return (top == 0 || rank < top) && lf_snapshot_retained(s, node) >= min;
}

/* Pass 1: how many entries are visible alone (a prefix: retained only
 * falls along the order), and the tally of the others. */
static size_t tally_rest(lf_top_cursor *c, uint64_t top, uint64_t min, class_tally *t)
{
    const lf_snapshot *s = c->s;
    size_t rank = 0, alone = 0;
    lf_top_entry e;
    for (; lf_top_cursor_next(c, &e); rank++) {
        uint32_t cls = s->object_class[e.node];
        if (visible_alone(s, rank, e.node, top, min)) {
            alone++;
            continue;
        }
        t->count[cls]++;
        t->shallow[cls] += lf_snapshot_shallow(s, e.node);
        t->retained[cls] += lf_snapshot_retained(s, e.node);
    }
    return alone;
}

/* A row per group (domview.h: at least two entries not visible alone that
 * together retain --min), its slots after the alone entries; the other
 * classes go to the hidden summary. Returns the entries to hold. */
static size_t choose_groups(const lf_snapshot *s, int group, uint64_t top, uint64_t min,
                            size_t alone, class_tally *t, lf_top_row *groups, size_t *group_count,
                            lf_hidden_summary *hidden)
{
    size_t at = alone;
    *group_count = 0;
    for (uint32_t c = 0; c < s->class_count; c++) {
        if (t->count[c] == 0)
            continue;
        if (group && t->count[c] >= 2 && t->retained[c] >= min) {
            uint32_t kept = top && t->count[c] > top ? (uint32_t)top : t->count[c];
            groups[(*group_count)++] = (lf_top_row){0, c, (uint32_t)at, t->count[c], kept,
                                                    t->shallow[c], t->retained[c]};
            t->next[c] = (uint32_t)at;
            t->end[c] = (uint32_t)(at + kept);
            at += kept;
        } else {
            hidden->count += t->count[c];
            hidden->shallow += t->shallow[c];
            hidden->retained += t->retained[c];
            lf_summary_add_class(hidden, c, t->count[c]);
        }
    }
    return at;
}

/* Pass 2: the alone entries in order, then each group's largest members in
 * its slots; stops once every slot is filled. */
static void fill_entries(lf_top_cursor *c, size_t alone, size_t total, class_tally *t,
                         lf_top_entry *entry)
{
    size_t rank = 0, filled = alone;
    lf_top_entry e;
    lf_top_cursor_rewind(c);
    while ((rank < alone || filled < total) && lf_top_cursor_next(c, &e)) {
        if (rank < alone) {
            entry[rank++] = e;
            continue;
        }
        uint32_t cls = c->s->object_class[e.node];
        if (t->next[cls] < t->end[cls]) {
            entry[t->next[cls]++] = e;
            filled++;
        }
    }
}

/* Larger retained first, objects before groups, then node or class number. */
static int row_before(const lf_top_view *v, const lf_top_row *a, const lf_top_row *b)
{
    if (a->retained != b->retained)
        return a->retained > b->retained;
    if ((a->count != 0) != (b->count != 0))
        return a->count == 0;
    uint32_t ka = a->count ? a->cls : v->entry[a->node].node;
    uint32_t kb = b->count ? b->cls : v->entry[b->node].node;
    return ka < kb;
}

static const lf_top_view *sort_view;

static int group_cmp(const void *pa, const void *pb)
{
    return row_before(sort_view, pa, pb) ? -1 : row_before(sort_view, pb, pa);
}

/* The alone rows (in order already) merged with the group rows, sorted. */
static void make_rows(const lf_snapshot *s, lf_top_view *v, size_t alone, lf_top_row *groups,
                      size_t group_count)
{
    sort_view = v;
    qsort(groups, group_count, sizeof *groups, group_cmp);
    size_t i = 0, g = 0;
    while (i < alone || g < group_count) {
        lf_top_row one = {0};
        if (i < alone) {
            uint32_t node = v->entry[i].node;
            one = (lf_top_row){(uint32_t)i, s->object_class[node], 0, 0, 0, lf_snapshot_shallow(s, node),
                               lf_snapshot_retained(s, node)};
        }
        if (g < group_count && (i == alone || row_before(v, &groups[g], &one)))
            v->row[v->row_count++] = groups[g++];
        else
            v->row[v->row_count++] = one, i++;
    }
}

/* --top counts rows, groups included (issue 47: 20 asked, 40 shown): the
 * rows past it join the summary row. */
static void keep_top_rows(lf_top_view *v, uint64_t top)
{
    for (size_t r = top; top && r < v->row_count; r++) {
        const lf_top_row *x = &v->row[r];
        uint64_t count = x->count ? x->count : 1;
        v->hidden.count += count;
        v->hidden.shallow += x->shallow;
        v->hidden.retained += x->retained;
        lf_summary_add_class(&v->hidden, x->cls, count);
    }
    if (top && v->row_count > top)
        v->row_count = top;
}

int lf_top_view_build(const lf_snapshot *s, int collapse, int group, uint64_t top, uint64_t min,
                      lf_top_view *v)
{
    memset(v, 0, sizeof *v);
    lf_top_cursor c;
    class_tally t = {0};
    lf_top_row *groups = NULL;
    if (lf_top_cursor_open(&c, s, collapse))
        return -1;
    int rc = -1;
    if (tally_alloc(&t, s->class_count))
        goto out;
    size_t alone = tally_rest(&c, top, min, &t), group_count = 0;
    groups = malloc(((size_t)s->class_count + 1) * sizeof *groups);
    if (!groups)
        goto out;
    size_t total = choose_groups(s, group, top, min, alone, &t, groups, &group_count, &v->hidden);
    v->entry = malloc((total + 1) * sizeof *v->entry);
    v->row = malloc((alone + group_count + 1) * sizeof *v->row);
    if (!v->entry || !v->row)
        goto out;
    v->entry_count = total;
    fill_entries(&c, alone, total, &t, v->entry);
    make_rows(s, v, alone, groups, group_count);
    keep_top_rows(v, top);
    rc = 0;
out:
    free(groups);
    tally_free(&t);
    lf_top_cursor_close(&c);
    if (rc)
        lf_top_view_free(v);
    return rc;
}

void lf_top_view_free(lf_top_view *v)
{
    free(v->entry);
    free(v->row);
    memset(v, 0, sizeof *v);
}

void lf_summary_add_class(lf_hidden_summary *out, uint32_t cls, uint64_t count)
{
    out->class_count++;
    for (unsigned k = 0; k < LF_SUMMARY_CLASSES; k++) {
        if (count <= out->cls_count[k])
            continue;
        memmove(&out->cls[k + 1], &out->cls[k], (LF_SUMMARY_CLASSES - 1 - k) * sizeof *out->cls);
        memmove(&out->cls_count[k + 1], &out->cls_count[k],
                (LF_SUMMARY_CLASSES - 1 - k) * sizeof *out->cls_count);
        out->cls[k] = cls;
        out->cls_count[k] = count;
        return;
    }
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
        out->shallow += lf_snapshot_shallow(s, nodes[i]);
        out->retained += lf_snapshot_retained(s, nodes[i]);
        cls[i] = s->object_class[nodes[i]];
    }
    out->count = count;
    qsort(cls, count, sizeof *cls, cmp_u32);
    for (size_t i = 0; i < count;) {
        size_t j = i;
        while (j < count && cls[j] == cls[i])
            j++;
        lf_summary_add_class(out, cls[i], j - i);
        i = j;
    }
    free(cls);
    return 0;
}
