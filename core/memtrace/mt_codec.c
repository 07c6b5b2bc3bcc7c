/* mt_codec.c - Memtrace's packed fields: vints, strings, the location event
 * (names move-to-front coded) and the backtrace codec (a cache of codes
 * with predictions), as memtrace.tsdl describes them. */
#include <stdlib.h>

#include "../base/vec.h"
#include "mt_internal.h"

int mt_get_uint(mt_cursor *c, unsigned n, const char *what, uint64_t *v)
{
    if (mt_need(c, n, what))
        return -1;
    *v = mt_le(c, n);
    return 0;
}

int mt_get_vint(mt_cursor *c, const char *what, int64_t *v)
{
    if (mt_need(c, 1, what))
        return -1;
    uint8_t tag = *c->p++;
    if (tag < 253) {
        *v = tag;
        return 0;
    }
    unsigned n = tag == 253 ? 2 : tag == 254 ? 4 : 8;
    if (mt_need(c, n, what))
        return -1;
    uint64_t u = mt_le(c, n);
    *v = n == 4 ? (int64_t)(int32_t)(uint32_t)u : (int64_t)u;
    return 0;
}

int mt_get_string(mt_cursor *c, lf_strtab *strings, const char *what, uint32_t *s)
{
    const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
    if (!nul)
        return lf_fail_at(c->err, mt_offset(c), "truncated event",
                          "%s: no NUL ends the string before its packet does", what);
    /* kept with its NUL, so that lf_mt_string gives C strings */
    int64_t i = lf_strtab_intern(strings, (const char *)c->p, (size_t)(nul - c->p) + 1);
    if (i < 0)
        return lf_fail_nomem(c->err, "reading a trace's names");
    *s = (uint32_t)i;
    c->p = nul + 1;
    return 0;
}

/* Brings entry `code` (< 31) of the table to its front; -1 when it is empty. */
static int mtf_use(mt_mtf *m, unsigned code)
{
    if (code >= m->count)
        return -1;
    uint32_t name = m->name[code];
    uint8_t table = m->table[code];
    memmove(m->name + 1, m->name, code * sizeof *m->name);
    memmove(m->table + 1, m->table, code);
    m->name[0] = name;
    m->table[0] = table;
    return 0;
}

/* Puts a new name at the front; the last falls off when all 31 are used. */
static void mtf_push(mt_mtf *m, uint32_t name, uint8_t table)
{
    memmove(m->name + 1, m->name, (MT_MTF_SIZE - 1) * sizeof *m->name);
    memmove(m->table + 1, m->table, MT_MTF_SIZE - 1);
    m->name[0] = name;
    m->table[0] = table;
    if (m->count < MT_MTF_SIZE)
        m->count++;
}

/* A frame's file and function from their move-to-front codes (packed at `at`). */
static int read_names(mt_cursor *c, lf_mt_trace *t, mt_domain *d, uint64_t at,
                      unsigned file_code, unsigned function_code, lf_mt_frame *f)
{
    if (file_code == MT_MTF_SIZE) {
        uint32_t name;
        if (mt_get_string(c, &t->strings, "a location's file name", &name))
            return -1;
        /* A new file takes the function table of the file it pushes off (the
         * library's reader does, for its v001 writer); else an unused one. */
        uint8_t table;
        if (d->files.count == MT_MTF_SIZE) {
            table = d->files.table[MT_MTF_SIZE - 1];
        } else {
            table = d->tables_used++;
            d->functions[table].count = 0;
        }
        mtf_push(&d->files, name, table);
    } else if (mtf_use(&d->files, file_code)) {
        return lf_fail_at(c->err, at, "location index out of range",
                          "file name %u of the move-to-front table, which holds %u", file_code,
                          d->files.count);
    }
    f->file = d->files.name[0];
    mt_mtf *functions = &d->functions[d->files.table[0]];
    if (function_code == MT_MTF_SIZE) {
        uint32_t name;
        if (mt_get_string(c, &t->strings, "a location's function name", &name))
            return -1;
        mtf_push(functions, name, 0);
    } else if (mtf_use(functions, function_code)) {
        return lf_fail_at(c->err, at, "location index out of range",
                          "function name %u of its file's move-to-front table, which holds %u",
                          function_code, functions->count);
    }
    f->function = functions->name[0];
    return 0;
}

