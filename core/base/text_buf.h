/* text_buf.h - a growing text for names built piece by piece (name_cut.c,
 * site_cut.c): terminated after every append, and marked failed, never
 * grown again, once memory runs out. */
#ifndef LF_TEXT_BUF_H
#define LF_TEXT_BUF_H

#include <stddef.h>

typedef struct lf_text_buf {
    char *p;      /* bigmem's (lf_vec_reserve): freed by lf_text_buf_free */
    size_t len, cap;
    int failed;
} lf_text_buf;

/* Appends n bytes of s (nothing once failed). */
void lf_text_put(lf_text_buf *b, const char *s, size_t n);

void lf_text_buf_free(lf_text_buf *b);

#endif
