/* out_text.h - the text of output cells, made in memory: a growing buffer,
 * numbers without printf, TSV and JSON escaping by runs. A listing of
 * millions of rows wrote one character at a time through stdio and spent
 * most of its time there (issue 33 item 5); these build a row in memory and
 * hand it to stdio whole. */
#ifndef LF_OUT_TEXT_H
#define LF_OUT_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct out_buf {
    char *p;
    size_t len, cap;
    int failed;     /* an append found no memory: the text is short */
} out_buf;

/* Room for more bytes after len; 0, or -1 (failed set). */
int out_buf_grow(out_buf *b, size_t more);

static inline int out_buf_reserve(out_buf *b, size_t more)
{
    return b->cap - b->len >= more ? 0 : out_buf_grow(b, more);
}

/* Inline: a row is made of many short pieces. */
static inline void out_buf_put(out_buf *b, const char *s, size_t n)
{
    if (n == 0 || out_buf_reserve(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
}
void out_buf_free(out_buf *b);

/* Decimal and lower-case hex digits of v into buf (at least 20 bytes, not
 * terminated); their count. */
size_t out_u64_text(char *buf, uint64_t v);
size_t out_hex_text(char *buf, uint64_t v);
/* v as printf's "%.2f" gives it, into buf (at least 32 bytes, terminated);
 * its length. */
size_t out_fixed2_text(char *buf, double v);

/* s escaped for TSV (\t \n \r \\) or as a JSON string with its quotes
 * (html: <, > and & as \u escapes too), appended to b. */
void out_buf_tsv_runs(out_buf *b, const char *s, size_t n);
extern const uint8_t out_tsv_special[256];

/* Inline: most cells need no escape, and are then one copy. */
static inline void out_buf_tsv(out_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (out_tsv_special[(unsigned char)s[i]]) {
            out_buf_tsv_runs(b, s, n);
            return;
        }
    out_buf_put(b, s, n);
}
void out_buf_json(out_buf *b, const char *s, size_t n, int html);

#endif
