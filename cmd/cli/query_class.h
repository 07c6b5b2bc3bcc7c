/* query_class.h - what a query (core/query/query.h, docs/QUERY.md) says
 * wrong, as `leakfind query` and serve's /api/query both say it: the
 * classes its class names mean (as --class takes them; in quotes and
 * matching no name, as MAT's regular expression), a name that means no
 * class being an error with the closest names, never an empty answer; and
 * the library's own error as one sentence. Prints nothing: the CLI puts
 * the message over a caret, the server in a 400 with the offset. */
#ifndef LF_QUERY_CLASS_H
#define LF_QUERY_CLASS_H

#include <stddef.h>

#include "../../core/base/error.h"
#include "../../core/model/snapshot.h"
#include "../../core/query/query.h"

/* Resolves every class name of q (lf_query_set_class). 0; 1 when one is a
 * mistake: why says what, *at is the name's byte offset in the query
 * text; -1 out of memory. */
int query_resolve_classes(lf_query *q, const lf_snapshot *s, char *why, size_t size, size_t *at);

/* The library's error in a query (parse, prepare) as one message: its
 * reason, then its detail when it has one. size: at least
 * QUERY_ERROR_TEXT_MAX to lose nothing. */
#define QUERY_ERROR_TEXT_MAX (sizeof ((lf_error *)0)->reason + sizeof ((lf_error *)0)->detail + 2)
void query_error_text(const lf_error *err, char *buf, size_t size);

#endif
