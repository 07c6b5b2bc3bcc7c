/* query_parse.c - the query language's recursive-descent parser
 * (docs/QUERY.md). Recursion here is over the query's text, never the heap;
 * nesting is capped so that no input can exhaust the stack. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/vec.h"
#include "query_parser.h"

/* --- nodes ---------------------------------------------------------------- */

static int32_t add_node(parser *p, q_kind kind, uint32_t pos, uint32_t end)
{
    lf_query *q = p->q;
    if (q->node_count >= INT32_MAX - 1 ||
        lf_vec_reserve((void **)&q->node, &q->node_cap, q->node_count + 1, sizeof *q->node))
        return lx_nomem(p);
    q->node[q->node_count] = (q_node){(uint8_t)kind, 0, pos, end, -1, -1, 0, 0, 0, 0};
    return (int32_t)q->node_count++;
}

static uint32_t field_index(parser *p, uint32_t at, uint32_t len)
{
    lf_query *q = p->q;
    for (size_t f = 0; f < q->field_count; f++)
        if (q->field[f].len == len && memcmp(q->text + q->field[f].at, q->text + at, len) == 0)
            return (uint32_t)f;
    if (lf_vec_reserve((void **)&q->field, &q->field_cap, q->field_count + 1, sizeof *q->field)) {
        lx_nomem(p);
        return 0;
    }
    q->field[q->field_count] = (q_text){at, len};
    return (uint32_t)q->field_count++;
}

static int add_seg(parser *p, uint8_t attr, uint32_t field, uint32_t pos)
{
    lf_query *q = p->q;
    if (lf_vec_reserve((void **)&q->seg, &q->seg_cap, q->seg_count + 1, sizeof *q->seg))
        return lx_nomem(p);
    q->seg[q->seg_count++] = (q_seg){attr, field, pos};
    return 0;
}

static int add_class(parser *p, uint32_t at, uint32_t len, uint32_t pos, int subclasses, int quoted)
{
    lf_query *q = p->q;
    if (q->cls_count >= Q_MAX_CLASSES)
        return lx_fail(p, pos, "more than %d class names in one query", Q_MAX_CLASSES);
    q->cls[q->cls_count] = (lf_qclass){q->text + at, len, pos, subclasses, quoted};
    return (int)q->cls_count++;
}

/* --- expressions ---------------------------------------------------------- */

static int32_t parse_expr(parser *p);

static const struct { const char *name; uint8_t attr; } attrs[] = {
    {"id", QT_ID}, {"class", QT_CLASS}, {"shallow", QT_SHALLOW}, {"retained", QT_RETAINED},
    {"length", QT_LENGTH}, {"text", QT_TEXT}, {"root", QT_ROOT}, {"owner", QT_OWNER},
};

/* [N]: an element, by its index. */
static int parse_index(parser *p)
{
    uint32_t pos = p->t.pos;
    lx_next(p); /* [ */
    if (p->t.kind != T_INT || p->t.i < 0 || p->t.i > UINT32_MAX - 1)
        return lx_expected(p, "an element's index (0, 1, ...)");
    uint32_t index = (uint32_t)p->t.i;
    lx_next(p);
    if (p->t.kind != T_RB)
        return lx_expected(p, "']'");
    lx_next(p);
    return add_seg(p, QT_ELEMENT, index, pos);
}

static int parse_segment(parser *p)
{
    const token t = p->t;
    if (t.kind == T_LB)
        return parse_index(p);
    if (t.kind == T_ATTR) {
        uint8_t attr = mat_attribute(p->text + t.pos + 1, t.end - t.pos - 1); /* @usedHeapSize: @shallow */
        for (size_t k = 0; k < sizeof attrs / sizeof attrs[0]; k++)
            if (strlen(attrs[k].name) == t.end - t.pos - 1 &&
                memcmp(attrs[k].name, p->text + t.pos + 1, t.end - t.pos - 1) == 0)
                attr = attrs[k].attr;
        if (attr != MAT_NO_ATTRIBUTE) {
            lx_next(p);
            return add_seg(p, attr, 0, t.pos);
        }
        return lx_fail(p, t.pos, "unknown attribute '%.*s' (@id, @class, @shallow, @retained, @length, @text, "
                    "@root, @owner)", (int)(t.end - t.pos), p->text + t.pos);
    }
    if (t.kind != T_IDENT || lx_is_keyword(p))
        return lx_expected(p, "a field name or an @attribute");
    uint32_t at = t.pos + t.quoted, len = t.end - t.pos - 2 * (uint32_t)t.quoted;
    uint32_t f = field_index(p, at, len);
    lx_next(p);
    return p->failed ? -1 : add_seg(p, QT_FIELD, f, t.pos);
}

