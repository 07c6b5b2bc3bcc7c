/* query_groups.c - an aggregate query: each chosen object's group key
 * (the values it is grouped by) found in a hash table, its aggregates
 * brought up to date; then one row per group, in order. Without group by
 * there is one group, which has a row even when no object was chosen. */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "query_run.h"

typedef struct q_acc {
    uint64_t count;       /* values seen (count(): objects) */
    int64_t isum;
    double dsum;
    int real;             /* a real number was summed: dsum holds the sum */
    lf_qvalue best;       /* min or max so far; a text's is in the store at best_at */
    size_t best_at;
} q_acc;

typedef struct q_group {
    uint64_t hash;
    size_t key_at;        /* the serialised key, in the key bytes */
    uint32_t key_len;
} q_group;

typedef struct q_groups {
    q_group *group;
    size_t count, cap;
    q_acc *acc;           /* group * items + item */
    size_t acc_cap;
    uint32_t *slot;       /* hash table: group + 1, 0 empty */
    size_t slots;
    char *keys;
    size_t keys_len, keys_cap;
    char *key;            /* the current object's key */
    size_t key_len, key_cap;
} q_groups;

static int put(q_groups *g, const void *p, size_t n)
{
    if (n == 0)
        return 0;
    if (lf_vec_reserve((void **)&g->key, &g->key_cap, g->key_len + n, 1))
        return -1;
    memcpy(g->key + g->key_len, p, n);
    g->key_len += n;
    return 0;
}

/* A value as bytes that are equal when the values are. */
static int serialise(q_groups *g, const lf_qvalue *v)
{
    uint8_t type = v->type;
    uint32_t len = (uint32_t)(v->len < KEY_TEXT_BYTES ? v->len : KEY_TEXT_BYTES);
    while (type == LF_QV_STR && len < v->len && len > 0 && ((unsigned char)v->str[len] & 0xc0) == 0x80)
        len--;
    if (put(g, &type, 1))
        return -1;
    switch (type) {
    case LF_QV_INT: case LF_QV_BOOL: return put(g, &v->i, sizeof v->i);
    case LF_QV_REAL: return put(g, &v->d, sizeof v->d);
    case LF_QV_OBJ: case LF_QV_ID: return put(g, &v->node, sizeof v->node);
    case LF_QV_STR:
        return put(g, &v->chars, sizeof v->chars) || put(g, &len, sizeof len) || put(g, v->str, len);
    default: return 0;
    }
}

static const char *deserialise(const char *p, lf_qvalue *v)
{
    memset(v, 0, sizeof *v);
    v->type = (uint8_t)*p++;
    switch (v->type) {
    case LF_QV_INT: case LF_QV_BOOL: memcpy(&v->i, p, sizeof v->i); return p + sizeof v->i;
    case LF_QV_REAL: memcpy(&v->d, p, sizeof v->d); return p + sizeof v->d;
    case LF_QV_OBJ: case LF_QV_ID: memcpy(&v->node, p, sizeof v->node); return p + sizeof v->node;
    case LF_QV_STR: {
        uint32_t len;
        memcpy(&v->chars, p, sizeof v->chars);
        memcpy(&len, p + sizeof v->chars, sizeof len);
        v->str = p + sizeof v->chars + sizeof len;
        v->len = len;
        return v->str + len;
    }
    default: return p;
    }
}

static uint64_t hash_bytes(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h ^ h >> 29;
}

static int grow_table(q_groups *g)
{
    size_t slots = g->slots ? 2 * g->slots : 1024;
    uint32_t *slot = calloc(slots, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t k = 0; k < g->count; k++) {
        size_t at = g->group[k].hash & (slots - 1);
        while (slot[at])
            at = (at + 1) & (slots - 1);
        slot[at] = (uint32_t)k + 1;
    }
    free(g->slot);
    g->slot = slot;
    g->slots = slots;
    return 0;
}

