/* query_mat.c - Eclipse MAT's OQL habits (docs/QUERY.md, "Coming from
 * MAT"): the ones that mean what our language can say work (an alias after
 * the class, DISTINCT, OBJECTS, FROM OBJECTS ids, MAT's names of our
 * @attributes, a long's L); the others are an error at their place that
 * shows our way of writing it ("write: ..."), never a query that runs and
 * answers something else. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "query_parser.h"

/* --- @attributes and literals ------------------------------------------- */

uint8_t mat_attribute(const char *name, size_t len)
{
    static const struct { const char *mat; uint8_t attr; } same[] = {
        {"objectId", QT_ID}, {"objectAddress", QT_ID}, {"usedHeapSize", QT_SHALLOW},
        {"retainedHeapSize", QT_RETAINED}, {"GCRootInfo", QT_ROOT},
    };
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++)
        if (strlen(same[k].mat) == len && memcmp(same[k].mat, name, len) == 0)
            return same[k].attr;
    return MAT_NO_ATTRIBUTE;
}

/* MAT's LIKE takes a regular expression; ours a glob, in which ".*x.*"
 * matches a dot, then anything, then x and a dot. A pattern that begins
 * with ".*" is taken for MAT's, and the glob it means is shown. */
int mat_like_pattern(parser *p, int32_t right)
{
    const q_node *x = &p->q->node[right];
    const char *lit = p->q->lit + x->at;
    if (x->len < 2 || lit[0] != '.' || lit[1] != '*')
        return 0;
    char glob[200];
    size_t n = 0;
    for (size_t i = 0; i < x->len && n + 2 < sizeof glob; i++) {
        if (lit[i] == '\\' && i + 1 < x->len)
            glob[n++] = lit[++i];
        else if (lit[i] == '.' && i + 1 < x->len && (lit[i + 1] == '*' || lit[i + 1] == '+'))
            glob[n++] = '*', i++;
        else
            glob[n++] = lit[i] == '.' ? '?' : lit[i];
    }
    glob[n] = 0;
    return lx_fail(p, x->pos, "like takes a glob (* any run, ? one character), not a regular expression as "
                   "MAT's LIKE: write: like '%s'", glob);
}

/* --- method calls and functions ----------------------------------------- */

/* The text of q's literal string node n, quoted for a rewrite. */
static void quoted(const parser *p, int32_t n, const char *before, const char *after, char *buf, size_t size)
{
    if (n < 0 || p->q->node[n].kind != QN_STR) {
        snprintf(buf, size, "'%s...%s'", before, after);
        return;
    }
    const q_node *x = &p->q->node[n];
    snprintf(buf, size, "'%s%.*s%s'", before, (int)x->len, p->q->lit + x->at, after);
}

/* path.method(arg): Java's methods, which MAT's OQL calls and ours has
 * none of. The path is text[path_pos .. path_end); the current token is
 * the method's name. Always -1. */
int mat_method(parser *p, uint32_t path_pos, uint32_t path_end)
{
    const token name = p->t;
    const char *m = p->text + name.pos;
    size_t len = name.end - name.pos;
    lx_next(p); /* the name */
    lx_next(p); /* ( */
    int32_t arg = p->t.kind == T_RP ? -1 : px_parse_expr(p);
    if (p->failed)
        return -1;
    char lit[160], rewrite[240];
    const int path = (int)(path_end - path_pos);
    const char *from = p->text + path_pos;
    if (len == 10 && memcmp(m, "startsWith", len) == 0)
        quoted(p, arg, "", "*", lit, sizeof lit), snprintf(rewrite, sizeof rewrite, "%.*s like %s", path, from, lit);
    else if (len == 8 && memcmp(m, "endsWith", len) == 0)
        quoted(p, arg, "*", "", lit, sizeof lit), snprintf(rewrite, sizeof rewrite, "%.*s like %s", path, from, lit);
    else if (len == 8 && memcmp(m, "contains", len) == 0)
        quoted(p, arg, "*", "*", lit, sizeof lit), snprintf(rewrite, sizeof rewrite, "%.*s like %s", path, from, lit);
    else if (len == 6 && memcmp(m, "equals", len) == 0)
        quoted(p, arg, "", "", lit, sizeof lit), snprintf(rewrite, sizeof rewrite, "%.*s = %s", path, from, lit);
    else if ((len == 8 && memcmp(m, "toString", len) == 0) || (len == 8 && memcmp(m, "getValue", len) == 0))
        snprintf(rewrite, sizeof rewrite, "%.*s (a String compares as its text)", path, from);
    else if ((len == 6 && memcmp(m, "length", len) == 0) || (len == 4 && memcmp(m, "size", len) == 0))
        snprintf(rewrite, sizeof rewrite, "%.*s.@length", path, from);
    else
        snprintf(rewrite, sizeof rewrite, "%.*s compared with =, like 'glob*' or is null", path, from);
    return lx_fail(p, name.pos, "'%.*s' is a Java method: a query calls none; write: %s", (int)len, m, rewrite);
}

/* MAT's functions over one object, and ours for them. -1 when the current
 * token names one (after the error), 0 when it is none of them. */