static int same_frames(const lf_mt_trace *t, const lf_mt_location *l, const lf_mt_frame *f,
                       uint32_t n)
{
    if (l->frame_count != n)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        const lf_mt_frame *g = &t->frame[l->first_frame + i];
        if (g->file != f[i].file || g->function != f[i].function || g->line != f[i].line ||
            g->start_char != f[i].start_char || g->end_char != f[i].end_char)
            return 0;
    }
    return 1;
}

int mt_read_location(mt_cursor *c, lf_mt_trace *t, mt_domain *d)
{
    struct lf_mt_tables *tb = t->tables;
    uint64_t at = mt_offset(c), code, nlocs;
    if (mt_get_uint(c, 8, "a location's code", &code) ||
        mt_get_uint(c, 1, "a location's frame count", &nlocs))
        return -1;
    /* frames go after the stored ones; kept only when the code is new (room
     * for one more: a location of no frames still points somewhere) */
    size_t cap = tb->frame_cap;
    if (lf_vec_reserve((void **)&t->frame, &cap, (size_t)t->frame_count + nlocs + 1,
                       sizeof *t->frame))
        return lf_fail_nomem(c->err, "reading a trace's locations");
    tb->frame_cap = (uint32_t)cap;
    lf_mt_frame *f = t->frame + t->frame_count;
    for (uint64_t i = 0; i < nlocs; i++) {
        uint64_t packed, packed_at = mt_offset(c);
        if (mt_get_uint(c, 6, "a location's position", &packed))
            return -1;
        f[i].line = (uint32_t)(packed & 0xfffff);
        f[i].start_char = (uint16_t)((packed >> 20) & 0xff);
        f[i].end_char = (uint16_t)((packed >> 28) & 0x3ff);
        if (read_names(c, t, d, packed_at, (unsigned)((packed >> 38) & 0x1f),
                       (unsigned)((packed >> 43) & 0x1f), &f[i]))
            return -1;
    }
    uint32_t known = lf_mt_index_get(&tb->location_of_code, code);
    if (known != LF_MT_INDEX_NONE) {
        if (!same_frames(t, &t->location[known], f, (uint32_t)nlocs))
            return lf_fail_at(c->err, at, "inconsistent location",
                              "code 0x%llx was given other frames before",
                              (unsigned long long)code);
        return 0;
    }
    cap = tb->location_cap;
    if (t->location_count == LF_MT_INDEX_NONE - 1 ||
        lf_vec_reserve((void **)&t->location, &cap, (size_t)t->location_count + 1,
                       sizeof *t->location) ||
        lf_mt_index_put(&tb->location_of_code, code, t->location_count))
        return lf_fail_nomem(c->err, "reading a trace's locations");
    tb->location_cap = (uint32_t)cap;
    t->location[t->location_count++] = (lf_mt_location){code, t->frame_count, (uint32_t)nlocs};
    t->frame_count += (uint32_t)nlocs;
    return 0;
}

/* The site of `location` called from `caller`, interned. */
static int site_of(lf_mt_trace *t, uint32_t caller, uint32_t location, uint32_t *site,
                   lf_error *err)
{
    struct lf_mt_tables *tb = t->tables;
    uint64_t key = (uint64_t)caller << 32 | location;
    uint32_t s = lf_mt_index_get(&tb->site_of_key, key);
    if (s == LF_MT_INDEX_NONE) {
        size_t cap = tb->site_cap;
        if (t->site_count == LF_MT_INDEX_NONE - 1 ||
            lf_vec_reserve((void **)&t->site, &cap, (size_t)t->site_count + 1, sizeof *t->site) ||
            lf_mt_index_put(&tb->site_of_key, key, t->site_count))
            return lf_fail_nomem(err, "reading a trace's backtraces");
        tb->site_cap = (uint32_t)cap;
        s = t->site_count++;
        t->site[s] = (lf_mt_site){caller, location, t->site[caller].depth + 1};
    }
    *site = s;
    return 0;
}