/* The group of the current key, made when new; SIZE_MAX out of memory. */
static size_t find_group(q_groups *g, size_t items)
{
    uint64_t h = hash_bytes(g->key, g->key_len);
    if (2 * (g->count + 1) > g->slots && grow_table(g))
        return SIZE_MAX;
    size_t at = h & (g->slots - 1);
    for (; g->slot[at]; at = (at + 1) & (g->slots - 1)) {
        const q_group *x = &g->group[g->slot[at] - 1];
        if (x->hash == h && x->key_len == g->key_len &&
            (g->key_len == 0 || memcmp(g->keys + x->key_at, g->key, g->key_len) == 0)) /* no key: no group by */
            return g->slot[at] - 1;
    }
    if (g->count >= UINT32_MAX - 1 ||
        lf_vec_reserve((void **)&g->group, &g->cap, g->count + 1, sizeof *g->group) ||
        lf_vec_reserve((void **)&g->acc, &g->acc_cap, (g->count + 1) * items, sizeof *g->acc) ||
        lf_vec_reserve((void **)&g->keys, &g->keys_cap, g->keys_len + g->key_len + 1, 1))
        return SIZE_MAX;
    if (g->key_len)
        memcpy(g->keys + g->keys_len, g->key, g->key_len);
    g->group[g->count] = (q_group){h, g->keys_len, (uint32_t)g->key_len};
    g->keys_len += g->key_len;
    memset(g->acc + g->count * items, 0, items * sizeof *g->acc);
    g->slot[at] = (uint32_t)g->count + 1;
    return g->count++;
}

/* One object's values into its group's aggregates. */
static int accumulate(q_run *r, q_acc *acc, uint32_t v)
{
    const lf_query *q = r->q;
    for (size_t i = 0; i < q->item_count; i++) {
        const q_node *x = &q->node[q->item[i].expr];
        if (x->kind != QN_AGG)
            continue;
        q_acc *a = &acc[i];
        if (x->a < 0) {
            a->count++;
            continue;
        }
        lf_qvalue val = q_scalar(&r->e, q_value_of(&r->e, x->a, v));
        if (val.type == LF_QV_NULL)
            continue;
        a->count += x->op != QA_COUNT || val.type != LF_QV_BOOL || val.i;
        if (val.type == LF_QV_INT || val.type == LF_QV_BOOL) {
            a->isum += val.i;
            a->dsum += (double)val.i;
        } else if (val.type == LF_QV_REAL) {
            a->real = 1;
            a->dsum += val.d;
        }
        if (x->op != QA_MIN && x->op != QA_MAX)
            continue;
        lf_qvalue best = a->best;
        if (best.type == LF_QV_STR)
            best.str = r->store + a->best_at;
        int c = q_compare(&val, &best);
        if (a->count == 1 || (x->op == QA_MIN ? c < 0 : c > 0)) {
            if (q_keep_text(r, &val, KEY_TEXT_BYTES, &a->best_at))
                return -1;
            a->best = val;
        }
    }
    return 0;
}

static int group_pass(q_run *r, q_groups *g)
{
    const lf_query *q = r->q;
    if (q->group_count == 0 && find_group(g, q->item_count) == SIZE_MAX) /* the one group */
        return lf_fail_nomem(r->err, "grouping");
    size_t last = SIZE_MAX;
    for (uint32_t v = 0; v < r->s->object_count; v++) {
        int take = q_chosen(r, v);
        size_t k = 0;
        g->key_len = 0;
        for (size_t i = 0; take && i < q->group_count; i++) {
            lf_qvalue key = q_scalar(&r->e, q_value_of(&r->e, q->group[i], v));
            if (serialise(g, &key))
                return lf_fail_nomem(r->err, "grouping");
        }
        /* objects come in runs of one class, and often of one key: the
         * last object's group is tried before the hash table */
        if (take && last != SIZE_MAX && g->group[last].key_len == g->key_len &&
            (g->key_len == 0 || memcmp(g->keys + g->group[last].key_at, g->key, g->key_len) == 0))
            k = last;
        else if (take && (k = find_group(g, q->item_count)) == SIZE_MAX)
            return lf_fail_nomem(r->err, "grouping");
        if (take)
            last = k;
        if (take && accumulate(r, g->acc + k * q->item_count, v))
            return -1;
        q_eval_reset(&r->e);
        if (r->e.failed)
            return -1;
    }
    return 0;
}

