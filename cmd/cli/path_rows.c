/* path_rows.c - see path_rows.h. */
#include "path_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/base/bsearch.h"
#include "../../core/model/idrank.h" /* lf_sort_u64 */
#include "../../core/base/vec.h"
#include "cli.h"
#include "string_preview.h"
#include "../../core/base/bigmem.h"

/* Consecutive hops of one path (a path longer than a batch is cut). */
struct path_run {
    uint32_t target, number, distance;
    uint32_t depth;      /* of the run's first hop */
    uint32_t prev;       /* the hop before the first, LF_NODE_NONE at the root */
    uint32_t count;
    uint64_t start;      /* in node[] */
    uint8_t weak;
};

uint64_t *path_root_index(const lf_snapshot *s)
{
    uint64_t *key = malloc(((size_t)s->root_count + 1) * sizeof *key);
    if (!key)
        return NULL;
    for (uint32_t r = 0; r < s->root_count; r++)
        key[r] = (uint64_t)s->root[r].node << 32 | r;
    if (lf_sort_u64(key, s->root_count)) {
        free(key);
        return NULL;
    }
    return key;
}

void path_write_root(out_writer *w, const lf_snapshot *s, const uint64_t *root_index, uint32_t node)
{
    uint64_t at = lf_lower_bound_u64(root_index, s->root_count, (uint64_t)node << 32);
    if (at < s->root_count && root_index[at] >> 32 == node)
        cli_write_root(w, s, (uint32_t)root_index[at]);
    else
        out_null(w);
}

size_t path_rows_batch(const lf_snapshot *s)
{
    size_t n = s->object_count;
    return n < (1u << 16) ? 1u << 16 : n > (1u << 20) ? 1u << 20 : n;
}

void path_rows_init(path_rows *r, out_writer *w, const lf_snapshot *s, const uint64_t *root_index)
{
    memset(r, 0, sizeof *r);
    r->w = w;
    r->s = s;
    r->root_index = root_index;
    r->batch = path_rows_batch(s);
}

void path_rows_free(path_rows *r)
{
    lf_big_free(r->run);
    lf_big_free(r->node);
    lf_big_free(r->question);
    lf_big_free(r->answer);
    memset(r, 0, sizeof *r);
}

int path_rows_add(path_rows *r, uint32_t target, unsigned number, const uint32_t *path, int64_t len, int weak)
{
    for (int64_t k = 0; k < len;) {
        size_t take = r->batch - r->node_count;
        if ((uint64_t)(len - k) < take)
            take = (size_t)(len - k);
        if (lf_vec_reserve((void **)&r->run, &r->run_cap, r->run_count + 1, sizeof *r->run) ||
            lf_vec_reserve((void **)&r->node, &r->node_cap, r->node_count + take, sizeof *r->node))
            return -1;
        r->run[r->run_count++] = (path_run){target, number, (uint32_t)(len - 1), (uint32_t)k,
                                            k ? path[k - 1] : LF_NODE_NONE, (uint32_t)take,
                                            r->node_count, (uint8_t)weak};
        memcpy(r->node + r->node_count, path + k, take * sizeof *path);
        r->node_count += take;
        k += (int64_t)take;
        if (r->node_count == r->batch && path_rows_flush(r))
            return -1;
    }
    return 0;
}

static void write_row(const path_rows *r, const path_run *run, uint32_t j, const lf_edge_answer *a)
{
    out_writer *w = r->w;
    const lf_snapshot *s = r->s;
    uint32_t v = r->node[run->start + j];
    if (run->depth + j == 0)
        out_table_gap(w); /* a path begins at its root */
    cli_write_id(w, s, run->target);
    out_u64(w, run->number);
    out_u64(w, run->distance);
    out_u64(w, (uint64_t)run->depth + j);
    cli_write_id(w, s, v);
    out_bytes(w, lf_snapshot_shallow(s, v));
    if (lf_snapshot_has_retained(s) && s->idom[v] != LF_NODE_NONE)
        out_bytes(w, lf_snapshot_retained(s, v));
    else
        out_null(w);
    lf_str label = lf_snapshot_object_label(s, v);
    out_str(w, label.ptr, label.len);
    if (a) {
        cli_write_hop(w, s, *a, run->weak ? "(weak) " : "");
    } else {
        out_str(w, "", 0);
        path_write_root(w, s, r->root_index, v);
    }
    cli_write_place(w, s, v, PATH_COLUMN_LOCATION);
    cli_write_string_preview(w, s, v);
    out_row_end(w);
}

