/* appendf.c - see appendf.h. */
#include "appendf.h"

#include <stdarg.h>
#include <stdio.h>

void lf_appendf(char *buf, size_t size, size_t *at, const char *fmt, ...)
{
    if (*at + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, size - *at, fmt, ap);
    va_end(ap);
    *at = n < 0 ? *at : *at + (size_t)n < size ? *at + (size_t)n : size - 1;
}
