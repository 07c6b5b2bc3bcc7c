/* serve_compare.h - /api/compare's two groupings: by class
 * (view_compare.c, which reads the arguments) and by owner
 * (view_compare_owners.c). */
#ifndef LF_SERVE_COMPARE_H
#define LF_SERVE_COMPARE_H

#include "serve.h"

typedef struct serve_compare_args {
    serve_snapshot *snap[2];
    uint32_t index[2];         /* series space */
    uint64_t from, count;
    int by_count, by_owner, all;
    const char *filter;
} serve_compare_args;

/* The owners that grew from snap[0] to snap[1], a page of them as JSON. 0,
 * or -1 with fail set. */
int serve_compare_owners(FILE *f, const serve_compare_args *p, serve_fail *fail);

#endif
