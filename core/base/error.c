/* error.c - building and formatting lf_error values. */
#include <stddef.h>
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int lf_fail(lf_error *err, lf_error_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->kind = kind;
    err->where = LF_WHERE_NONE;
    err->position = 0;
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    err->detail[0] = '\0';
    err->truncated = 0;
    va_end(ap);
    return -1;
}

int lf_fail_at(lf_error *err, uint64_t offset, const char *reason, const char *detail_fmt, ...)
{
    err->kind = LF_ERR_INPUT;
    err->where = LF_WHERE_OFFSET;
    err->position = offset;
    snprintf(err->reason, sizeof err->reason, "%s", reason);
    err->detail[0] = '\0';
    err->truncated = 0;
    if (detail_fmt) {
        va_list ap;
        va_start(ap, detail_fmt);
        vsnprintf(err->detail, sizeof err->detail, detail_fmt, ap);
        va_end(ap);
    }
    return -1;
}

int lf_fail_line(lf_error *err, uint64_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err->kind = LF_ERR_INPUT;
    err->where = LF_WHERE_LINE;
    err->position = line;
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    err->detail[0] = '\0';
    err->truncated = 0;
    va_end(ap);
    return -1;
}

int lf_fail_nomem(lf_error *err, const char *what)
{
    return lf_fail(err, LF_ERR_SYSTEM, "out of memory (%s)", what);
}

int lf_fail_errno(lf_error *err, const char *what, int errnum)
{
    return lf_fail(err, LF_ERR_SYSTEM, "%s: %s", what, strerror(errnum));
}

void lf_error_format(const lf_error *err, char *buf, size_t size)
{
    int n = 0;
    switch (err->where) {
    case LF_WHERE_OFFSET:
        n = snprintf(buf, size, "%s at offset %llu (0x%llx)", err->reason,
                     (unsigned long long)err->position, (unsigned long long)err->position);
        break;
    case LF_WHERE_LINE:
        n = snprintf(buf, size, "line %llu: %s", (unsigned long long)err->position, err->reason);
        break;
    default:
        n = snprintf(buf, size, "%s", err->reason);
        break;
    }
    if (err->detail[0] && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ": %s", err->detail);
}
