/* mt_internal.h - what the Memtrace reader's files share: a cursor over one
 * packet's bytes, the per-domain decoding state, the lookup tables. */
#ifndef LF_MT_INTERNAL_H
#define LF_MT_INTERNAL_H

#include <string.h>

#include "memtrace.h"
#include "mt_index.h"

enum {
    MT_CACHE_SIZE = 1 << 14,      /* backtrace codec's cache (memtrace.tsdl) */
    MT_MTF_SIZE = 31,             /* move-to-front tables of names; code 31: a new name */
    MT_MAX_DOMAINS = 256,         /* distinct domains a trace may name (ours: each costs ~200 KB) */
    MT_MAX_BACKTRACE = 1 << 22,   /* locations in one backtrace (ours) */
};

/* One packet's bytes: reads are checked against its end. */
typedef struct mt_cursor {
    const uint8_t *p, *end, *base;
    uint64_t base_offset;         /* the trace offset of base */
    lf_error *err;
} mt_cursor;

static inline uint64_t mt_offset(const mt_cursor *c)
{
    return c->base_offset + (uint64_t)(c->p - c->base);
}

/* 0 when n bytes remain in the packet, else the error for `what`. */
static inline int mt_need(mt_cursor *c, size_t n, const char *what)
{
    if ((size_t)(c->end - c->p) >= n)
        return 0;
    return lf_fail_at(c->err, mt_offset(c), "truncated event",
                      "%s needs %zu bytes, %zu left in its packet", what, n,
                      (size_t)(c->end - c->p));
}

/* Little-endian reads after mt_need. */
static inline uint64_t mt_le(mt_cursor *c, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)c->p[i] << (8 * i);
    c->p += n;
    return v;
}

int mt_get_uint(mt_cursor *c, unsigned n, const char *what, uint64_t *v);
/* A vint: one byte below 253, else 253 u16, 254 i32 (sign-extended, as the
 * library reads it), 255 i64. */
int mt_get_vint(mt_cursor *c, const char *what, int64_t *v);
/* A NUL-terminated string, interned. */
int mt_get_string(mt_cursor *c, lf_strtab *strings, const char *what, uint32_t *s);

/* A move-to-front table of 31 names (strings); count of them used. */
typedef struct mt_mtf {
    uint32_t name[MT_MTF_SIZE];
    uint8_t table[MT_MTF_SIZE];   /* file tables only: the file's table of function names */
    uint8_t count;
} mt_mtf;

typedef struct mt_domain {
    uint32_t id;
    uint64_t last_time;           /* events' times only grow within a domain */
    /* locations: files move-to-front, and per file its functions */
    mt_mtf files;
    mt_mtf functions[MT_MTF_SIZE];
    uint8_t tables_used;
    /* the backtrace codec: a slot's code, its location + 1 (0: never
     * filled), and the slot that followed it last */
    uint64_t cache_code[MT_CACHE_SIZE];
    uint32_t cache_location[MT_CACHE_SIZE];
    uint16_t cache_pred[MT_CACHE_SIZE];
    /* the last backtrace, as the site of each of its prefixes */
    uint32_t *site_at;
    size_t site_len, site_cap;
} mt_domain;

struct lf_mt_tables {
    lf_mt_index location_of_code;
    lf_mt_index site_of_key;      /* caller << 32 | location -> site */
    uint32_t frame_cap, location_cap, site_cap;
    mt_domain *domain[MT_MAX_DOMAINS];
    uint32_t domain_count;
};

/* The location event: code, its frames. */
int mt_read_location(mt_cursor *c, lf_mt_trace *t, mt_domain *d);
/* An allocation's backtrace (common prefix, then the codes): *site its site. */
int mt_read_backtrace(mt_cursor *c, lf_mt_trace *t, mt_domain *d, uint64_t common_prefix,
                      uint64_t encoded, uint32_t *site);
/* The packet header's check of the codec's cache: 0 when it agrees. */
int mt_check_cache(const mt_domain *d, uint32_t ix, uint32_t pred, uint64_t value);

#endif
