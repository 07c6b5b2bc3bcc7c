/* query_parse.c - the query language's lexer and recursive-descent parser
 * (docs/QUERY.md). Recursion here is over the query's text, never the heap;
 * nesting is capped so that no input can exhaust the stack. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/vec.h"
#include "query_ast.h"

enum { MAX_DEPTH = 64 };

typedef enum tok_kind {
    T_END, T_IDENT, T_ATTR, T_INT, T_REAL, T_STR, T_LP, T_RP, T_COMMA, T_DOT, T_STAR, T_OP, T_BAD
} tok_kind;

typedef struct token {
    tok_kind kind;
    uint32_t pos, end;      /* text[pos .. end) */
    int64_t i;
    double d;
    uint8_t op;             /* T_OP: q_cmp */
    int quoted;             /* T_IDENT written `so` (never a keyword) */
} token;

typedef struct parser {
    lf_query *q;
    const char *text;
    uint32_t len;
    token t;                /* the current token */
    uint32_t prev_end;      /* where the token before it ends */
    int depth;
    lf_error *err;
    int failed;
} parser;

int q_fail(lf_error *err, uint32_t pos, const char *fmt, ...)
{
    memset(err, 0, sizeof *err);
    err->kind = LF_ERR_INPUT;
    err->where = LF_WHERE_OFFSET;
    err->position = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    va_end(ap);
    return -1;
}

/* The first failure wins: later ones are its echoes. */
static int fail(parser *p, uint32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *p, uint32_t pos, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = 1;
    memset(p->err, 0, sizeof *p->err);
    p->err->kind = LF_ERR_INPUT;
    p->err->where = LF_WHERE_OFFSET;
    p->err->position = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->reason, sizeof p->err->reason, fmt, ap);
    va_end(ap);
    return -1;
}

static int nomem(parser *p)
{
    if (!p->failed)
        lf_fail_nomem(p->err, "parsing the query");
    p->failed = 1;
    return -1;
}

/* --- lexer ---------------------------------------------------------------- */

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* A size suffix after a number: K, KB, KiB (1024) and so on; 0: none. */
static int64_t size_unit(const char *s, uint32_t n)
{
    static const char units[] = "KMGT";
    for (int u = 0; u < 4; u++) {
        if (n == 0 || toupper((unsigned char)s[0]) != units[u])
            continue;
        if (n == 1 || (n == 2 && toupper((unsigned char)s[1]) == 'B') ||
            (n == 3 && s[1] == 'i' && toupper((unsigned char)s[2]) == 'B'))
            return (int64_t)1 << (10 * (u + 1));
    }
    return 0;
}

static void lex_number(parser *p, token *t, uint32_t at)
{
    const char *s = p->text;
    uint32_t i = at, end;
    if (s[i] == '0' && i + 1 < p->len && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        uint64_t v = 0;
        for (i += 2; i < p->len && isxdigit((unsigned char)s[i]); i++) {
            if (v >> 60)
                t->kind = T_BAD;
            v = v << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10));
        }
        if (t->kind != T_BAD)
            t->kind = i > at + 2 ? T_INT : T_BAD;
        t->i = (int64_t)v;
        t->end = i;
        return;
    }
    int real = 0;
    for (; i < p->len && isdigit((unsigned char)s[i]); i++)
        ;
    if (i + 1 < p->len && s[i] == '.' && isdigit((unsigned char)s[i + 1]))
        for (real = 1, i++; i < p->len && isdigit((unsigned char)s[i]); i++)
            ;
    if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
        uint32_t j = i + 1;
        if (j < p->len && (s[j] == '+' || s[j] == '-'))
            j++;
        if (j < p->len && isdigit((unsigned char)s[j])) {
            for (i = j; i < p->len && isdigit((unsigned char)s[i]); i++)
                ;
            real = 1;
        }
    }
    char buf[64];
    uint32_t n = i - at < sizeof buf - 1 ? i - at : (uint32_t)sizeof buf - 1;
    memcpy(buf, s + at, n);
    buf[n] = 0;
    double d = strtod(buf, NULL);
    for (end = i; end < p->len && isalpha((unsigned char)s[end]); end++)
        ;
    int64_t unit = 1;
    if (end > i && !(unit = size_unit(s + i, end - i))) {
        t->kind = T_BAD;
        t->end = end;
        return;
    }
    d *= (double)unit;
    t->end = end;
    t->d = d;
    if (!real || unit > 1) {
        t->kind = d < 9.2e18 ? T_INT : T_BAD;
        t->i = t->kind == T_INT ? (int64_t)d : 0;
    } else {
        t->kind = T_REAL;
    }
}

