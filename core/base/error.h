/* error.h - errors returned by library code: a kind, a position, a reason.
 * Library code never prints or exits; cmd/ turns an lf_error into a message
 * and an exit code. */
#ifndef LF_ERROR_H
#define LF_ERROR_H

#include <stddef.h>
#include <stdint.h>

typedef enum lf_error_kind {
    LF_OK = 0,
    LF_ERR_INPUT = 3,   /* not a dump, truncated, malformed, unsupported */
    LF_ERR_SYSTEM = 4,  /* I/O, memory */
} lf_error_kind;

typedef enum lf_error_where {
    LF_WHERE_NONE = 0,
    LF_WHERE_OFFSET,    /* byte offset in the file */
    LF_WHERE_LINE,      /* line number (text graph) */
} lf_error_where;

typedef struct lf_error {
    lf_error_kind kind;
    lf_error_where where;
    uint64_t position;      /* byte offset or 1-based line */
    char reason[160];       /* "truncated HEAP DUMP SEGMENT" */
    char detail[512];       /* "need 9 bytes, 3 left" (may be empty); advice may be long */
    /* The dump is cut off after enough of it that --partial can read the
     * part before the cut (LF_HPROF_PARTIAL, lf_v8_parse's partial). */
    int truncated;
} lf_error;

/* Each returns -1 so callers can write `return lf_fail_at(err, ...)`. */
int lf_fail(lf_error *err, lf_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lf_fail_at(lf_error *err, uint64_t offset, const char *reason, const char *detail_fmt, ...)
    __attribute__((format(printf, 4, 5)));
int lf_fail_line(lf_error *err, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lf_fail_nomem(lf_error *err, const char *what);
int lf_fail_errno(lf_error *err, const char *what, int errnum);

/* "truncated X at offset 12 (0xc): need 9 bytes, 3 left" into buf. */
void lf_error_format(const lf_error *err, char *buf, size_t size);

#endif
