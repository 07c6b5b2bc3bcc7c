/* owner_growth.c - see owner_growth.h. */
#include "owner_growth.h"

#include <stdlib.h>

#include "../../core/analysis/owners.h"
#include "../../core/base/bigmem.h"
#include "cli.h"

static const lf_owner_table *sorting_owners;

static int64_t owner_growth(const lf_owner *o)
{
    return (int64_t)(o->objects[1] - o->objects[0]);
}

static int by_owner_growth(const void *a, const void *b)
{
    const lf_owner *x = &sorting_owners->owner[*(const uint32_t *)a];
    const lf_owner *y = &sorting_owners->owner[*(const uint32_t *)b];
    int64_t dx = owner_growth(x), dy = owner_growth(y);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    dx = (int64_t)(x->retained[1] - x->retained[0]), dy = (int64_t)(y->retained[1] - y->retained[0]);
    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->signature < y->signature ? -1 : x->signature > y->signature;
}

/* Owners whose retained objects grew, each at the deepest owner that still
 * carries the growth. With a workload span (trend), the growth per unit of
 * workload comes first. */
#define OWNER_CARRIES 0.9

/* Whether child carries nearly all of parent's growth, in objects and in bytes. */
static int carries(const lf_owner *child, const lf_owner *parent)
{
    int64_t g = owner_growth(child), pg = owner_growth(parent);
    int64_t b = (int64_t)(child->retained[1] - child->retained[0]);
    int64_t pb = (int64_t)(parent->retained[1] - parent->retained[0]);
    return pg > 0 && g > 0 && (double)g >= OWNER_CARRIES * (double)pg &&
           (pb <= 0 || (double)b >= OWNER_CARRIES * (double)pb);
}

int show_owner_growth(const cli_context *ctx, const lf_snapshot *s, uint64_t top, uint64_t min_count,
                      uint64_t min_bytes, double span, int *grew)
{
    lf_owner_table t = {0};
    lf_error err;
    const out_format format = ctx->format;
    cli_progress(ctx, "matching owners");
    int failed = lf_owners_add(&t, &s[0], 0, &err) || lf_owners_add(&t, &s[1], 1, &err);
    cli_progress_done(ctx);
    if (failed) {
        lf_owners_free(&t);
        cli_message("error", "out of memory");
        return -1;
    }
    /* one entry per owner: as many as the heap has objects, at worst */
    uint32_t *order = lf_big_malloc((t.count + 1) * sizeof *order);
    uint8_t *explained = lf_big_calloc(t.count + 1, 1);
    if (!order || !explained) {
        lf_big_free(order), lf_big_free(explained), lf_owners_free(&t);
        cli_message("error", "out of memory");
        return -1;
    }
    /* An owner one of whose children carries nearly all its growth is left
     * out: the child, deeper, says where the objects accumulate (the list
     * in a static field, not the root or global above it). A collection is
     * one owner: its table, entries and what they hold never are
     * (collections.h). */
    for (size_t i = 0; i < t.count; i++) {
        const lf_owner *o = &t.owner[i];
        const lf_owner *p = o->parent ? lf_owners_find(&t, o->parent) : NULL;
        if (p && !o->inside && carries(o, p))
            explained[p - t.owner] = 1;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < t.count; i++) {
        const lf_owner *o = &t.owner[i];
        int64_t g = owner_growth(o);
        if (g <= 0 || o->node[1] == LF_NODE_NONE || explained[i] || o->inside)
            continue;
        order[n++] = (uint32_t)i;
        if (g >= (int64_t)min_count && (int64_t)(o->retained[1] - o->retained[0]) >= (int64_t)min_bytes)
            *grew = 1;
    }
    sorting_owners = &t;
    qsort(order, n, sizeof *order, by_owner_growth);
    static const out_column columns[] = {
        {"objects_per_unit", OUT_REAL, LF_CUT_END, OUT_NORMAL},
        {"objects_delta", OUT_I64, LF_CUT_END, OUT_NORMAL},
        {"retained_delta", OUT_I64, LF_CUT_END, OUT_NORMAL},
        {"objects_before", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"objects_after", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_NORMAL},
        {"owner", OUT_STR, LF_CUT_PATH, OUT_KEY},
    };
    const int with_slope = span > 0;
    out_writer *w = out_begin(stdout, format, columns + !with_slope, 7 - !with_slope);
    char path[8192];
    lf_holders holders;
    lf_holders_init(&holders, &s[1]);
    for (uint32_t k = 0; k < n && (top == 0 || k < top); k++) {
        const lf_owner *o = &t.owner[order[k]];
        if (with_slope)
            out_real(w, (double)owner_growth(o) / span, 2);
        out_i64(w, owner_growth(o));
        out_bytes_delta(w, (int64_t)(o->retained[1] - o->retained[0]));
        out_u64(w, o->objects[0]);
        out_u64(w, o->objects[1]);
        lf_str cls = lf_snapshot_object_label(&s[1], o->node[1]);
        out_str(w, cls.ptr, cls.len);
        size_t len = lf_owner_path(&holders, o->node[1], path, sizeof path);
        out_str(w, path, len);
        out_row_end(w);
    }
    out_end(w);
    failed = lf_holders_failed(&holders) ? -1 : 0; /* an owner path cut short */
    if (failed)
        cli_message("error", "out of memory");
    lf_holders_free(&holders);
    lf_big_free(order);
    lf_big_free(explained);
    lf_owners_free(&t);
    return failed;
}
