/* query.h - questions to the heap (`leakfind query`, issue 37): a small
 * language of our own, in the spirit of Eclipse MAT's OQL.
 *
 *   select count() from Session where state = "INVALID"
 *   from byte[] where not reachable("static field") order by @retained desc limit 20
 *   select tenant, count(), sum(@retained) from instanceof Session group by tenant
 *
 * docs/QUERY.md has the grammar. A query is parsed once (lf_query_parse),
 * the class names it holds are resolved by the caller (cmd/ owns the rules
 * for what a class name means), it is prepared against a snapshot, and it
 * runs in one pass over the objects, reading field values lazily from the
 * mapped dump. Errors in the query carry their byte offset in the query's
 * text (lf_error.position, where LF_WHERE_OFFSET). */
#ifndef LF_QUERY_H
#define LF_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"
#include "../model/snapshot.h"

typedef struct lf_query lf_query;

/* A value: of a column, a field, a literal. */
typedef enum lf_qtype {
    LF_QV_NULL,
    LF_QV_INT,      /* i */
    LF_QV_REAL,     /* d */
    LF_QV_STR,      /* str[0..len), UTF-8; chars its characters, cut when chars says more */
    LF_QV_BOOL,     /* i: 0 or 1 */
    LF_QV_OBJ,      /* node (node space): an object */
    LF_QV_ID,       /* node: an object shown as its id (@id) */
} lf_qtype;

typedef struct lf_qvalue {
    uint8_t type;
    int64_t i;
    double d;
    uint32_t node;
    const char *str;
    size_t len;
    uint64_t chars;     /* LF_QV_STR: the whole text's characters (> shown: cut) */
} lf_qvalue;

/* A text value (LF_QV_STR) cut to its first max characters (UTF-8) for a
 * cell: the bytes of v->str to show; *more, how many characters of the
 * whole text are left out (0: none). */
size_t lf_qvalue_cut(const lf_qvalue *v, uint64_t max, uint64_t *more);

/* What a column holds, for its output type. */
typedef enum lf_qflavor {
    LF_QF_ANY,      /* whatever the values are */
    LF_QF_BYTES,    /* a size in bytes */
    LF_QF_COUNT,    /* a count */
    LF_QF_ID,       /* object ids */
    LF_QF_TEXT,     /* text */
    LF_QF_REAL,     /* an average */
    LF_QF_PREVIEW,  /* a string's value as `*` shows it: a short preview */
} lf_qflavor;

typedef struct lf_qcolumn {
    const char *name;   /* the alias, or the item as written */
    size_t len;
    lf_qflavor flavor;
} lf_qcolumn;

/* A class name the query holds: after `from` (subclasses: `instanceof`) or
 * in owned_by(...). */
typedef struct lf_qclass {
    const char *pattern;
    size_t len;
    uint32_t pos;        /* byte offset in the query text */
    int subclasses;
    int quoted;          /* written in quotes: the text between them, raw (MAT's regular expressions) */
} lf_qclass;

/* Parses text[0 .. len). 0, or -1 with err (a syntax error: position is
 * the offset of the token it stopped at; memory). */
int lf_query_parse(const char *text, size_t len, lf_query **out, lf_error *err);
void lf_query_free(lf_query *q);

size_t lf_query_class_count(const lf_query *q);
lf_qclass lf_query_class(const lf_query *q, size_t i);
/* The classes (class space, 1 = matches) class name i means in s: the
 * query takes match (malloc'd, s->class_count bytes). */
void lf_query_set_class(lf_query *q, size_t i, uint8_t *match);

size_t lf_query_column_count(const lf_query *q);
lf_qcolumn lf_query_column(const lf_query *q, size_t i);
/* Whether the query reads fields (the caller says when the format has none). */
int lf_query_uses_fields(const lf_query *q);

/* Whether name is an interface of the JDK that instanceof knows the
 * implementing classes of (a heap dump records none: docs/QUERY.md). */
int lf_query_known_interface(const char *name, size_t len);

/* Checks the query against s (analysed: idom and retained) and computes what
 * its predicates need (reachable(KIND), owned_by(CLASS)): 0, or -1 with err
 * (position in the query: a root kind s does not have, instanceof where s
 * keeps no superclasses; memory). Every class name must be set first. */
int lf_query_prepare(lf_query *q, const lf_snapshot *s, lf_error *err);

/* What prepare found worth saying on stderr (an assumption, a likely
 * mistake), then what the run did (a text the where clause compares a
 * field with that no object has, when nothing was chosen): sentences
 * without "note:". */
size_t lf_query_note_count(const lf_query *q);
const char *lf_query_note(const lf_query *q, size_t i);

/* After lf_query_run: the objects of the from classes that passed where
 * but were left out as no root reaches them (garbage not yet collected),
 * among the objects the pass met (it stops at `limit` when nothing orders
 * the rows). 0 with --keep-unreachable, which makes them roots. */
uint64_t lf_query_unreachable_matches(const lf_query *q);

/* A row of output: n cells, valid until the call returns. Nonzero stops. */
typedef int (*lf_query_row_fn)(void *ctx, const lf_qvalue *cell, size_t n);

/* Runs a prepared query: one pass over the objects, then the rows in
 * order. 0, or -1 with err (a damaged record in the dump: a file offset;
 * memory). */
int lf_query_run(lf_query *q, const lf_snapshot *s, lf_query_row_fn row, void *ctx, lf_error *err);

#endif