static int32_t parse_path(parser *p)
{
    uint32_t pos = p->t.pos;
    int32_t n = add_node(p, QN_PATH, pos, pos);
    if (n < 0)
        return -1;
    p->q->node[n].at = (uint32_t)p->q->seg_count;
    do {
        if (p->q->node[n].len > 0 && p->t.kind == T_IDENT && !p->t.quoted) { /* name.startsWith('x') */
            token save = p->t;
            uint32_t dot_end = p->prev_end;
            lx_next(p);
            int call = p->t.kind == T_LP;
            p->t = save, p->prev_end = dot_end;
            if (call)
                return mat_method(p, pos, dot_end - 1);
        }
        if (parse_segment(p))
            return -1;
        p->q->node[n].len++;
        while (p->t.kind == T_LB) { /* field[N] */
            if (parse_index(p))
                return -1;
            p->q->node[n].len++;
        }
    } while (p->t.kind == T_DOT && (lx_next(p), 1));
    p->q->node[n].end = p->prev_end;
    return n;
}

/* A class name as written after from, instanceof or in owned_by(): a quoted
 * string or a run of anything but blanks, commas and parentheses (byte[],
 * java.util.HashMap$Node, *Listener). */
static int parse_class_name(parser *p, int subclasses)
{
    uint32_t pos = p->t.pos;
    if (p->t.kind == T_STR) {
        uint32_t at = p->t.pos + 1, len = p->t.end - p->t.pos - 2;
        lx_next(p);
        return add_class(p, at, len, pos, subclasses, 1);
    }
    uint32_t end = pos;
    while (end < p->len && !isspace((unsigned char)p->text[end]) && !strchr(",()'\"", p->text[end]))
        end++;
    if (end == pos || p->t.kind == T_END || (p->t.kind == T_IDENT && lx_is_keyword(p)))
        return lx_expected(p, "a class name");
    int c = add_class(p, pos, end - pos, pos, subclasses, 0);
    p->t.end = end;
    lx_next(p);
    return c;
}

static int32_t parse_call(parser *p)
{
    static const struct { const char *name; uint8_t kind, op; } fns[] = {
        {"count", QN_AGG, QA_COUNT}, {"sum", QN_AGG, QA_SUM}, {"min", QN_AGG, QA_MIN},
        {"max", QN_AGG, QA_MAX}, {"avg", QN_AGG, QA_AVG}, {"reachable", QN_CALL, QF_REACHABLE},
        {"owned_by", QN_CALL, QF_OWNED_BY}, {"rooted", QN_CALL, QF_ROOTED},
    };
    const token name = p->t;
    size_t k = 0, n = sizeof fns / sizeof fns[0];
    while (k < n && !(strlen(fns[k].name) == name.end - name.pos &&
                      strncasecmp(fns[k].name, p->text + name.pos, name.end - name.pos) == 0))
        k++;
    if (k == n && mat_function(p))
        return -1;
    if (k == n)
        return lx_fail(p, name.pos, "unknown function '%.*s' (count, sum, min, max, avg, reachable, owned_by, "
                    "rooted)", (int)(name.end - name.pos), p->text + name.pos);
    int32_t c = add_node(p, fns[k].kind, name.pos, name.pos);
    if (c < 0)
        return -1;
    p->q->node[c].op = fns[k].op;
    lx_next(p); /* the name */
    lx_next(p); /* ( */
    int32_t arg = -1;
    if (fns[k].op == QF_OWNED_BY && fns[k].kind == QN_CALL) {
        int cls = parse_class_name(p, 0);
        if (cls < 0)
            return -1;
        p->q->node[c].i = cls;
    } else if (fns[k].kind == QN_CALL) {
        if (p->t.kind != T_STR)
            return lx_expected(p, "a root kind in quotes (\"static field\", \"thread\", ...)");
        if (lx_string_value(p))
            return -1;
        if ((arg = add_node(p, QN_STR, p->t.pos, p->t.end)) < 0)
            return -1;
        p->q->node[arg].at = (uint32_t)p->t.i;
        p->q->node[arg].len = (uint32_t)p->t.d;
        lx_next(p);
    } else if (fns[k].op == QA_COUNT && (p->t.kind == T_STAR || p->t.kind == T_RP || lx_is_keyword(p))) {
        if (p->t.kind == T_STAR)
            lx_next(p);
    } else {
        if (p->t.kind == T_RP)
            return lx_expected(p, "a value to aggregate");
        if ((arg = parse_expr(p)) < 0)
            return -1;
    }
    if (p->t.kind != T_RP)
        return lx_expected(p, "')'");
    p->q->node[c].a = arg;
    p->q->node[c].end = p->t.end;
    lx_next(p);
    return c;
}

