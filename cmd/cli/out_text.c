/* out_text.c - see out_text.h. */
#include "out_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int out_buf_grow(out_buf *b, size_t more)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more) {
        if (cap > SIZE_MAX / 2) {
            b->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void out_buf_free(out_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Digits counted first, then written from the last, two at a time. */
size_t out_u64_text(char *buf, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    size_t n = 1;
    for (uint64_t x = v; x >= 10; x /= 10)
        n++;
    char *p = buf + n;
    while (v >= 100) {
        unsigned k = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = pairs[k + 1];
        *--p = pairs[k];
    }
    if (v >= 10) {
        *--p = pairs[v * 2 + 1];
        *--p = pairs[v * 2];
    } else {
        *--p = (char)('0' + v);
    }
    return n;
}

size_t out_hex_text(char *buf, uint64_t v)
{
    static const char digit[] = "0123456789abcdef";
    size_t n = v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1;
    for (size_t i = n; i > 0; i--, v >>= 4)
        buf[i - 1] = digit[v & 15];
    return n;
}

size_t out_fixed2_text(char *buf, double v)
{
    /* Below a million, v * 100 is within 2^-26 of the exact product, so a
     * fraction not near one half rounds as printf rounds the exact value;
     * anything else (ties, signs, huge or odd values) goes to printf. */
    if (!(v >= 0 && v < 1e6) || signbit(v))
        return (size_t)snprintf(buf, 32, "%.2f", v);
    double x = v * 100.0, whole = floor(x), frac = x - whole;
    if (fabs(frac - 0.5) < 1e-6)
        return (size_t)snprintf(buf, 32, "%.2f", v);
    uint64_t hundredths = (uint64_t)whole + (frac > 0.5);
    size_t n = out_u64_text(buf, hundredths / 100);
    buf[n++] = '.';
    buf[n++] = (char)('0' + hundredths % 100 / 10);
    buf[n++] = (char)('0' + hundredths % 10);
    buf[n] = '\0';
    return n;
}

/* Bytes TSV escapes: \t \n \r and the backslash. */
const uint8_t out_tsv_special[256] = {['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\\'] = 1};

void out_buf_tsv_runs(out_buf *b, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!out_tsv_special[(unsigned char)c])
            continue;
        out_buf_put(b, s + run, i - run);
        char esc[2] = {'\\', c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\'};
        out_buf_put(b, esc, 2);
        run = i + 1;
    }
    out_buf_put(b, s + run, n - run);
}

/* The escape of byte c in a JSON string, or 0 when it stands as itself. */
static size_t json_escape(unsigned char c, int html, char out[8])
{
    if (c == '"' || c == '\\') {
        out[0] = '\\', out[1] = (char)c;
        return 2;
    }
    if (c == '\n' || c == '\t' || c == '\r') {
        out[0] = '\\', out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        return 2;
    }
    if (c < 0x20 || c == 0x7f || (html && (c == '<' || c == '>' || c == '&'))) {
        static const char digit[] = "0123456789abcdef";
        memcpy(out, "\\u00", 4);
        out[4] = digit[c >> 4], out[5] = digit[c & 15];
        return 6;
    }
    return 0;
}

void out_buf_json(out_buf *b, const char *s, size_t n, int html)
{
    out_buf_put(b, "\"", 1);
    size_t run = 0;
    char esc[8];
    for (size_t i = 0; i < n; i++) {
        size_t k = json_escape((unsigned char)s[i], html, esc);
        if (!k)
            continue;
        out_buf_put(b, s + run, i - run);
        out_buf_put(b, esc, k);
        run = i + 1;
    }
    out_buf_put(b, s + run, n - run);
    out_buf_put(b, "\"", 1);
}
