/* query_lex.c - the query language's tokens (docs/QUERY.md) and the
 * parser's error reporting. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/vec.h"
#include "query_parser.h"

static int q_vfail(lf_error *err, uint32_t pos, const char *fmt, va_list ap)
{
    memset(err, 0, sizeof *err);
    err->kind = LF_ERR_INPUT;
    err->where = LF_WHERE_OFFSET;
    err->position = pos;
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    return -1;
}

int q_fail(lf_error *err, uint32_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    q_vfail(err, pos, fmt, ap);
    va_end(ap);
    return -1;
}

/* The first failure wins: later ones are its echoes. */
int lx_fail(parser *p, uint32_t pos, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    q_vfail(p->err, pos, fmt, ap);
    va_end(ap);
    return -1;
}

int lx_nomem(parser *p)
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
    if (end == i + 1 && (s[i] == 'L' || s[i] == 'l') && !real)
        unit = 1; /* Java's long, as MAT's queries write one: 1024L */
    else if (end > i && !(unit = size_unit(s + i, end - i))) {
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
            default: /* an error only where the string is a value: lx_string_value */
                if (!t->bad_escape)
                    t->bad_escape = i; /* 1 + the backslash's place */
                c = s[i];
                break;
            }
        }
        if (lf_vec_reserve((void **)&p->q->lit, &p->q->lit_cap, p->q->lit_len + 2, 1)) {
            lx_nomem(p);
            t->kind = T_BAD;
            return;
        }
        p->q->lit[p->q->lit_len++] = c;
    }
    if (i >= p->len) {
        lx_fail(p, at, "a string that does not end: no closing %c", quote);
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

void lx_next(parser *p)
{
    const char *s = p->text;
    uint32_t i = p->t.end;
    p->prev_end = p->t.end;
    while (i < p->len && isspace((unsigned char)s[i]))
        i++;
    token t = {T_END, i, i, 0, 0, 0, 0, 0};
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
    } else if (strchr("()[],.*", c)) {
        t.kind = c == '(' ? T_LP : c == ')' ? T_RP : c == '[' ? T_LB : c == ']' ? T_RB : c == ',' ? T_COMMA
               : c == '.' ? T_DOT : T_STAR;
    } else {
        lex_op(p, &t, i);
    }
    p->t = t;
}

int lx_is_word(const parser *p, const char *word)
{
    size_t n = strlen(word);
    return p->t.kind == T_IDENT && !p->t.quoted && p->t.end - p->t.pos == n &&
           strncasecmp(p->text + p->t.pos, word, n) == 0;
}

static const char *const keywords[] = {"select", "from", "where", "group", "by", "order", "asc", "desc",
                                       "limit", "and", "or", "not", "null", "true", "false", "instanceof",
                                       "as", "like", "is", NULL};

int lx_is_keyword(const parser *p)
{
    for (int k = 0; keywords[k]; k++)
        if (lx_is_word(p, keywords[k]))
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

int lx_expected(parser *p, const char *what)
{
    char found[64];
    describe(p, found, sizeof found);
    if (p->t.kind == T_BAD && !p->failed)
        return lx_fail(p, p->t.pos, "%s is not a token the query language has (expected %s)", found, what);
    return lx_fail(p, p->t.pos, "expected %s, found %s", what, found);
}

int lx_string_value(parser *p)
{
    uint32_t at = p->t.bad_escape;
    if (!at)
        return 0;
    return lx_fail(p, at - 1, "unknown escape '\\%c' in a string (\\\\, \\\", \\', \\n, \\t, \\r, \\0)", p->text[at]);
}

int lx_accept_word(parser *p, const char *word)
{
    if (!lx_is_word(p, word))
        return 0;
    lx_next(p);
    return 1;
}

int lx_expect_word(parser *p, const char *word)
{
    if (lx_accept_word(p, word))
        return 0;
    char what[32];
    snprintf(what, sizeof what, "'%s'", word);
    return lx_expected(p, what);
}