static int32_t parse_primary(parser *p)
{
    const token t = p->t;
    int32_t n;
    switch (t.kind) {
    case T_INT:
    case T_REAL:
        if ((n = add_node(p, t.kind == T_INT ? QN_INT : QN_REAL, t.pos, t.end)) >= 0)
            p->q->node[n].i = t.i, p->q->node[n].d = t.d;
        lx_next(p);
        return n;
    case T_STR:
        if (lx_string_value(p))
            return -1;
        if ((n = add_node(p, QN_STR, t.pos, t.end)) >= 0)
            p->q->node[n].at = (uint32_t)t.i, p->q->node[n].len = (uint32_t)t.d;
        lx_next(p);
        return n;
    case T_LP: /* parse_expr counts the depth */
        lx_next(p);
        n = parse_expr(p);
        if (n >= 0 && p->t.kind != T_RP)
            return lx_expected(p, "')'");
        lx_next(p);
        return n;
    case T_ATTR:
    case T_LB:
        return parse_path(p);
    case T_IDENT:
        if (lx_is_word(p, "null") || lx_is_word(p, "true") || lx_is_word(p, "false")) {
            int is_null = lx_is_word(p, "null");
            if ((n = add_node(p, is_null ? QN_NULL : QN_BOOL, t.pos, t.end)) >= 0)
                p->q->node[n].i = lx_is_word(p, "true");
            lx_next(p);
            return n;
        }
        if (!t.quoted && !lx_is_keyword(p)) {
            token save = p->t;
            lx_next(p);
            int call = p->t.kind == T_LP;
            p->t = save;
            if (call)
                return parse_call(p);
            return parse_path(p);
        }
        if (t.quoted)
            return parse_path(p);
        break;
    default:
        break;
    }
    return lx_expected(p, "a value: a field, an @attribute, a number, a string, null or '('");
}

static int32_t parse_comparison(parser *p)
{
    int32_t left = parse_primary(p);
    if (left < 0)
        return -1;
    uint32_t pos = p->t.pos;
    uint8_t op;
    if (lx_is_word(p, "is")) {
        lx_next(p);
        int negate = lx_accept_word(p, "not");
        if (!lx_accept_word(p, "null"))
            return lx_expected(p, "'null'");
        int32_t n = add_node(p, QN_IS_NULL, p->q->node[left].pos, p->prev_end);
        if (n >= 0)
            p->q->node[n].a = left, p->q->node[n].op = (uint8_t)negate;
        return n;
    }
    if (p->t.kind == T_OP)
        op = p->t.op;
    else if (lx_is_word(p, "like"))
        op = QC_LIKE;
    else
        return left;
    lx_next(p);
    int32_t right = parse_primary(p);
    if (right < 0)
        return -1;
    if (op == QC_LIKE && p->q->node[right].kind != QN_STR)
        return lx_fail(p, p->q->node[right].pos, "like takes a pattern in quotes (* and ? as in a shell)");
    if (op == QC_LIKE && mat_like_pattern(p, right))
        return -1;
    int32_t n = add_node(p, QN_CMP, p->q->node[left].pos, p->q->node[right].end);
    if (n >= 0)
        p->q->node[n].a = left, p->q->node[n].b = right, p->q->node[n].op = op;
    (void)pos;
    return n;
}

static int32_t parse_not(parser *p)
{
    if (!lx_is_word(p, "not"))
        return parse_comparison(p);
    uint32_t pos = p->t.pos;
    if (++p->depth > MAX_DEPTH)
        return lx_fail(p, pos, "'not' nested more than %d deep", MAX_DEPTH);
    lx_next(p);
    int32_t a = parse_not(p);
    p->depth--;
    if (a < 0)
        return -1;
    int32_t n = add_node(p, QN_NOT, pos, p->q->node[a].end);
    if (n >= 0)
        p->q->node[n].a = a;
    return n;
}

