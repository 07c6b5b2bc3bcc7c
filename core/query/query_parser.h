/* query_parser.h - the parser's state and its lexer (query_lex.c), shared
 * by the parser (query_parse.c) and the checks of a parsed query
 * (query_check.c); internal to core/query. */
#ifndef LF_QUERY_PARSER_H
#define LF_QUERY_PARSER_H

#include "query_ast.h"

enum { MAX_DEPTH = 64 };

typedef enum tok_kind {
    T_END, T_IDENT, T_ATTR, T_INT, T_REAL, T_STR, T_LP, T_RP, T_LB, T_RB, T_COMMA, T_DOT, T_STAR, T_OP, T_BAD
} tok_kind;

typedef struct token {
    tok_kind kind;
    uint32_t pos, end;      /* text[pos .. end) */
    int64_t i;
    double d;
    uint8_t op;             /* T_OP: q_cmp */
    int quoted;             /* T_IDENT written `so` (never a keyword) */
    uint32_t bad_escape;    /* T_STR: 1 + where an escape the language lacks is, 0 none */
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

/* The first failure wins: later ones are its echoes. Return -1. */
int lx_fail(parser *p, uint32_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int lx_nomem(parser *p);
/* Moves to the next token. */
void lx_next(parser *p);
/* Whether the current token is the keyword word (any case). */
int lx_is_word(const parser *p, const char *word);
int lx_is_keyword(const parser *p);
/* "expected WHAT, found ..." at the current token. */
int lx_expected(parser *p, const char *what);
int lx_accept_word(parser *p, const char *word);
int lx_expect_word(parser *p, const char *word);
/* The current token as a string value: -1 (failed) when it holds an escape
 * the language lacks. A class name in quotes is read raw, so that MAT's
 * regular expressions ("java\\.util\\..*") pass the lexer. */
int lx_string_value(parser *p);

/* The parser's own, for query_mat.c. */
int32_t px_add_node(parser *p, q_kind kind, uint32_t pos, uint32_t end);
int32_t px_parse_expr(parser *p);

/* Eclipse MAT's ways (query_mat.c): what works, and errors that show ours. */
enum { MAT_NO_ATTRIBUTE = 0xff };
uint8_t mat_attribute(const char *name, size_t len);
int mat_like_pattern(parser *p, int32_t right);
int mat_method(parser *p, uint32_t path_pos, uint32_t path_end);
int mat_function(parser *p);
int mat_select_words(parser *p);
int mat_objects_items(parser *p);
int mat_distinct(parser *p);
int mat_from_objects(parser *p);
void mat_apply_alias(parser *p);

/* Checks of a parsed query (query_check.c): aggregates only where they
 * belong; then, once the default columns are in, every column of an
 * aggregate query grouped or aggregated and order by naming a column. */
int q_check_aggregates(parser *p);
int q_check_columns(parser *p);
void q_set_flavors(lf_query *q);

#endif