/* A quoted literal's bytes, escapes undone, into the query's literals. */
static void lex_string(parser *p, token *t, uint32_t at)
{
    const char *s = p->text;
    char quote = s[at];
    uint32_t i = at + 1;
    t->i = (int64_t)p->q->lit_len;
    for (; i < p->len && s[i] != quote; i++) {
        char c = s[i];
        if (c == '\\') {
            if (++i >= p->len)
                break;
            switch (s[i]) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '0': c = '\0'; break;
            case '\\': case '"': case '\'': c = s[i]; break;
            default:
                fail(p, i - 1, "unknown escape '\\%c' in a string (\\\\, \\\", \\', \\n, \\t, \\r, \\0)", s[i]);
                t->kind = T_BAD;
                t->end = i + 1;
                return;
            }
        }
        if (lf_vec_reserve((void **)&p->q->lit, &p->q->lit_cap, p->q->lit_len + 2, 1)) {
            nomem(p);
            t->kind = T_BAD;
            return;
        }
        p->q->lit[p->q->lit_len++] = c;
    }
    if (i >= p->len) {
        fail(p, at, "a string that does not end: no closing %c", quote);
        t->kind = T_BAD;
        t->end = p->len;
        return;
    }
    t->kind = T_STR;
    t->d = (double)(p->q->lit_len - (size_t)t->i);
    t->end = i + 1;
}

static void lex_op(parser *p, token *t, uint32_t at)
{
    const char *s = p->text;
    char c = s[at], n = at + 1 < p->len ? s[at + 1] : 0;
    t->kind = T_OP;
    t->end = at + 1;
    if (c == '=') {
        t->op = QC_EQ;
        t->end += n == '=';
    } else if (c == '!' && n == '=') {
        t->op = QC_NE, t->end++;
    } else if (c == '<') {
        t->op = n == '=' ? QC_LE : n == '>' ? QC_NE : QC_LT;
        t->end += n == '=' || n == '>';
    } else if (c == '>') {
        t->op = n == '=' ? QC_GE : QC_GT;
        t->end += n == '=';
    } else {
        t->kind = T_BAD;
    }
}

static void next(parser *p)
{
    const char *s = p->text;
    uint32_t i = p->t.end;
    p->prev_end = p->t.end;
    while (i < p->len && isspace((unsigned char)s[i]))
        i++;
    token t = {T_END, i, i, 0, 0, 0, 0};
    if (i >= p->len) {
        p->t = t;
        return;
    }
    char c = s[i];
    t.end = i + 1;
    if (ident_start((unsigned char)c)) {
        for (t.end = i; t.end < p->len && ident_char((unsigned char)s[t.end]); t.end++)
            ;
        t.kind = T_IDENT;
    } else if (c == '`') {
        const char *close = memchr(s + i + 1, '`', p->len - i - 1);
        t.kind = close && close > s + i + 1 ? T_IDENT : T_BAD;
        t.quoted = 1;
        t.end = close ? (uint32_t)(close - s) + 1 : p->len;
    } else if (c == '@') {
        for (t.end = i + 1; t.end < p->len && ident_char((unsigned char)s[t.end]); t.end++)
            ;
        t.kind = t.end > i + 1 ? T_ATTR : T_BAD;
    } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < p->len && isdigit((unsigned char)s[i + 1]))) {
        lex_number(p, &t, i);
    } else if (c == '-' && i + 1 < p->len && (isdigit((unsigned char)s[i + 1]) || s[i + 1] == '.')) {
        lex_number(p, &t, i + 1);
        t.pos = i;
        t.i = -t.i, t.d = -t.d;
    } else if (c == '"' || c == '\'') {
        lex_string(p, &t, i);
    } else if (c == '(' || c == ')' || c == ',' || c == '.' || c == '*') {
        t.kind = c == '(' ? T_LP : c == ')' ? T_RP : c == ',' ? T_COMMA : c == '.' ? T_DOT : T_STAR;
    } else {
        lex_op(p, &t, i);
    }
    p->t = t;
}

static int is_word(const parser *p, const char *word)
{
    size_t n = strlen(word);
    return p->t.kind == T_IDENT && !p->t.quoted && p->t.end - p->t.pos == n &&
           strncasecmp(p->text + p->t.pos, word, n) == 0;
}

