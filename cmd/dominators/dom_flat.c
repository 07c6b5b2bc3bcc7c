/* dom_flat.c - see dom_flat.h. */
#include "dom_flat.h"

#include <pthread.h>
#include <stdlib.h>

#include "../../core/analysis/holders.h"
#include "../../core/base/bigmem.h"
#include "../../core/model/idrank.h" /* lf_sort_u64 */
#include "../cli/cli.h"
#include "dom_tree.h" /* the columns */
#include "../cli/row_pipeline.h"
#include "../cli/string_preview.h"

/* What a row shows, read for CHUNK rows at a time before any is written:
 * rows go by retained size, so each one's data sit at random places, and
 * read in a tight loop their loads overlap, where between the writing of
 * rows each waited on its own (most of a full listing's time). */
enum { CHUNK = 4096 };

typedef struct flat_row {
    uint32_t node, dominator;  /* dominator: LF_NODE_SUPER for a top owner */
    uint64_t id, dominator_id;
    uint64_t shallow, retained;
    lf_str label;
    lf_holder holder;
} flat_row;

static void gather_rows(const lf_snapshot *s, lf_holders *holders, const uint32_t *node, size_t n, flat_row *row)
{
    for (size_t i = 0; i < n; i++) {
        if (i + 32 < n) /* the loop is tight, yet a row's loads wait on its idom */
            __builtin_prefetch(&s->idom[node[i + 32]]);
        uint32_t v = node[i], d = s->idom[v];
        row[i] = (flat_row){v, d, lf_snapshot_object_id(s, v), d < s->object_count ? lf_snapshot_object_id(s, d) : 0,
                            lf_snapshot_shallow(s, v), lf_snapshot_retained(s, v), lf_snapshot_object_label(s, v),
                            lf_holders_get(holders, v)};
    }
}

/* A --flat row; holder: the field by which the dominator holds it, or its root. */
static void write_row(out_writer *w, const lf_snapshot *s, const flat_row *r, double heap)
{
    const int at_style = (s->flags & LF_SNAP_IDS_AT) != 0;
    out_null(w);
    out_id(w, r->id, at_style);
    if (r->dominator < s->object_count)
        out_id(w, r->dominator_id, at_style);
    else
        out_null(w); /* the super-root */
    out_bytes(w, r->shallow);
    out_bytes(w, r->retained);
    out_pct(w, 100.0 * (double)r->retained / heap);
    out_str(w, r->label.ptr, r->label.len);
    cli_write_holder(w, s, r->holder, r->node);
    out_null(w); /* hidden */
    out_null(w); /* group */
    cli_write_holder_root(w, s, r->holder);
    cli_write_place(w, s, r->node, DOM_COLUMN_LOCATION);
    cli_write_string_preview(w, s, r->node);
    out_row_end(w);
}

static const lf_snapshot *heap_snapshot;

/* "a comes after b" in the flat order: larger retained first, then node number. */
static int flat_after(uint32_t a, uint32_t b)
{
    uint64_t ra = lf_snapshot_retained(heap_snapshot, a), rb = lf_snapshot_retained(heap_snapshot, b);
    return ra < rb || (ra == rb && a > b);
}

static int flat_cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a == b ? 0 : flat_after(a, b) ? 1 : -1;
}

/* Every row in the flat order. The rows whose retained size fits 32 bits
 * become packed keys (~retained, node) sorted by radix: qsort, whose
 * comparator reads retained[] at random, took 11% of a 30M-row listing. The
 * few larger rows go first, sorted by comparison. */
static int sort_all_rows(const lf_snapshot *s, uint32_t *rows, size_t count)
{
    /* 2 MiB pages: a fault per fresh 4 KiB page was a fifth of choosing the rows */
    uint64_t *keys = lf_big_malloc((count ? count : 1) * sizeof *keys);
    if (!keys)
        return -1;
    size_t big = 0, small = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = lf_snapshot_retained(s, rows[i]);
        if (r > UINT32_MAX)
            rows[big++] = rows[i]; /* big <= i: not yet read */
        else
            keys[small++] = (uint64_t)(uint32_t)~(uint32_t)r << 32 | rows[i];
    }
    if (lf_sort_u64(keys, small)) {
        lf_big_free(keys);
        return -1;
    }
    for (size_t j = 0; j < small; j++)
        rows[big + j] = (uint32_t)keys[j];
    lf_big_free(keys);
    qsort(rows, big, sizeof *rows, flat_cmp);
    return 0;
}

