/* query_eval.c - a query's expressions for one object: paths of fields and
 * @attributes, comparisons, and/or/not, the predicates prepared before the
 * pass. Recursion is over the query's expression, whose size the parser
 * caps, never over the heap. */
#include <stdlib.h>
#include <string.h>

#include "../analysis/dup_strings.h"
#include "../base/bigmem.h"
#include "../hprof/hprof_values.h"
#include "query_ast.h"

static const lf_qvalue null_value = {LF_QV_NULL, 0, 0, 0, NULL, 0, 0};

int q_eval_init(q_eval *e, const lf_query *q, const lf_snapshot *s, lf_error *err)
{
    memset(e, 0, sizeof *e);
    e->q = q;
    e->s = s;
    e->err = err;
    e->arena_cap = 1 << 16;
    if (!(e->arena = malloc(e->arena_cap)))
        return lf_fail_nomem(err, "running the query");
    return 0;
}

void q_eval_free(q_eval *e)
{
    q_eval_reset(e);
    free(e->old);
    free(e->arena);
    e->arena = NULL;
}

void q_eval_reset(q_eval *e)
{
    for (size_t b = 0; b < e->old_count; b++)
        free(e->old[b]);
    e->old_count = 0;
    e->arena_len = 0;
}

/* Room for n bytes of text kept until the next row. A full arena is set
 * aside, not moved (the row's texts point into it), until the row ends. */
char *q_eval_room(q_eval *e, size_t n)
{
    if (e->arena_len + n > e->arena_cap) {
        size_t cap = n > e->arena_cap ? n : e->arena_cap;
        char *fresh = malloc(cap);
        if (!fresh)
            return NULL;
        if (e->arena_len) {
            char **grown = realloc(e->old, (e->old_count + 1) * sizeof *grown);
            if (!grown) {
                free(fresh);
                return NULL;
            }
            e->old = grown;
            e->old[e->old_count++] = e->arena;
        } else {
            free(e->arena);
        }
        e->arena = fresh;
        e->arena_cap = cap;
        e->arena_len = 0;
    }
    char *room = e->arena + e->arena_len;
    e->arena_len += n;
    return room;
}

static uint64_t utf8_chars(const char *p, size_t len)
{
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)p[i] & 0xc0) != 0x80;
    return n;
}

static lf_qvalue attribute(q_eval *e, uint8_t attr, uint32_t obj)
{
    const lf_snapshot *s = e->s;
    lf_qvalue v = null_value;
    switch (attr) {
    case QT_ID: v.type = LF_QV_ID, v.node = obj; break;
    case QT_CLASS: {
        lf_str name = lf_snapshot_class_name(s, s->object_class[obj]);
        v.type = LF_QV_STR, v.str = name.ptr, v.len = name.len, v.chars = utf8_chars(name.ptr, name.len);
        break;
    }
    case QT_SHALLOW: v.type = LF_QV_INT, v.i = (int64_t)lf_snapshot_shallow(s, obj); break;
    case QT_RETAINED:
        if (lf_snapshot_has_retained(s))
            v.type = LF_QV_INT, v.i = (int64_t)lf_snapshot_retained(s, obj);
        break;
    case QT_OWNER:
        if (s->idom && s->idom[obj] < s->object_count)
            v.type = LF_QV_OBJ, v.node = s->idom[obj];
        break;
    case QT_ROOT: {
        uint32_t kind = q_root_kind(e->q, obj);
        if (kind != UINT32_MAX) {
            lf_str k = lf_snapshot_string(s, kind);
            v.type = LF_QV_STR, v.str = k.ptr, v.len = k.len, v.chars = utf8_chars(k.ptr, k.len);
        }
        break;
    }
    case QT_TEXT:
    case QT_LENGTH: {
        lf_qvalue text;
        const struct hprof_lazy *l = lf_hprof_lazy(s);
        lf_jobject o;
        lf_error ignored;
        if (q_object_scalar(e, obj, &text) && text.type == LF_QV_STR)
            v = attr == QT_TEXT ? text : (lf_qvalue){LF_QV_INT, (int64_t)text.chars, 0, 0, NULL, 0, 0};
        else if (attr == QT_LENGTH && l && lf_jobject_read(l, obj, &o, &ignored) == 0 &&
                 (o.kind == LF_J_OBJ_ARRAY || o.kind == LF_J_PRIM_ARRAY))
            v.type = LF_QV_INT, v.i = (int64_t)o.length;
        break;
    }
    }
    return v;
}

static lf_qvalue eval_path(q_eval *e, const q_node *x, uint32_t obj)
{
    lf_qvalue v = {LF_QV_OBJ, 0, 0, obj, NULL, 0, 0};
    for (uint32_t k = 0; k < x->len; k++) {
        const q_seg *seg = &e->q->seg[x->at + k];
        if (v.type != LF_QV_OBJ && v.type != LF_QV_ID)
            return null_value;
        uint32_t at = v.node;
        if (seg->attr == QT_SELF) {
            continue;
        } else if (seg->attr == QT_ELEMENT) {
            if (q_element(e, at, seg->field, &v))
                return null_value;
        } else if (seg->attr != QT_FIELD) {
            v = attribute(e, seg->attr, at);
        } else if (q_field(e, at, seg->field, &v)) {
            return null_value;
        }
    }
    return v;
}

lf_qvalue q_scalar(q_eval *e, lf_qvalue v)
{
    lf_qvalue plain;
    if (v.type == LF_QV_OBJ && q_object_scalar(e, v.node, &plain))
        return plain;
    return v;
}

