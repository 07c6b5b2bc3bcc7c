/* query_run.c - a prepared query's one pass over the objects and its rows:
 * objects as they come, the best `limit` of them by a bounded heap, all of
 * them sorted, or groups kept in a hash table with their aggregates. */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "query_ast.h"

#include "query_run.h"

/* Keeps v's text (up to max bytes, at a character boundary) in the store;
 * *at its offset. The text's pointer is set from the offset when read. */
int q_keep_text(q_run *r, lf_qvalue *v, size_t max, size_t *at)
{
    if (v->type != LF_QV_STR)
        return 0;
    size_t n = v->len < max ? v->len : max;
    while (n < v->len && n > 0 && ((unsigned char)v->str[n] & 0xc0) == 0x80)
        n--;
    if (lf_vec_reserve((void **)&r->store, &r->store_cap, r->store_len + n + 1, 1))
        return lf_fail_nomem(r->err, "running the query");
    if (n)
        memcpy(r->store + r->store_len, v->str, n);
    *at = r->store_len;
    r->store_len += n;
    v->len = n;
    v->str = NULL;
    return 0;
}

int q_chosen(q_run *r, uint32_t v)
{
    lf_query *q = r->q;
    if (q->from_nodes) { /* objects named by their ids: whether reachable or not */
        int chosen = q_bit(q->from_nodes, v) && (q->where < 0 || q_eval_true(&r->e, q->where, v));
        q->chosen += (uint64_t)chosen;
        return chosen;
    }
    if (q->from_match && !q->from_match[r->s->object_class[v]])
        return 0;
    if (q->where >= 0 && !q_eval_true(&r->e, q->where, v))
        return 0;
    if (q->live && !q_bit(q->live, v)) { /* garbage: left out, and counted for the caller to say so */
        q->unreachable_matches++;
        return 0;
    }
    q->chosen++;
    return 1;
}

/* The cells of obj's row, to the caller. */
int q_object_row(q_run *r, uint32_t v)
{
    lf_qvalue cell[Q_MAX_ITEMS];
    for (size_t i = 0; i < r->q->item_count; i++)
        cell[i] = q_scalar(&r->e, q_value_of(&r->e, r->q->item[i].expr, v));
    int stop = r->e.failed ? -1 : r->row(r->ctx, cell, r->q->item_count);
    q_eval_reset(&r->e);
    return stop;
}

/* --- objects, in order ---------------------------------------------------- */

typedef struct q_ranked {   /* a row kept for its place in the order */
    lf_qvalue key;
    size_t text_at;
    uint32_t node;
} q_ranked;

static lf_qvalue key_of(const q_run *r, const q_ranked *x)
{
    lf_qvalue k = x->key;
    if (k.type == LF_QV_STR)
        k.str = r->store + x->text_at;
    return k;
}

/* Whether a goes before b. */
static int before(const q_run *r, const q_ranked *a, const q_ranked *b)
{
    lf_qvalue ka = key_of(r, a), kb = key_of(r, b);
    int c = q_compare(&ka, &kb);
    if (r->q->order_desc)
        c = -c;
    return c != 0 ? c < 0 : a->node < b->node;
}

static void sift_down(const q_run *r, q_ranked *h, size_t n, size_t i)
{
    for (;;) { /* a max-heap: the root is the one that goes last */
        size_t last = i, a = 2 * i + 1, b = a + 1;
        if (a < n && before(r, &h[last], &h[a]))
            last = a;
        if (b < n && before(r, &h[last], &h[b]))
            last = b;
        if (last == i)
            return;
        q_ranked t = h[i];
        h[i] = h[last], h[last] = t, i = last;
    }
}

static void sift_up(const q_run *r, q_ranked *h, size_t i)
{
    while (i > 0 && before(r, &h[(i - 1) / 2], &h[i])) {
        q_ranked t = h[i];
        h[i] = h[(i - 1) / 2], h[(i - 1) / 2] = t, i = (i - 1) / 2;
    }
}

/* Sorts the kept rows in place: a heap sort, whose comparisons can see the
 * run (qsort's could not without a global). */