/* A table folds the middle of a chain: more than CHAIN_SHOWN * 2 + 2
 * consecutive hops of one class (a linked list's nodes: 3,100 undisposed
 * registrations) show their first and last CHAIN_SHOWN and one row that
 * says how many are left out. TSV and JSON keep every hop for pipes. */
enum { CHAIN_SHOWN = 3 };

/* The end of the run of hops of node[start + j]'s class from j on. */
static uint32_t same_class_end(const path_rows *r, const path_run *run, uint32_t j)
{
    const lf_snapshot *s = r->s;
    uint32_t cls = s->object_class[r->node[run->start + j]], k = j + 1;
    while (k < run->count && s->object_class[r->node[run->start + k]] == cls)
        k++;
    return k;
}

static void write_elided(const path_rows *r, const path_run *run, uint32_t j, uint32_t left_out)
{
    out_writer *w = r->w;
    const lf_snapshot *s = r->s;
    char text[64]; /* the class is that of the rows around it: a narrow column keeps the count */
    (void)j;
    int n = snprintf(text, sizeof text, "... %u more", left_out);
    cli_write_id(w, s, run->target);
    out_u64(w, run->number);
    out_u64(w, run->distance);
    out_null(w); /* depth: the rows after it say theirs */
    for (int k = 0; k < 3; k++)
        out_null(w);
    out_str(w, text, n > 0 ? ((size_t)n < sizeof text ? (size_t)n : sizeof text - 1) : 0);
    out_row_end(w);
}

/* The rows of one run; asked: the answers used so far. */
static void write_run(const path_rows *r, const path_run *run, size_t *asked)
{
    int fold = out_writer_format(r->w) == OUT_TABLE;
    for (uint32_t j = 0; j < run->count;) {
        uint32_t end = fold ? same_class_end(r, run, j) : j + 1;
        if (end - j <= CHAIN_SHOWN * 2 + 2)
            end = j + 1;
        for (uint32_t k = j; k < end; k++) {
            int root = k == 0 && run->prev == LF_NODE_NONE;
            const lf_edge_answer *a = root ? NULL : &r->answer[(*asked)++];
            if (end == j + 1 || k < j + CHAIN_SHOWN || k >= end - CHAIN_SHOWN)
                write_row(r, run, k, a);
            else if (k == j + CHAIN_SHOWN)
                write_elided(r, run, k, end - j - 2 * CHAIN_SHOWN);
        }
        j = end;
    }
}

int path_rows_flush(path_rows *r)
{
    /* every hop but a root object's asks which edge of the one before holds it */
    if (lf_vec_reserve((void **)&r->question, &r->question_cap, r->node_count, sizeof *r->question) ||
        lf_vec_reserve((void **)&r->answer, &r->answer_cap, r->node_count, sizeof *r->answer))
        return -1;
    size_t asked = 0;
    for (size_t i = 0; i < r->run_count; i++) {
        const path_run *run = &r->run[i];
        for (uint32_t j = 0; j < run->count; j++) {
            uint32_t prev = j ? r->node[run->start + j - 1] : run->prev;
            if (prev != LF_NODE_NONE)
                r->question[asked++] = (lf_edge_question){prev, r->node[run->start + j]};
        }
    }
    if (lf_edge_batch_answer(r->s, r->question, asked, r->answer))
        return -1;
    asked = 0;
    for (size_t i = 0; i < r->run_count; i++)
        write_run(r, &r->run[i], &asked);
    r->run_count = 0;
    r->node_count = 0;
    return 0;
}