static int rank(uint8_t type)
{
    switch (type) {
    case LF_QV_NULL: return 0;
    case LF_QV_BOOL: return 1;
    case LF_QV_INT: case LF_QV_REAL: return 2;
    case LF_QV_STR: return 3;
    default: return 4;
    }
}

static int cmp_text(const lf_qvalue *a, const lf_qvalue *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->str, b->str, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return a->chars < b->chars ? -1 : a->chars > b->chars; /* texts cut at the same place */
}

int q_compare(const lf_qvalue *a, const lf_qvalue *b)
{
    int ra = rank(a->type), rb = rank(b->type);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    switch (ra) {
    case 0: return 0;
    case 1: return (a->i > b->i) - (a->i < b->i);
    case 2:
        if (a->type == LF_QV_INT && b->type == LF_QV_INT)
            return (a->i > b->i) - (a->i < b->i);
        else {
            double x = a->type == LF_QV_INT ? (double)a->i : a->d, y = b->type == LF_QV_INT ? (double)b->i : b->d;
            return (x > y) - (x < y);
        }
    case 3: return cmp_text(a, b);
    default: return (a->node > b->node) - (a->node < b->node);
    }
}

/* Shell-style: * any run, ? one character (a byte). Iterative, with one
 * point to go back to: linear in practice, never exponential. */
int q_glob(const char *p, size_t pn, const char *s, size_t sn)
{
    size_t i = 0, j = 0, star_p = SIZE_MAX, star_s = 0;
    while (j < sn) {
        if (i < pn && (p[i] == '?' || p[i] == s[j])) {
            i++, j++;
        } else if (i < pn && p[i] == '*') {
            star_p = i++, star_s = j;
        } else if (star_p != SIZE_MAX) {
            i = star_p + 1, j = ++star_s;
        } else {
            return 0;
        }
    }
    while (i < pn && p[i] == '*')
        i++;
    return i == pn;
}

/* An object compared with a number is compared by its id. */
static lf_qvalue as_number(const q_eval *e, lf_qvalue v)
{
    if (v.type == LF_QV_OBJ || v.type == LF_QV_ID)
        return (lf_qvalue){LF_QV_INT, (int64_t)lf_snapshot_object_id(e->s, v.node), 0, 0, NULL, 0, 0};
    if (v.type == LF_QV_BOOL)
        v.type = LF_QV_INT;
    return v;
}

static int compare_op(q_eval *e, const q_node *x, uint32_t obj)
{
    lf_qvalue a = q_scalar(e, q_value_of(e, x->a, obj)), b = q_scalar(e, q_value_of(e, x->b, obj));
    if (x->op == QC_LIKE)
        return a.type == LF_QV_STR && a.chars == utf8_chars(a.str, a.len) &&
               q_glob(e->q->lit + e->q->node[x->b].at, e->q->node[x->b].len, a.str, a.len);
    int na = a.type == LF_QV_INT || a.type == LF_QV_REAL, nb = b.type == LF_QV_INT || b.type == LF_QV_REAL;
    if (na && !nb)
        b = as_number(e, b);
    else if (nb && !na)
        a = as_number(e, a);
    int same_kind = rank(a.type) == rank(b.type);
    int c = q_compare(&a, &b);
    switch (x->op) {
    case QC_EQ: return same_kind && c == 0;
    case QC_NE: return !(same_kind && c == 0);
    default:
        if (!same_kind || a.type == LF_QV_NULL || a.type == LF_QV_OBJ || a.type == LF_QV_ID)
            return 0;
        return x->op == QC_LT ? c < 0 : x->op == QC_LE ? c <= 0 : x->op == QC_GT ? c > 0 : c >= 0;
    }
}

static int truth(lf_qvalue v)
{
    return v.type == LF_QV_BOOL ? v.i != 0 : v.type != LF_QV_NULL;
}

lf_qvalue q_value_of(q_eval *e, int32_t n, uint32_t obj)
{
    const q_node *x = &e->q->node[n];
    lf_qvalue v = null_value;
    switch (x->kind) {
    case QN_INT: v.type = LF_QV_INT, v.i = x->i; break;
    case QN_REAL: v.type = LF_QV_REAL, v.d = x->d; break;
    case QN_STR:
        v.type = LF_QV_STR, v.str = e->q->lit + x->at, v.len = x->len, v.chars = utf8_chars(v.str, v.len);
        break;
    case QN_BOOL: v.type = LF_QV_BOOL, v.i = x->i; break;
    case QN_PATH: v = eval_path(e, x, obj); break;
    case QN_CALL: v.type = LF_QV_BOOL, v.i = q_bit(e->q->bitmap[x->i], obj); break;
    case QN_NOT: v.type = LF_QV_BOOL, v.i = !q_eval_true(e, x->a, obj); break;
    case QN_AND: v.type = LF_QV_BOOL, v.i = q_eval_true(e, x->a, obj) && q_eval_true(e, x->b, obj); break;
    case QN_OR: v.type = LF_QV_BOOL, v.i = q_eval_true(e, x->a, obj) || q_eval_true(e, x->b, obj); break;
    case QN_CMP: v.type = LF_QV_BOOL, v.i = compare_op(e, x, obj); break;
    case QN_IS_NULL:
        v.type = LF_QV_BOOL, v.i = (q_value_of(e, x->a, obj).type == LF_QV_NULL) != (x->op != 0);
        break;
    case QN_OBJECT: /* an ID is shown as it is, where an object shows the value it stands for */
        v = q_value_of(e, x->a, obj);
        if (v.type == LF_QV_OBJ)
            v.type = LF_QV_ID;
        break;
    default: break; /* aggregates are the run's */
    }
    return v;
}

int q_eval_true(q_eval *e, int32_t n, uint32_t obj)
{
    return truth(q_value_of(e, n, obj));
}