static int32_t parse_binary(parser *p, const char *word, q_kind kind, int32_t (*operand)(parser *))
{
    int32_t left = operand(p);
    while (left >= 0 && lx_is_word(p, word)) {
        lx_next(p);
        int32_t right = operand(p);
        if (right < 0)
            return -1;
        int32_t n = add_node(p, kind, p->q->node[left].pos, p->q->node[right].end);
        if (n >= 0)
            p->q->node[n].a = left, p->q->node[n].b = right;
        left = n;
    }
    return left;
}

static int32_t parse_and(parser *p) { return parse_binary(p, "and", QN_AND, parse_not); }

static int32_t parse_expr(parser *p)
{
    if (++p->depth > MAX_DEPTH)
        return lx_fail(p, p->t.pos, "the query is nested more than %d deep", MAX_DEPTH);
    int32_t n = parse_binary(p, "or", QN_OR, parse_and);
    p->depth--;
    return n;
}

int32_t px_add_node(parser *p, q_kind kind, uint32_t pos, uint32_t end)
{
    return add_node(p, kind, pos, end);
}

int32_t px_parse_expr(parser *p)
{
    return parse_expr(p);
}

/* --- clauses -------------------------------------------------------------- */


static int32_t star_column(parser *p, uint8_t attr)
{
    int32_t n = add_node(p, QN_PATH, p->t.pos, p->t.pos);
    if (n < 0 || add_seg(p, attr, 0, p->t.pos))
        return -1;
    p->q->node[n].at = (uint32_t)p->q->seg_count - 1;
    p->q->node[n].len = 1;
    return n;
}

static int add_item(parser *p, int32_t expr, uint32_t at, uint32_t len, const char *name)
{
    lf_query *q = p->q;
    if (q->item_count >= Q_MAX_ITEMS)
        return lx_fail(p, at, "more than %d columns", Q_MAX_ITEMS);
    q->item[q->item_count++] = (q_item){expr, at, len, name, LF_QF_ANY};
    return 0;
}

/* `*`: what `dominators --flat` shows of an object. */
static int star_items(parser *p)
{
    static const struct { uint8_t attr; const char *name; } cols[] = {
        {QT_ID, "id"}, {QT_CLASS, "class"}, {QT_SHALLOW, "shallow"}, {QT_RETAINED, "retained"},
        {QT_TEXT, "value"},
    };
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
        int32_t n = star_column(p, cols[c].attr);
        if (n < 0 || add_item(p, n, 0, 0, cols[c].name))
            return -1;
    }
    return 0;
}

static int parse_items(parser *p)
{
    if (p->t.kind == T_STAR) {
        lx_next(p);
        return star_items(p);
    }
    do {
        uint32_t pos = p->t.pos;
        int32_t e = parse_expr(p);
        if (e < 0)
            return -1;
        uint32_t end = p->prev_end;
        if (end - pos > 2 && p->text[pos] == '`' && p->text[end - 1] == '`' && p->q->node[e].kind == QN_PATH &&
            p->q->node[e].len == 1) /* `order` is the field order */
            pos++, end--;
        if (lx_accept_word(p, "as")) {
            if (p->t.kind != T_IDENT || lx_is_keyword(p))
                return lx_expected(p, "a column name after 'as'");
            pos = p->t.pos + p->t.quoted, end = p->t.end - p->t.quoted;
            lx_next(p);
        }
        if (add_item(p, e, pos, end - pos, NULL))
            return -1;
    } while (p->t.kind == T_COMMA && (lx_next(p), 1));
    return 0;
}

/* from CLASSES ALIAS, from CLASSES as ALIAS (MAT's): the alias names the
 * object in paths (query_mat.c). */
static int parse_alias(parser *p)
{
    int as = lx_accept_word(p, "as");
    if (p->t.kind != T_IDENT || p->t.quoted || lx_is_keyword(p))
        return as ? lx_expected(p, "a name for the object after 'as'") : 0;
    p->q->alias_at = p->t.pos;
    p->q->alias_len = p->t.end - p->t.pos;
    lx_next(p);
    return 0;
}

static int parse_from(parser *p)
{
    if (lx_is_word(p, "objects")) { /* MAT's objects by id, unless a class is named objects */
        token save = p->t;
        lx_next(p);
        if (p->t.kind == T_INT || p->t.kind == T_LP)
            return mat_from_objects(p) || parse_alias(p);
        p->t = save;
    }
    uint32_t after = p->t.end;
    int glob = after < p->len && !isspace((unsigned char)p->text[after]) && !strchr(",()", p->text[after]);
    if (p->t.kind == T_STAR && !glob) { /* '*' alone: every object; *Session is a glob */
        lx_next(p);
        return parse_alias(p);
    }
    do {
        int sub = lx_accept_word(p, "instanceof");
        if (parse_class_name(p, sub) < 0)
            return -1;
        p->q->from_count++;
    } while (p->t.kind == T_COMMA && (lx_next(p), 1));
    return parse_alias(p);
}