int mat_function(parser *p)
{
    static const struct { const char *mat, *ours; } fns[] = {
        {"toString", "%s (a String compares as its text; %s.@text is it)"}, {"classof", "%s.@class"},
        {"dominatorof", "%s.@owner"}, {"toHex", "%s.@id (ids show in hex)"},
    };
    const token name = p->t;
    size_t k = 0, n = sizeof fns / sizeof fns[0], len = name.end - name.pos;
    while (k < n && !(strlen(fns[k].mat) == len && strncasecmp(fns[k].mat, p->text + name.pos, len) == 0))
        k++;
    if (k == n)
        return 0;
    lx_next(p); /* the name */
    lx_next(p); /* ( */
    int32_t arg = px_parse_expr(p);
    if (arg < 0)
        return -1;
    const q_node *x = &p->q->node[arg];
    char what[120], rewrite[300];
    snprintf(what, sizeof what, "%.*s", (int)(x->end - x->pos), p->text + x->pos);
    snprintf(rewrite, sizeof rewrite, fns[k].ours, what, what);
    return lx_fail(p, name.pos, "'%.*s' is MAT's: write: %s", (int)len, p->text + name.pos, rewrite);
}

/* --- select distinct, select objects ------------------------------------ */

/* Whether the current word is a keyword of MAT's select (distinct,
 * objects) and not a field of that name: a value follows it. */
static uint32_t select_word(parser *p, const char *word)
{
    if (!lx_is_word(p, word))
        return 0;
    token save = p->t;
    uint32_t prev = p->prev_end;
    lx_next(p);
    int value = p->t.kind != T_END && p->t.kind != T_COMMA && p->t.kind != T_DOT && p->t.kind != T_LB &&
                p->t.kind != T_OP && !lx_is_word(p, "from") && !lx_is_word(p, "as") && !lx_is_word(p, "where");
    if (!value)
        p->t = save, p->prev_end = prev;
    return value ? save.pos + 1 : 0;
}

int mat_select_words(parser *p)
{
    p->q->distinct = select_word(p, "distinct");
    p->q->objects = select_word(p, "objects") != 0;
    if (p->q->objects && p->t.kind == T_STAR)
        return lx_fail(p, p->t.pos, "select objects takes values, not *: write: select @id");
    return 0;
}

/* select objects: every column an object, shown as its id, not as the
 * value it stands for (a String's text). */
int mat_objects_items(parser *p)
{
    lf_query *q = p->q;
    for (size_t i = 0; q->objects && i < q->item_count; i++) {
        const q_node inner = q->node[q->item[i].expr];
        if (inner.kind == QN_AGG)
            return lx_fail(p, inner.pos, "select objects lists objects, which an aggregate is not: write: select "
                           "without objects");
        int32_t n = px_add_node(p, QN_OBJECT, inner.pos, inner.end);
        if (n < 0)
            return -1;
        q->node[n].a = q->item[i].expr;
        q->item[i].expr = n;
    }
    return 0;
}

/* select distinct A, B: group by A, B without an aggregate. */
int mat_distinct(parser *p)
{
    lf_query *q = p->q;
    if (!q->distinct)
        return 0;
    uint32_t at = q->distinct - 1;
    if (q->group_count)
        return lx_fail(p, at, "select distinct groups by its columns already: write group by alone");
    if (q->item_count > Q_MAX_GROUP)
        return lx_fail(p, at, "select distinct over more than %d columns", Q_MAX_GROUP);
    for (size_t i = 0; i < q->item_count; i++) {
        const q_node *x = &q->node[q->item[i].expr];
        if (x->kind == QN_AGG)
            return lx_fail(p, at, "distinct with an aggregate: one row per group already; write: select without "
                           "distinct");
        q->group[q->group_count++] = q->item[i].expr;
    }
    return 0;
}

/* --- from: objects by id, an alias -------------------------------------- */

/* from objects 0x1a2b, 0x3c4d: those objects. */
int mat_from_objects(parser *p)
{
    lf_query *q = p->q;
    if (p->t.kind == T_LP)
        return lx_fail(p, p->t.pos, "a query holds no query: write the inner query's where in this one");
    do {
        if (p->t.kind != T_INT)
            return lx_expected(p, "an object's id (0x7f3a) after 'from objects'");
        if (q->from_id_count >= Q_MAX_CLASSES)
            return lx_fail(p, p->t.pos, "more than %d objects in one from", Q_MAX_CLASSES);
        q->from_id[q->from_id_count] = (uint64_t)p->t.i;
        q->from_id_pos[q->from_id_count++] = p->t.pos;
        lx_next(p);
    } while (p->t.kind == T_COMMA && (lx_next(p), 1));
    return 0;
}

/* Whether path node x begins with the alias, written as a field (not in
 * backquotes, which keep a field of the alias's name). */
static int begins_with_alias(const lf_query *q, const q_node *x)
{
    const q_seg *first = &q->seg[x->at];
    if (first->attr != QT_FIELD || q->text[first->pos] == '`')
        return 0;
    const q_text *name = &q->field[first->field];
    return name->len == q->alias_len && memcmp(q->text + name->at, q->text + q->alias_at, name->len) == 0;
}

/* MAT's alias: `from Session s` makes s the object and s.f its field f. */
void mat_apply_alias(parser *p)
{
    lf_query *q = p->q;
    for (size_t n = 0; q->alias_len && n < q->node_count; n++) {
        q_node *x = &q->node[n];
        if (x->kind != QN_PATH || !begins_with_alias(q, x))
            continue;
        q->seg[x->at].attr = QT_SELF;
        if (x->len > 1)
            x->at++, x->len--; /* s.tenant is tenant */
    }
}
