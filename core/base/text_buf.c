/* text_buf.c - see text_buf.h. */
#include "text_buf.h"

#include <string.h>

#include "bigmem.h"
#include "vec.h"

void lf_text_put(lf_text_buf *b, const char *s, size_t n)
{
    if (b->failed || n == 0)
        return;
    if (lf_vec_reserve((void **)&b->p, &b->cap, b->len + n + 1, 1)) {
        b->failed = 1;
        return;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void lf_text_buf_free(lf_text_buf *b)
{
    lf_big_free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