/* Appends the location in cache slot `slot` to the backtrace being decoded
 * (only checks the slot when the backtrace is not kept). */
static int push_slot(mt_cursor *c, lf_mt_trace *t, mt_domain *d, uint32_t slot, uint64_t at,
                     int keep)
{
    if (!d->cache_location[slot])
        return lf_fail_at(c->err, at, "backtrace refers past its cache",
                          "slot %u of the backtrace cache was never filled", slot);
    if (!keep)
        return 0;
    if (d->site_len >= MT_MAX_BACKTRACE)
        return lf_fail_at(c->err, at, "backtrace too long",
                          "more than %d locations (leakfind's limit)", MT_MAX_BACKTRACE);
    if (d->site_len == d->site_cap &&
        lf_vec_reserve((void **)&d->site_at, &d->site_cap, d->site_len + 1, sizeof *d->site_at))
        return lf_fail_nomem(c->err, "decoding a backtrace");
    uint32_t caller = d->site_len ? d->site_at[d->site_len - 1] : 0;
    if (site_of(t, caller, d->cache_location[slot] - 1, &d->site_at[d->site_len], c->err))
        return -1;
    d->site_len++;
    return 0;
}

/* A cache miss: the slot takes a new code, which a location event must have
 * explained before. */
static int fill_slot(mt_cursor *c, lf_mt_trace *t, mt_domain *d, uint32_t slot, uint64_t at)
{
    uint64_t code;
    if (mt_get_uint(c, 8, "a backtrace's new code", &code))
        return -1;
    uint32_t location = lf_mt_index_get(&t->tables->location_of_code, code);
    if (location == LF_MT_INDEX_NONE)
        return lf_fail_at(c->err, at, "unknown location",
                          "the backtrace names code 0x%llx, which no location event gave",
                          (unsigned long long)code);
    d->cache_code[slot] = code;
    d->cache_location[slot] = location + 1;
    return 0;
}

int mt_read_backtrace(mt_cursor *c, lf_mt_trace *t, mt_domain *d, uint64_t common_prefix,
                      uint64_t encoded, uint32_t *site)
{
    /* A prefix longer than the last backtrace (a truncated one) gives the
     * last backtrace again, after decoding keeps the cache in step (as the
     * library's reader does). */
    int keep_last = common_prefix > d->site_len;
    if (!keep_last)
        d->site_len = (size_t)common_prefix;
    uint32_t pred = 0;
    while (encoded--) {
        uint64_t at = mt_offset(c), word;
        if (mt_get_uint(c, 2, "a backtrace code", &word))
            return -1;
        uint32_t slot = (uint32_t)(word >> 2), tag = (uint32_t)(word & 3);
        d->cache_pred[pred] = (uint16_t)slot;
        uint64_t predicted = tag;
        if (tag == 3) {
            if (fill_slot(c, t, d, slot, at))
                return -1;
            predicted = 0;
        } else if (tag == 2 && mt_get_uint(c, 1, "a backtrace's prediction count", &predicted)) {
            return -1;
        }
        if (push_slot(c, t, d, slot, at, !keep_last))
            return -1;
        pred = slot;
        for (; predicted; predicted--) {
            pred = d->cache_pred[pred];
            if (push_slot(c, t, d, pred, at, !keep_last))
                return -1;
        }
    }
    *site = d->site_len ? d->site_at[d->site_len - 1] : 0;
    return 0;
}

int mt_check_cache(const mt_domain *d, uint32_t ix, uint32_t pred, uint64_t value)
{
    if (ix == 0xffff)
        return 0;
    if (ix >= MT_CACHE_SIZE || d->cache_pred[ix] != pred)
        return -1;
    /* the library compares OCaml ints: the low 63 bits */
    return ((d->cache_code[ix] ^ value) << 1) ? -1 : 0;
}