static const char *const keywords[] = {"select", "from", "where", "group", "by", "order", "asc", "desc",
                                       "limit", "and", "or", "not", "null", "true", "false", "instanceof",
                                       "as", "like", "is", NULL};

static int is_keyword(const parser *p)
{
    for (int k = 0; keywords[k]; k++)
        if (is_word(p, keywords[k]))
            return 1;
    return 0;
}

/* What the current token is, for "found ...". */
static void describe(const parser *p, char *buf, size_t size)
{
    const token *t = &p->t;
    if (t->kind == T_END) {
        snprintf(buf, size, "the end of the query");
        return;
    }
    uint32_t n = t->end - t->pos;
    snprintf(buf, size, "'%.*s'", (int)(n < 40 ? n : 40), p->text + t->pos);
}

static int expected(parser *p, const char *what)
{
    char found[64];
    describe(p, found, sizeof found);
    if (p->t.kind == T_BAD && !p->failed)
        return fail(p, p->t.pos, "%s is not a token the query language has (expected %s)", found, what);
    return fail(p, p->t.pos, "expected %s, found %s", what, found);
}

static int accept_word(parser *p, const char *word)
{
    if (!is_word(p, word))
        return 0;
    next(p);
    return 1;
}

static int expect_word(parser *p, const char *word)
{
    if (accept_word(p, word))
        return 0;
    char what[32];
    snprintf(what, sizeof what, "'%s'", word);
    return expected(p, what);
}

/* --- nodes ---------------------------------------------------------------- */

static int32_t add_node(parser *p, q_kind kind, uint32_t pos, uint32_t end)
{
    lf_query *q = p->q;
    if (q->node_count >= INT32_MAX - 1 ||
        lf_vec_reserve((void **)&q->node, &q->node_cap, q->node_count + 1, sizeof *q->node))
        return nomem(p);
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
        nomem(p);
        return 0;
    }
    q->field[q->field_count] = (q_text){at, len};
    return (uint32_t)q->field_count++;
}

static int add_seg(parser *p, uint8_t attr, uint32_t field, uint32_t pos)
{
    lf_query *q = p->q;
    if (lf_vec_reserve((void **)&q->seg, &q->seg_cap, q->seg_count + 1, sizeof *q->seg))
        return nomem(p);
    q->seg[q->seg_count++] = (q_seg){attr, field, pos};
    return 0;
}

static int add_class(parser *p, uint32_t at, uint32_t len, uint32_t pos, int subclasses)
{
    lf_query *q = p->q;
    if (q->cls_count >= Q_MAX_CLASSES)
        return fail(p, pos, "more than %d class names in one query", Q_MAX_CLASSES);
    q->cls[q->cls_count] = (lf_qclass){q->text + at, len, pos, subclasses};
    return (int)q->cls_count++;
}

/* --- expressions ---------------------------------------------------------- */

static int32_t parse_expr(parser *p);

static const struct { const char *name; uint8_t attr; } attrs[] = {
    {"id", QT_ID}, {"class", QT_CLASS}, {"shallow", QT_SHALLOW}, {"retained", QT_RETAINED},
    {"length", QT_LENGTH}, {"text", QT_TEXT}, {"root", QT_ROOT}, {"owner", QT_OWNER},
};