static void sort_ranked(const q_run *r, q_ranked *x, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(r, x, n, i);
    for (size_t end = n; end > 1; end--) {
        q_ranked t = x[0];
        x[0] = x[end - 1], x[end - 1] = t;
        sift_down(r, x, end - 1, 0);
    }
}

/* Keeps x when it is among the best `limit` so far (a heap whose root is
 * the one that would go last). 0, or -1 out of memory. */
static int rank_one(q_run *r, q_ranked **kept, size_t *n, size_t *cap, q_ranked x)
{
    size_t mark = r->store_len;
    if (q_keep_text(r, &x.key, KEY_TEXT_BYTES, &x.text_at))
        return -1;
    if (*n == r->q->limit) {
        if (*n == 0 || !before(r, &x, &(*kept)[0])) {
            r->store_len = mark; /* its text was the last kept */
            return 0;
        }
        (*kept)[0] = x;
        sift_down(r, *kept, *n, 0);
        return 0;
    }
    if (lf_vec_reserve((void **)kept, cap, *n + 1, sizeof **kept))
        return lf_fail_nomem(r->err, "running the query");
    (*kept)[(*n)++] = x;
    if (r->q->limit != UINT64_MAX)
        sift_up(r, *kept, *n - 1);
    return 0;
}

static int ranked_objects(q_run *r)
{
    q_ranked *kept = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (uint32_t v = 0; v < r->s->object_count && rc == 0; v++) {
        if (q_chosen(r, v)) {
            q_ranked x = {q_scalar(&r->e, q_value_of(&r->e, r->q->order, v)), 0, v};
            rc = rank_one(r, &kept, &n, &cap, x);
        }
        rc = rc ? rc : r->e.failed ? -1 : 0;
        q_eval_reset(&r->e);
    }
    if (rc == 0)
        sort_ranked(r, kept, n);
    for (size_t i = 0; i < n && rc == 0; i++) {
        int stop = q_object_row(r, kept[i].node);
        if (stop)
            rc = stop < 0 ? -1 : 0, n = 0;
    }
    lf_big_free(kept);
    return rc;
}

static int listed_objects(q_run *r)
{
    uint64_t shown = 0;
    for (uint32_t v = 0; v < r->s->object_count && shown < r->q->limit; v++) {
        int take = q_chosen(r, v);
        q_eval_reset(&r->e);
        if (r->e.failed)
            return -1;
        if (!take)
            continue;
        int stop = q_object_row(r, v);
        if (stop < 0 || r->e.failed)
            return -1;
        if (stop)
            return 0;
        shown++;
    }
    return 0;
}

int lf_query_prepare(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    q->s = s;
    for (size_t i = 0; i < q->seg_count; i++) {
        if (q->seg[i].attr == QT_FIELD && (s->flags & LF_SNAP_NO_FIELD_NAMES))
            return q_fail(err, q->seg[i].pos, "this snapshot names no fields (a .gcdump records references "
                          "without their names): use @attributes only");
        if (q->seg[i].attr == QT_RETAINED && !lf_snapshot_has_retained(s))
            return q_fail(err, q->seg[i].pos, "@retained needs the analysis");
    }
    if (q_fields_prepare(q, s, err) || q_prepare_maps(q, s, err) || q_check_field_names(q, s, err))
        return -1;
    return 0;
}

int lf_query_run(lf_query *q, const lf_snapshot *s, lf_query_row_fn row, void *ctx, lf_error *err)
{
    q_run r = {q, s, {0}, row, ctx, err, NULL, 0, 0};
    q->unreachable_matches = q->chosen = 0;
    if (q_eval_init(&r.e, q, s, err))
        return -1;
    int rc;
    if (q->aggregate)
        rc = q_groups_run(&r);
    else if (q->order >= 0)
        rc = ranked_objects(&r);
    else
        rc = listed_objects(&r);
    if (rc == 0)
        rc = q_literal_notes(&r);
    q_eval_free(&r.e);
    lf_big_free(r.store);
    return rc;
}
