/* trace_sites.h - `leakfind sites TRACE [--with DUMP]`: a .nettrace's sampled
 * allocation sites by type, joined with what a dump still retains of each
 * type (docs/DOTNET.md, docs/SITES.md). */
#ifndef LF_TRACE_SITES_H
#define LF_TRACE_SITES_H

#include "../../core/nettrace/nettrace.h"
#include "../cli/cli.h"

typedef enum trace_sort { TRACE_SORT_BYTES, TRACE_SORT_TICKS, TRACE_SORT_SITE } trace_sort;

/* Prints the rows; with_dump (NULL: none) is opened and analysed for the
 * join. Returns the exit code. */
int trace_sites_run(cli_context *ctx, const char *path, const lf_nettrace *t, uint32_t depth,
                    uint64_t top, trace_sort sort, const char *with_dump);

/* A type name as an allocation tick gives it (System.Collections.Generic.List`1[System.String])
 * in the form a .gcdump names the class (System.Collections.Generic.List<System.String>):
 * generic arity dropped, generic arguments in <>, array ranks kept. Like snprintf. */
size_t trace_type_as_class(const char *type, char *buf, size_t size);

#endif