static int parse_segment(parser *p)
{
    const token t = p->t;
    if (t.kind == T_ATTR) {
        for (size_t k = 0; k < sizeof attrs / sizeof attrs[0]; k++)
            if (strlen(attrs[k].name) == t.end - t.pos - 1 &&
                memcmp(attrs[k].name, p->text + t.pos + 1, t.end - t.pos - 1) == 0) {
                next(p);
                return add_seg(p, attrs[k].attr, 0, t.pos);
            }
        return fail(p, t.pos, "unknown attribute '%.*s' (@id, @class, @shallow, @retained, @length, @text, "
                    "@root, @owner)", (int)(t.end - t.pos), p->text + t.pos);
    }
    if (t.kind != T_IDENT || is_keyword(p))
        return expected(p, "a field name or an @attribute");
    uint32_t at = t.pos + t.quoted, len = t.end - t.pos - 2 * (uint32_t)t.quoted;
    uint32_t f = field_index(p, at, len);
    next(p);
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
        if (parse_segment(p))
            return -1;
        p->q->node[n].len++;
    } while (p->t.kind == T_DOT && (next(p), 1));
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
        next(p);
        return add_class(p, at, len, pos, subclasses);
    }
    uint32_t end = pos;
    while (end < p->len && !isspace((unsigned char)p->text[end]) && !strchr(",()'\"", p->text[end]))
        end++;
    if (end == pos || p->t.kind == T_END || (p->t.kind == T_IDENT && is_keyword(p)))
        return expected(p, "a class name");
    int c = add_class(p, pos, end - pos, pos, subclasses);
    p->t.end = end;
    next(p);
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
    if (k == n)
        return fail(p, name.pos, "unknown function '%.*s' (count, sum, min, max, avg, reachable, owned_by, "
                    "rooted)", (int)(name.end - name.pos), p->text + name.pos);
    int32_t c = add_node(p, fns[k].kind, name.pos, name.pos);
    if (c < 0)
        return -1;
    p->q->node[c].op = fns[k].op;
    next(p); /* the name */
    next(p); /* ( */
    int32_t arg = -1;
    if (fns[k].op == QF_OWNED_BY && fns[k].kind == QN_CALL) {
        int cls = parse_class_name(p, 0);
        if (cls < 0)
            return -1;
        p->q->node[c].i = cls;
    } else if (fns[k].kind == QN_CALL) {
        if (p->t.kind != T_STR)
            return expected(p, "a root kind in quotes (\"static field\", \"thread\", ...)");
        if ((arg = add_node(p, QN_STR, p->t.pos, p->t.end)) < 0)
            return -1;
        p->q->node[arg].at = (uint32_t)p->t.i;
        p->q->node[arg].len = (uint32_t)p->t.d;
        next(p);
    } else if (fns[k].op == QA_COUNT && (p->t.kind == T_STAR || p->t.kind == T_RP || is_keyword(p))) {
        if (p->t.kind == T_STAR)
            next(p);
    } else {
        if (p->t.kind == T_RP)
            return expected(p, "a value to aggregate");
        if ((arg = parse_expr(p)) < 0)
            return -1;
    }
    if (p->t.kind != T_RP)
        return expected(p, "')'");
    p->q->node[c].a = arg;
    p->q->node[c].end = p->t.end;
    next(p);
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
        next(p);
        return n;
    case T_STR:
        if ((n = add_node(p, QN_STR, t.pos, t.end)) >= 0)
            p->q->node[n].at = (uint32_t)t.i, p->q->node[n].len = (uint32_t)t.d;
        next(p);
        return n;
    case T_LP: /* parse_expr counts the depth */
        next(p);
        n = parse_expr(p);
        if (n >= 0 && p->t.kind != T_RP)
            return expected(p, "')'");
        next(p);
        return n;
    case T_ATTR:
        return parse_path(p);
    case T_IDENT:
        if (is_word(p, "null") || is_word(p, "true") || is_word(p, "false")) {
            int is_null = is_word(p, "null");
            if ((n = add_node(p, is_null ? QN_NULL : QN_BOOL, t.pos, t.end)) >= 0)
                p->q->node[n].i = is_word(p, "true");
            next(p);
            return n;
        }
        if (!t.quoted && !is_keyword(p)) {
            token save = p->t;
            next(p);
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
    return expected(p, "a value: a field, an @attribute, a number, a string, null or '('");
}

static int32_t parse_comparison(parser *p)
{
    int32_t left = parse_primary(p);
    if (left < 0)
        return -1;
    uint32_t pos = p->t.pos;
    uint8_t op;
    if (is_word(p, "is")) {
        next(p);
        int negate = accept_word(p, "not");
        if (!accept_word(p, "null"))
            return expected(p, "'null'");
        int32_t n = add_node(p, QN_IS_NULL, p->q->node[left].pos, p->prev_end);
        if (n >= 0)
            p->q->node[n].a = left, p->q->node[n].op = (uint8_t)negate;
        return n;
    }
    if (p->t.kind == T_OP)
        op = p->t.op;
    else if (is_word(p, "like"))
        op = QC_LIKE;
    else
        return left;
    next(p);
    int32_t right = parse_primary(p);
    if (right < 0)
        return -1;
    if (op == QC_LIKE && p->q->node[right].kind != QN_STR)
        return fail(p, p->q->node[right].pos, "like takes a pattern in quotes (* and ? as in a shell)");
    int32_t n = add_node(p, QN_CMP, p->q->node[left].pos, p->q->node[right].end);
    if (n >= 0)
        p->q->node[n].a = left, p->q->node[n].b = right, p->q->node[n].op = op;
    (void)pos;
    return n;
}