/* The rows kept, in the flat order, in keep[0 .. *kept). */
static int choose_rows(const lf_snapshot *s, uint64_t top, uint64_t min, uint32_t **keep_out, size_t *kept_out)
{
    heap_snapshot = s;
    const int all = top == 0 || top >= s->reachable_count;
    size_t cap = all ? s->reachable_count : (size_t)top;
    uint32_t *keep = lf_big_malloc((cap ? cap : 1) * sizeof *keep);
    if (!keep)
        return -1;
    size_t kept = 0;
    /* A heap whose root is the last kept row: O(n log top) for small --top.
     * Every row wanted: all of them, sorted once. */
    for (uint32_t v = 0; v < s->object_count; v++) {
        if (s->idom[v] == LF_NODE_NONE || lf_snapshot_retained(s, v) < min)
            continue;
        size_t i;
        if (all) {
            if (kept < cap) /* a stored reachable count that is wrong must not overrun keep */
                keep[kept++] = v;
        } else if (kept < cap) {
            i = kept++;
            while (i > 0 && flat_after(v, keep[(i - 1) / 2])) {
                keep[i] = keep[(i - 1) / 2];
                i = (i - 1) / 2;
            }
            keep[i] = v;
        } else if (cap > 0 && flat_after(keep[0], v)) {
            i = 0;
            for (;;) {
                size_t c = 2 * i + 1;
                if (c >= kept)
                    break;
                if (c + 1 < kept && flat_after(keep[c + 1], keep[c]))
                    c++;
                if (!flat_after(keep[c], v))
                    break;
                keep[i] = keep[c];
                i = c;
            }
            keep[i] = v;
        }
    }
    if (all ? sort_all_rows(s, keep, kept) : (qsort(keep, kept, sizeof *keep, flat_cmp), 0)) {
        lf_big_free(keep);
        return -1;
    }
    *keep_out = keep;
    *kept_out = kept;
    return 0;
}

/* The pipeline's view of a listing: the rows chosen, and what writing them
 * reads. Both threads gather: the holders must be a table by then. */
typedef struct flat_listing {
    const lf_snapshot *s;
    lf_holders *holders;
    const uint32_t *keep;
    double heap;
} flat_listing;

static void write_block(void *ctx, size_t first, size_t n, void *slot, out_writer *w)
{
    const flat_listing *l = ctx;
    flat_row *row = slot;
    gather_rows(l->s, l->holders, l->keep + first, n, row);
    for (size_t i = 0; i < n; i++)
        write_row(w, l->s, &row[i], l->heap);
}

/* Rows on one thread: for short listings, tables, --threads 1, or when the
 * pipeline cannot start. */
static int write_serially(out_writer *w, const flat_listing *l, size_t kept)
{
    flat_row *chunk = malloc(CHUNK * sizeof *chunk);
    for (size_t at = 0; chunk && at < kept; at += CHUNK)
        write_block((void *)l, at, kept - at < CHUNK ? kept - at : CHUNK, chunk, w);
    free(chunk);
    return chunk ? 0 : -1;
}

typedef struct choose_job {
    const lf_snapshot *s;
    uint64_t top, min;
    uint32_t *keep;
    size_t kept;
    int rc;
} choose_job;

static void *choose_run(void *arg)
{
    choose_job *j = arg;
    j->rc = choose_rows(j->s, j->top, j->min, &j->keep, &j->kept);
    return NULL;
}

/* The rows and their holders. For every row of a big heap on two threads,
 * the rows are chosen and sorted on a second thread while this one names
 * the holders (two passes that read and write nothing in common: 0.1 s
 * each on 4M objects, issue 33 item 5). */
static int rows_and_holders(const lf_snapshot *s, uint64_t top, uint64_t min, unsigned threads,
                            lf_holders *holders, uint32_t **keep, size_t *kept)
{
    int every = top == 0 && min == 0 && s->reachable_count >= 4 * CHUNK &&
                s->reachable_count > s->object_count / 64;
    uint32_t first = 0;
    while (every && first < s->object_count && s->idom[first] == LF_NODE_NONE)
        first++;
    choose_job job = {s, top, min, NULL, 0, -1};
    pthread_t t;
    if (threads > 1 && every && first < s->object_count && pthread_create(&t, NULL, choose_run, &job) == 0) {
        lf_holders_expect_all(holders);
        lf_holders_get(holders, first); /* makes the table */
        pthread_join(t, NULL);
    } else {
        choose_run(&job);
        if (job.rc == 0 && job.kept > s->object_count / 64) /* one pass names them all, cheaper than asking */
            lf_holders_expect_all(holders);
    }
    *keep = job.keep;
    *kept = job.kept;
    return job.rc;
}

int dom_show_flat(out_writer *w, const lf_snapshot *s, uint64_t top, uint64_t min, double heap,
                  unsigned threads)
{
    uint32_t *keep;
    size_t kept;
    lf_holders holders;
    lf_holders_init(&holders, s);
    if (rows_and_holders(s, top, min, threads, &holders, &keep, &kept)) {
        lf_holders_free(&holders);
        return -1;
    }
    flat_listing listing = {s, &holders, keep, heap};
    int rc = 1;
    if (threads > 1 && kept >= 4 * CHUNK && kept > s->object_count / 64) {
        lf_holders_get(&holders, keep[0]); /* makes the table if not yet: from then on, answers are reads */
        row_pipeline_ops ops = {&listing, CHUNK, CHUNK * sizeof(flat_row), write_block};
        if (lf_holders_ready(&holders))
            rc = row_pipeline_run(w, kept, &ops);
    }
    if (rc)
        rc = write_serially(w, &listing, kept);
    /* a row without its field: the listing is short */
    if (lf_holders_failed(&holders))
        rc = -1;
    lf_holders_free(&holders);
    lf_big_free(keep);
    return rc;
}
