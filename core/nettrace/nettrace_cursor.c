/* nettrace_cursor.c - little-endian reads, varints and UTF-16 strings, each
 * checked against the bytes left. */
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"
#include "../base/utf8.h"

int nt_need(nt_cursor *c, size_t n, const char *what, lf_error *err)
{
    if (c->pos > c->size || c->size - c->pos < n)
        return lf_fail_at(err, c->pos, "truncated .nettrace", "%s: need %zu bytes, %zu left", what, n,
                          c->pos > c->size ? (size_t)0 : c->size - c->pos);
    return 0;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

#define NT_READ(fn, type, n)                                                           \
    int fn(nt_cursor *c, type *v, const char *what, lf_error *err)                     \
    {                                                                                  \
        if (nt_need(c, n, what, err))                                                  \
            return -1;                                                                 \
        *v = (type)le(c->data + c->pos, n);                                            \
        c->pos += n;                                                                   \
        return 0;                                                                      \
    }
NT_READ(nt_u8, uint8_t, 1)
NT_READ(nt_u16, uint16_t, 2)
NT_READ(nt_u32, uint32_t, 4)
NT_READ(nt_u64, uint64_t, 8)

/* 7 bits a byte, least significant first, the high bit on all but the last. */
int nt_varint(nt_cursor *c, uint64_t *v, unsigned max_bytes, const char *what, lf_error *err)
{
    uint64_t x = 0;
    size_t start = c->pos;
    for (unsigned i = 0;; i++) {
        if (i == max_bytes)
            return lf_fail_at(err, start, "bad .nettrace", "%s: a number longer than %u bytes", what,
                              max_bytes);
        uint8_t b;
        if (nt_u8(c, &b, what, err))
            return -1;
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            break;
    }
    *v = x;
    return 0;
}

/* The units up to the NUL: their count, or -1 when the string runs past the end. */
static int64_t utf16z_units(const nt_cursor *c)
{
    for (size_t p = c->pos; p + 1 < c->size; p += 2)
        if (!c->data[p] && !c->data[p + 1])
            return (int64_t)((p - c->pos) / 2);
    return -1;
}

int nt_skip_utf16z(nt_cursor *c, const char *what, lf_error *err)
{
    int64_t units = utf16z_units(c);
    if (units < 0)
        return lf_fail_at(err, c->pos, "truncated .nettrace", "%s: a string without its end", what);
    c->pos += (size_t)units * 2 + 2;
    return 0;
}

static int names_reserve(lf_nettrace *t, uint64_t more)
{
    if (t->names_len + more <= t->names_cap)
        return 0;
    uint64_t cap = t->names_cap ? t->names_cap : 4096;
    while (cap < t->names_len + more)
        cap *= 2;
    char *p = realloc(t->names, cap);
    if (!p)
        return -1;
    t->names = p;
    t->names_cap = cap;
    return 0;
}

int nt_utf16z(nt_cursor *c, lf_nettrace *t, uint32_t *at, const char *what, lf_error *err)
{
    int64_t units = utf16z_units(c);
    if (units < 0)
        return lf_fail_at(err, c->pos, "truncated .nettrace", "%s: a string without its end", what);
    if (t->names_len + (uint64_t)units * 3 + 1 > UINT32_MAX)
        return lf_fail_at(err, c->pos, "bad .nettrace", "%s: names past 4 GiB", what);
    if (names_reserve(t, (uint64_t)units * 3 + 1))
        return lf_fail_nomem(err, "the trace's names");
    *at = (uint32_t)t->names_len;
    const uint8_t *p = c->data + c->pos;
    char *o = t->names + t->names_len;
    for (int64_t i = 0; i < units; i++) {
        int64_t next = i + 1 < units ? (int64_t)(p[2 * i + 2] | p[2 * i + 3] << 8) : -1;
        int took_next;
        o += lf_utf8_put(o, lf_utf16_code_point((uint32_t)(p[2 * i] | p[2 * i + 1] << 8), next, &took_next));
        i += took_next;
    }
    *o++ = 0;
    t->names_len = (uint64_t)(o - t->names);
    c->pos += (size_t)units * 2 + 2;
    return 0;
}