static int32_t parse_not(parser *p)
{
    if (!is_word(p, "not"))
        return parse_comparison(p);
    uint32_t pos = p->t.pos;
    if (++p->depth > MAX_DEPTH)
        return fail(p, pos, "'not' nested more than %d deep", MAX_DEPTH);
    next(p);
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
    while (left >= 0 && is_word(p, word)) {
        next(p);
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
        return fail(p, p->t.pos, "the query is nested more than %d deep", MAX_DEPTH);
    int32_t n = parse_binary(p, "or", QN_OR, parse_and);
    p->depth--;
    return n;
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
        return fail(p, at, "more than %d columns", Q_MAX_ITEMS);
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
        next(p);
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
        if (accept_word(p, "as")) {
            if (p->t.kind != T_IDENT || is_keyword(p))
                return expected(p, "a column name after 'as'");
            pos = p->t.pos + p->t.quoted, end = p->t.end - p->t.quoted;
            next(p);
        }
        if (add_item(p, e, pos, end - pos, NULL))
            return -1;
    } while (p->t.kind == T_COMMA && (next(p), 1));
    return 0;
}

static int parse_from(parser *p)
{
    if (p->t.kind == T_STAR) {
        next(p);
        return 0;
    }
    do {
        int sub = accept_word(p, "instanceof");
        if (parse_class_name(p, sub) < 0)
            return -1;
        p->q->from_count++;
    } while (p->t.kind == T_COMMA && (next(p), 1));
    return 0;
}

static int parse_group_by(parser *p)
{
    do {
        if (p->q->group_count >= Q_MAX_GROUP)
            return fail(p, p->t.pos, "more than %d values to group by", Q_MAX_GROUP);
        int32_t e = parse_expr(p);
        if (e < 0)
            return -1;
        p->q->group[p->q->group_count++] = e;
    } while (p->t.kind == T_COMMA && (next(p), 1));
    return 0;
}

static int parse_clauses(parser *p)
{
    lf_query *q = p->q;
    uint32_t start = p->t.pos;
    if (accept_word(p, "select") && parse_items(p))
        return -1;
    if (accept_word(p, "from") && parse_from(p))
        return -1;
    if (accept_word(p, "where") && (q->where = parse_expr(p)) < 0)
        return -1;
    if (accept_word(p, "group") && (expect_word(p, "by") || parse_group_by(p)))
        return -1;
    if (accept_word(p, "order")) {
        if (expect_word(p, "by") || (q->order = parse_expr(p)) < 0)
            return -1;
        q->order_desc = accept_word(p, "desc");
        if (!q->order_desc)
            accept_word(p, "asc");
    }
    if (accept_word(p, "limit")) {
        if (p->t.kind != T_INT)
            return expected(p, "a number of rows after 'limit'");
        q->limit = (uint64_t)p->t.i;
        next(p);
    }
    if (p->t.kind != T_END)
        return expected(p, p->t.pos > start ? "the next clause (where, group by, order by, limit) or the end"
                                         : "a query: select, from or where");
    return 0;
}

/* --- checks --------------------------------------------------------------- */

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
    return fail(p, x->pos, "'%.*s' is an aggregate: it belongs in select, not %s", (int)(x->end - x->pos),
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

static int check_aggregates(parser *p)
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
            return fail(p, x->pos, "'%.*s' is neither grouped by nor an aggregate (count, sum, min, max, avg)",
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
            return fail(p, q->node[q->order].pos, "order by names a column of the result: an alias or an item "
                        "of select written the same way");
        q->order_item = item;
    } else if (find_aggregate(q, q->order, 0) >= 0) {
        return fail_aggregate(p, find_aggregate(q, q->order, 0), "in the order of a query without one");
    } else if (item >= 0) {
        q->order = q->item[item].expr;
    }
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

static void set_flavors(lf_query *q)
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
    parser p = {q, q->text, (uint32_t)len, {T_END, 0, 0, 0, 0, 0, 0}, 0, 0, err, 0};
    next(&p);
    if (p.t.kind == T_END && !p.failed)
        fail(&p, p.t.pos, "an empty query: try 'select count() from CLASS' (see leakfind query -h)");
    if (!p.failed)
        parse_clauses(&p);
    if (!p.failed && q->node_count > MAX_NODES)
        fail(&p, 0, "the query has more than %d parts", MAX_NODES);
    if (!p.failed && !check_aggregates(&p) && !default_items(&p) && !check_grouped(&p))
        check_order(&p);
    if (p.failed) {
        lf_query_free(q);
        return -1;
    }
    set_flavors(q);
    *out = q;
    return 0;
}
