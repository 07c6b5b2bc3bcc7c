/* query_check.c - what a parsed query must satisfy beyond its grammar:
 * aggregates only in select, every other column of an aggregate query a
 * value it groups by, order by naming a column; and each column's flavor
 * (bytes, a count, ids, text) for its output. */
#include <string.h>

#include "query_parser.h"


/* The first aggregate below n (n itself included when top is 0); -1 none. */
static int32_t find_aggregate(const lf_query *q, int32_t n, int top)
{
    if (n < 0)
        return -1;
    const q_node *x = &q->node[n];
    if (x->kind == QN_AGG) /* at the top, its argument is per object: no aggregate there */
        return top ? find_aggregate(q, x->a, 0) : n;
    int32_t a = find_aggregate(q, x->a, 0);
    return a >= 0 ? a : find_aggregate(q, x->b, 0);
}

int q_same(const lf_query *q, int32_t a, int32_t b)
{
    if (a < 0 || b < 0)
        return a == b;
    const q_node *x = &q->node[a], *y = &q->node[b];
    if (x->kind != y->kind || x->op != y->op || x->i != y->i || x->len != y->len)
        return 0;
    if (x->kind == QN_REAL && x->d != y->d)
        return 0;
    if (x->kind == QN_STR && memcmp(q->lit + x->at, q->lit + y->at, x->len) != 0)
        return 0;
    if (x->kind == QN_PATH)
        for (uint32_t k = 0; k < x->len; k++)
            if (q->seg[x->at + k].attr != q->seg[y->at + k].attr || q->seg[x->at + k].field != q->seg[y->at + k].field)
                return 0;
    return q_same(q, x->a, y->a) && q_same(q, x->b, y->b);
}

static int fail_aggregate(parser *p, int32_t n, const char *where)
{
    const q_node *x = &p->q->node[n];
    return lx_fail(p, x->pos, "'%.*s' is an aggregate: it belongs in select, not %s", (int)(x->end - x->pos),
                p->text + x->pos, where);
}

static const char *item_name(const lf_query *q, const q_item *it, size_t *len)
{
    if (it->name) {
        *len = strlen(it->name);
        return it->name;
    }
    *len = it->name_len;
    return q->text + it->name_at;
}

/* The item an order by names: by its alias or written the same way. */
static int32_t named_item(const lf_query *q, int32_t n)
{
    const q_node *x = &q->node[n];
    for (size_t i = 0; i < q->item_count; i++) {
        size_t len;
        const char *name = item_name(q, &q->item[i], &len);
        if (q_same(q, q->item[i].expr, n))
            return (int32_t)i;
        if (x->kind == QN_PATH && x->len == 1 && q->seg[x->at].attr == QT_FIELD &&
            q->field[q->seg[x->at].field].len == len &&
            memcmp(q->text + q->field[q->seg[x->at].field].at, name, len) == 0)
            return (int32_t)i;
    }
    return -1;
}

int q_check_aggregates(parser *p)
{
    lf_query *q = p->q;
    int32_t a;
    if ((a = find_aggregate(q, q->where, 0)) >= 0)
        return fail_aggregate(p, a, "in where");
    for (size_t g = 0; g < q->group_count; g++)
        if ((a = find_aggregate(q, q->group[g], 0)) >= 0)
            return fail_aggregate(p, a, "in group by");
    for (size_t i = 0; i < q->item_count; i++) {
        if ((a = find_aggregate(q, q->item[i].expr, 1)) >= 0)
            return fail_aggregate(p, a, "inside another value");
        if (q->node[q->item[i].expr].kind == QN_AGG)
            q->aggregate = 1;
    }
    if (q->group_count)
        q->aggregate = 1;
    return 0;
}

/* In an aggregate query every other column is a value grouped by. */
static int check_grouped(parser *p)
{
    lf_query *q = p->q;
    if (!q->aggregate)
        return 0;
    for (size_t i = 0; i < q->item_count; i++) {
        const q_node *x = &q->node[q->item[i].expr];
        size_t g = 0;
        while (x->kind != QN_AGG && g < q->group_count && !q_same(q, q->item[i].expr, q->group[g]))
            g++;
        if (x->kind != QN_AGG && g == q->group_count)
            return lx_fail(p, x->pos, "'%.*s' is neither grouped by nor an aggregate (count, sum, min, max, avg)",
                        (int)(x->end - x->pos), p->text + x->pos);
    }
    return 0;
}

static int check_order(parser *p)
{
    lf_query *q = p->q;
    if (q->order < 0)
        return 0;
    int32_t item = named_item(q, q->order);
    if (q->aggregate) {
        if (item < 0)
            return lx_fail(p, q->node[q->order].pos, "order by names a column of the result: an alias or an item "
                        "of select written the same way");
        q->order_item = item;
    } else if (find_aggregate(q, q->order, 0) >= 0) {
        return fail_aggregate(p, find_aggregate(q, q->order, 0), "in the order of a query without one");
    } else if (item >= 0) {
        q->order = q->item[item].expr;
    }
    return 0;
}

int q_check_columns(parser *p)
{
    return check_grouped(p) ? -1 : check_order(p);
}

static lf_qflavor path_flavor(const lf_query *q, const q_node *x)
{
    if (x->kind != QN_PATH)
        return LF_QF_ANY;
    switch (q->seg[x->at + x->len - 1].attr) {
    case QT_ID: return LF_QF_ID;
    case QT_SHALLOW: case QT_RETAINED: return LF_QF_BYTES;
    case QT_LENGTH: return LF_QF_COUNT;
    case QT_CLASS: case QT_TEXT: case QT_ROOT: return LF_QF_TEXT;
    default: return LF_QF_ANY;
    }
}

void q_set_flavors(lf_query *q)
{
    for (size_t i = 0; i < q->item_count; i++) {
        const q_node *x = &q->node[q->item[i].expr];
        lf_qflavor f = path_flavor(q, x);
        if (x->kind == QN_AGG) {
            lf_qflavor arg = x->a >= 0 ? path_flavor(q, &q->node[x->a]) : LF_QF_COUNT;
            f = x->op == QA_COUNT ? LF_QF_COUNT : x->op == QA_AVG ? LF_QF_REAL
                : arg == LF_QF_BYTES ? LF_QF_BYTES : LF_QF_ANY;
        }
        q->item[i].flavor = q->item[i].name && strcmp(q->item[i].name, "value") == 0 ? LF_QF_PREVIEW : f;
    }
}