static int parse_group_by(parser *p)
{
    do {
        if (p->q->group_count >= Q_MAX_GROUP)
            return lx_fail(p, p->t.pos, "more than %d values to group by", Q_MAX_GROUP);
        int32_t e = parse_expr(p);
        if (e < 0)
            return -1;
        p->q->group[p->q->group_count++] = e;
    } while (p->t.kind == T_COMMA && (lx_next(p), 1));
    return 0;
}

static int parse_clauses(parser *p)
{
    lf_query *q = p->q;
    uint32_t start = p->t.pos;
    if (lx_accept_word(p, "select") && (mat_select_words(p) || parse_items(p) || mat_objects_items(p)))
        return -1;
    if (lx_accept_word(p, "from") && parse_from(p))
        return -1;
    if (lx_accept_word(p, "where") && (q->where = parse_expr(p)) < 0)
        return -1;
    if (lx_accept_word(p, "group") && (lx_expect_word(p, "by") || parse_group_by(p)))
        return -1;
    if (lx_accept_word(p, "order")) {
        if (lx_expect_word(p, "by") || (q->order = parse_expr(p)) < 0)
            return -1;
        q->order_desc = lx_accept_word(p, "desc");
        if (!q->order_desc)
            lx_accept_word(p, "asc");
    }
    if (lx_accept_word(p, "limit")) {
        if (p->t.kind != T_INT)
            return lx_expected(p, "a number of rows after 'limit'");
        q->limit = (uint64_t)p->t.i;
        lx_next(p);
    }
    if (p->t.kind != T_END)
        return lx_expected(p, p->t.pos > start ? "the next clause (where, group by, order by, limit) or the end"
                                         : "a query: select, from or where");
    return 0;
}

/* A query without select lists the objects, or with group by its groups
 * and their counts. */
static int default_items(parser *p)
{
    lf_query *q = p->q;
    if (q->item_count)
        return 0;
    if (!q->group_count)
        return star_items(p);
    for (size_t g = 0; g < q->group_count; g++) {
        const q_node *x = &q->node[q->group[g]];
        if (add_item(p, q->group[g], x->pos, x->end - x->pos, NULL))
            return -1;
    }
    int32_t n = add_node(p, QN_AGG, 0, 0);
    if (n < 0)
        return -1;
    q->node[n].op = QA_COUNT;
    return add_item(p, n, 0, 0, "count");
}

enum { MAX_NODES = 4096 };

int lf_query_parse(const char *text, size_t len, lf_query **out, lf_error *err)
{
    *out = NULL;
    if (len > UINT32_MAX / 2)
        return q_fail(err, 0, "the query is longer than 2 GiB");
    lf_query *q = calloc(1, sizeof *q);
    if (!q || !(q->text = malloc(len + 1))) {
        free(q);
        return lf_fail_nomem(err, "parsing the query");
    }
    memcpy(q->text, text, len);
    q->text[len] = 0;
    q->text_len = len;
    q->where = q->order = q->order_item = -1;
    /* literals are never NULL, so that an empty one is a place in them */
    if (lf_vec_reserve((void **)&q->lit, &q->lit_cap, 16, 1)) {
        free(q->text);
        free(q);
        return lf_fail_nomem(err, "parsing the query");
    }
    q->limit = UINT64_MAX;
    parser p = {q, q->text, (uint32_t)len, {T_END, 0, 0, 0, 0, 0, 0, 0}, 0, 0, err, 0};
    lx_next(&p);
    if (p.t.kind == T_END && !p.failed)
        lx_fail(&p, p.t.pos, "an empty query: try 'select count() from CLASS' (see leakfind query -h)");
    if (!p.failed && !parse_clauses(&p))
        mat_apply_alias(&p);
    if (!p.failed)
        mat_distinct(&p);
    if (!p.failed && q->node_count > MAX_NODES)
        lx_fail(&p, 0, "the query has more than %d parts", MAX_NODES);
    if (!p.failed && !q_check_aggregates(&p) && !default_items(&p))
        q_check_columns(&p);
    if (p.failed) {
        lf_query_free(q);
        return -1;
    }
    q_set_flavors(q);
    *out = q;
    return 0;
}