/* The cells of group k's row. */
static void group_cells(const q_run *r, const q_groups *g, size_t k, lf_qvalue *cell)
{
    const lf_query *q = r->q;
    lf_qvalue key[Q_MAX_GROUP];
    const char *p = g->keys + g->group[k].key_at;
    for (size_t i = 0; i < q->group_count; i++)
        p = deserialise(p, &key[i]);
    for (size_t i = 0; i < q->item_count; i++) {
        const q_node *x = &q->node[q->item[i].expr];
        const q_acc *a = &g->acc[k * q->item_count + i];
        lf_qvalue *c = &cell[i];
        memset(c, 0, sizeof *c);
        if (x->kind != QN_AGG) {
            for (size_t j = 0; j < q->group_count; j++)
                if (q_same(q, q->item[i].expr, q->group[j]))
                    *c = key[j];
        } else if (x->op == QA_COUNT) {
            c->type = LF_QV_INT, c->i = (int64_t)a->count;
        } else if (a->count == 0) {
            c->type = LF_QV_NULL;
        } else if (x->op == QA_SUM) {
            *c = a->real ? (lf_qvalue){LF_QV_REAL, 0, a->dsum, 0, NULL, 0, 0}
                         : (lf_qvalue){LF_QV_INT, a->isum, 0, 0, NULL, 0, 0};
        } else if (x->op == QA_AVG) {
            c->type = LF_QV_REAL, c->d = a->dsum / (double)a->count;
        } else {
            *c = a->best;
            if (c->type == LF_QV_STR)
                c->str = r->store + a->best_at;
        }
    }
}

/* Rows go by the ordered column (default: the first aggregate, largest
 * first), then by the first column, then as the groups were met. */
typedef struct q_order {
    lf_qvalue key, tie;
    uint32_t group;
} q_order;

static int goes_before(const q_order *a, const q_order *b, int desc)
{
    int c = q_compare(&a->key, &b->key);
    if (c)
        return desc ? c > 0 : c < 0;
    if ((c = q_compare(&a->tie, &b->tie)))
        return c < 0;
    return a->group < b->group;
}

/* A bottom-up merge sort, stable, whose comparison takes the direction
 * (qsort's would need it in a global). */
static int sort_orders(q_order *x, size_t n, int desc)
{
    q_order *tmp = malloc((n + 1) * sizeof *tmp);
    if (!tmp)
        return -1;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                tmp[o++] = goes_before(&x[j], &x[i], desc) ? x[j++] : x[i++];
            while (i < mid)
                tmp[o++] = x[i++];
            while (j < hi)
                tmp[o++] = x[j++];
        }
        memcpy(x, tmp, n * sizeof *x);
    }
    free(tmp);
    return 0;
}

static int group_rows(q_run *r, const q_groups *g)
{
    const lf_query *q = r->q;
    size_t by = q->order_item >= 0 ? (size_t)q->order_item : SIZE_MAX;
    int desc = q->order_item >= 0 ? q->order_desc : 1;
    for (size_t i = 0; i < q->item_count && by == SIZE_MAX; i++)
        if (q->node[q->item[i].expr].kind == QN_AGG)
            by = i;
    if (by == SIZE_MAX)
        by = 0, desc = 0;
    q_order *order = malloc((g->count + 1) * sizeof *order);
    lf_qvalue cell[Q_MAX_ITEMS];
    if (!order)
        return lf_fail_nomem(r->err, "ordering the groups");
    for (size_t k = 0; k < g->count; k++) {
        group_cells(r, g, k, cell);
        order[k] = (q_order){cell[by], cell[0], (uint32_t)k};
    }
    if (sort_orders(order, g->count, desc)) {
        free(order);
        return lf_fail_nomem(r->err, "ordering the groups");
    }
    int rc = 0;
    for (size_t k = 0; k < g->count && k < q->limit && rc == 0; k++) {
        group_cells(r, g, order[k].group, cell);
        rc = r->row(r->ctx, cell, q->item_count);
    }
    free(order);
    return rc < 0 ? -1 : 0;
}

int q_groups_run(q_run *r)
{
    q_groups g = {0};
    int rc = group_pass(r, &g);
    if (rc == 0)
        rc = group_rows(r, &g);
    lf_big_free(g.group);
    lf_big_free(g.acc);
    free(g.slot);
    lf_big_free(g.keys);
    lf_big_free(g.key);
    return rc;
}
