/* memtrace_read.c - a Memtrace trace read packet by packet (memtrace.tsdl;
 * the library's src/trace.ml reads it the same way): the trace-info packet
 * first, then packets of events, each event handed to the visitor. */
#include <stdlib.h>

#include "../base/vec.h"
#include "mt_internal.h"
#include "mt_stream.h"
#include "../base/bigmem.h"

enum {
    MT_MAGIC = 0xc1fc1fc1u,
    MT_VERSION_MAX = 3,             /* what the library's main branch writes */
    MT_HEADER_MAX = 68,             /* a v3 header; v1 and v2 have no domain: 66 */
    MT_TIME_BITS = 25,
    MT_EV_TRACE_INFO = 0, MT_EV_LOCATION = 1, MT_EV_ALLOC = 2, MT_EV_PROMOTE = 3,
    MT_EV_COLLECT = 4, MT_EV_SHORT_FIRST = 101, MT_EV_SHORT_LAST = 116,
};

int lf_mt_detect(const uint8_t *head, size_t len)
{
    return len >= 4 && head[0] == 0xc1 && head[1] == 0x1f && head[2] == 0xfc && head[3] == 0xc1;
}

typedef struct mt_packet {
    uint64_t offset;                /* of its first byte */
    uint64_t content;               /* bytes after the header */
    uint64_t time_begin, time_end;  /* microseconds since 1970 */
    uint64_t alloc_begin, alloc_end, pid;
    uint32_t version, domain, verify_ix, verify_pred;
    uint64_t verify_value;
} mt_packet;

/* The reading's state: the trace being filled, the visitor, the input. */
typedef struct mt_reading {
    lf_mt_trace *t;
    const lf_mt_visitor *v;
    lf_mt_stream in;
    lf_error *err;
} mt_reading;

/* Reads a packet's header at the stream's position; 1 at the trace's end. */
static int read_header(mt_reading *r, mt_packet *h)
{
    int64_t have = lf_mt_stream_fill(&r->in, MT_HEADER_MAX, r->err);
    if (have <= 0)
        return have < 0 ? -1 : 1;
    mt_cursor c = {lf_mt_stream_at(&r->in), lf_mt_stream_at(&r->in) + have,
                   lf_mt_stream_at(&r->in), lf_mt_stream_offset(&r->in), r->err};
    h->offset = c.base_offset;
    if (have < 6)
        return lf_fail_at(r->err, h->offset, "truncated packet header",
                          "%lld bytes, a header is at least 66", (long long)have);
    uint64_t magic = mt_le(&c, 4), bits = mt_le(&c, 4);
    if (magic != MT_MAGIC)
        return lf_fail_at(r->err, h->offset, "not a packet",
                          "magic 0x%08llx, a Memtrace packet starts with 0xc1fc1fc1",
                          (unsigned long long)magic);
    h->version = have >= 30 ? (uint32_t)(c.p[20] | c.p[21] << 8) : 0;
    size_t size = h->version >= 3 ? 68 : 66;
    if ((uint64_t)have < size)
        return lf_fail_at(r->err, h->offset, "truncated packet header",
                          "%lld bytes left, the header is %zu", (long long)have, size);
    h->time_begin = mt_le(&c, 8);
    h->time_end = mt_le(&c, 8);
    c.p += 4 + 2; /* flush duration, version */
    h->pid = mt_le(&c, 8);
    h->domain = h->version >= 3 ? (uint32_t)mt_le(&c, 2) : 0;
    h->verify_ix = (uint32_t)mt_le(&c, 2);
    h->verify_pred = (uint32_t)mt_le(&c, 2);
    h->verify_value = mt_le(&c, 8);
    h->alloc_begin = mt_le(&c, 8);
    h->alloc_end = mt_le(&c, 8);
    if (h->version > MT_VERSION_MAX || h->version == 0)
        return lf_fail_at(r->err, h->offset + 20, "unsupported trace version",
                          "v%03u; leakfind reads v001 to v%03d", h->version, MT_VERSION_MAX);
    if (bits >= 1ull << 31 || bits / 8 < size)
        return lf_fail_at(r->err, h->offset + 4, "bad packet size",
                          "%llu bits, less than its %zu-byte header", (unsigned long long)bits,
                          size);
    if (h->time_begin > h->time_end)
        return lf_fail_at(r->err, h->offset + 8, "bad packet header",
                          "its times end before they begin");
    if (h->alloc_begin > h->alloc_end)
        return lf_fail_at(r->err, h->offset + size - 16, "bad packet header",
                          "its allocation ids end before they begin");
    h->content = bits / 8 - size;
    lf_mt_stream_skip(&r->in, size);
    return 0;
}

/* The packet's content in one window: a cursor over it. */
static int packet_bytes(mt_reading *r, const mt_packet *h, mt_cursor *c)
{
    int64_t have = lf_mt_stream_fill(&r->in, (size_t)h->content, r->err);
    if (have < 0)
        return -1;
    if ((uint64_t)have < h->content)
        return lf_fail_at(r->err, h->offset + 4, "packet length past the end",
                          "the packet at %llu says %llu bytes follow its header, %lld do",
                          (unsigned long long)h->offset, (unsigned long long)h->content,
                          (long long)have);
    const uint8_t *p = lf_mt_stream_at(&r->in);
    *c = (mt_cursor){p, p + h->content, p, lf_mt_stream_offset(&r->in), r->err};
    return 0;
}

/* An event's header: its code and its full time from the packet's. */
static int event_header(mt_cursor *c, const mt_packet *h, uint32_t *code, uint64_t *time)
{
    uint64_t at = mt_offset(c), word;
    if (mt_get_uint(c, 4, "an event header", &word))
        return -1;
    const uint64_t mask = (1u << MT_TIME_BITS) - 1;
    uint64_t low = word & mask, start_low = h->time_begin & mask;
    if (low < start_low)
        low += 1u << MT_TIME_BITS; /* the short time wrapped inside the packet */
    *time = (h->time_begin & ~mask) + low;
    *code = (uint32_t)(word >> MT_TIME_BITS);
    if (*time < h->time_begin || *time > h->time_end)
        return lf_fail_at(c->err, at, "event time outside its packet",
                          "%llu us, the packet spans %llu to %llu", (unsigned long long)*time,
                          (unsigned long long)h->time_begin, (unsigned long long)h->time_end);
    return 0;
}

/* The trace-info packet: the first, one event. */
static int read_trace_info(mt_reading *r)
{
    mt_packet h;
    int rc = read_header(r, &h);
    if (rc)
        return rc < 0 ? -1 : lf_fail_at(r->err, 0, "not a Memtrace trace", "the file is empty");
    mt_cursor c;
    if (packet_bytes(r, &h, &c))
        return -1;
    uint32_t code;
    uint64_t time, word, pid, at = mt_offset(&c);
    if (event_header(&c, &h, &code, &time))
        return -1;
    if (code != MT_EV_TRACE_INFO || time != h.time_begin)
        return lf_fail_at(r->err, at, "no trace info", "the first event is code %u", code);
    lf_mt_info *info = &r->t->info;
    info->version = h.version;
    info->start_us = time;
    if (mt_get_uint(&c, 8, "the sample rate", &word))
        return -1;
    memcpy(&info->sample_rate, &word, sizeof word);
    if (mt_get_uint(&c, 1, "the word size", &word))
        return -1;
    info->word_size = (uint32_t)word / 8; /* the trace gives bits */
    if (mt_get_string(&c, &r->t->strings, "the executable's name", &info->executable) ||
        mt_get_string(&c, &r->t->strings, "the host's name", &info->host) ||
        mt_get_string(&c, &r->t->strings, "the runtime's parameters", &info->runtime_params) ||
        mt_get_uint(&c, 8, "the pid", &pid))
        return -1;
    info->pid = pid;
    if (h.version >= 2 && mt_get_string(&c, &r->t->strings, "the context", &info->context))
        return -1;
    if (c.p != c.end)
        return lf_fail_at(r->err, mt_offset(&c), "bad trace info",
                          "%zu bytes after its fields", (size_t)(c.end - c.p));
    if (!(info->sample_rate > 0 && info->sample_rate <= 1) ||
        (word != 32 && word != 64))
        return lf_fail_at(r->err, at + 4, "bad trace info", "sample rate %g, word size %llu bits",
                          info->sample_rate, (unsigned long long)word);
    lf_mt_stream_skip(&r->in, (size_t)h.content);
    r->t->counts.packets++;
    r->t->counts.events++;
    return 0;
}

/* The decoding state of domain id, made at its first packet. */
static mt_domain *domain_of(mt_reading *r, const mt_packet *h)
{
    struct lf_mt_tables *tb = r->t->tables;
    for (uint32_t i = 0; i < tb->domain_count; i++)
        if (tb->domain[i]->id == h->domain)
            return tb->domain[i];
    if (tb->domain_count == MT_MAX_DOMAINS) {
        lf_fail_at(r->err, h->offset + 38, "too many domains",
                   "more than %d in one trace (leakfind's limit)", MT_MAX_DOMAINS);
        return NULL;
    }
    mt_domain *d = calloc(1, sizeof *d);
    if (!d) {
        lf_fail_nomem(r->err, "reading a trace");
        return NULL;
    }
    d->id = h->domain;
    d->last_time = r->t->info.start_us;
    tb->domain[tb->domain_count++] = d;
    r->t->counts.domains = tb->domain_count;
    return d;
}

/* An allocation event (long form, or short: code 101-116 is 1-16 words,
 * minor heap, one sample). */
static int read_alloc(mt_reading *r, mt_cursor *c, mt_domain *d, uint32_t code, lf_mt_alloc *a)
{
    int64_t length = code - 100, samples = 1, prefix;
    uint64_t source = LF_MT_MINOR, encoded;
    uint64_t at = mt_offset(c);
    if (code == MT_EV_ALLOC) {
        if (mt_get_vint(c, "an allocation's length", &length) ||
            mt_get_vint(c, "an allocation's samples", &samples) ||
            mt_get_uint(c, 1, "an allocation's source", &source))
            return -1;
        if (length < 0 || samples < 1 || samples > length + 1 || source > LF_MT_EXTERNAL)
            return lf_fail_at(r->err, at, "bad allocation",
                              "length %lld, samples %lld, source %llu", (long long)length,
                              (long long)samples, (unsigned long long)source);
    }
    if (mt_get_vint(c, "a backtrace's common prefix", &prefix) ||
        mt_get_uint(c, code == MT_EV_ALLOC ? 2 : 1, "a backtrace's length", &encoded))
        return -1;
    if (prefix < 0)
        return lf_fail_at(r->err, at, "bad allocation", "common prefix %lld", (long long)prefix);
    a->length = (uint64_t)length;
    a->samples = (uint64_t)samples;
    a->source = (uint32_t)source;
    a->domain = d->id;
    return mt_read_backtrace(c, r->t, d, (uint64_t)prefix, encoded, &a->site);
}

/* A promotion's or collection's allocation: the id `delta` before the
 * packet's next. */
static int read_target(mt_cursor *c, uint64_t next_id, int promote, uint64_t *id)
{
    uint64_t at = mt_offset(c);
    int64_t delta;
    if (mt_get_vint(c, promote ? "a promotion's id" : "a collection's id", &delta))
        return -1;
    if (promote && delta < 0)
        return lf_fail_at(c->err, at, "bad promotion", "it names a later allocation");
    *id = next_id - 1 - (uint64_t)delta;
    return 0;
}

/* One event of a packet of events. */
static int read_event(mt_reading *r, mt_cursor *c, const mt_packet *h, mt_domain *d,
                      uint64_t *next_id)
{
    lf_mt_counts *n = &r->t->counts;
    const lf_mt_visitor *v = r->v;
    uint64_t at = mt_offset(c), time, id = 0;
    uint32_t code;
    if (event_header(c, h, &code, &time))
        return -1;
    if (time < d->last_time)
        return lf_fail_at(r->err, at, "event times go backwards",
                          "%llu us after an event at %llu", (unsigned long long)time,
                          (unsigned long long)d->last_time);
    d->last_time = time;
    uint64_t dt = time - r->t->info.start_us;
    if (dt > n->end_us)
        n->end_us = dt;
    n->events++;
    if (code == MT_EV_LOCATION) {
        n->location_events++;
        return mt_read_location(c, r->t, d);
    }
    if (code == MT_EV_ALLOC || (code >= MT_EV_SHORT_FIRST && code <= MT_EV_SHORT_LAST)) {
        lf_mt_alloc a = {.id = *next_id, .time_us = dt};
        if (read_alloc(r, c, d, code, &a))
            return -1;
        ++*next_id;
        n->allocs++;
        n->samples += a.samples;
        return v && v->alloc ? v->alloc(v->ctx, &a, r->err) : 0;
    }
    if (code == MT_EV_PROMOTE || code == MT_EV_COLLECT) {
        int promote = code == MT_EV_PROMOTE;
        if (read_target(c, *next_id, promote, &id))
            return -1;
        if (promote) {
            n->promotes++;
            return v && v->promote ? v->promote(v->ctx, id, dt, r->err) : 0;
        }
        n->collects++;
        return v && v->collect ? v->collect(v->ctx, id, dt, r->err) : 0;
    }
    if (code == MT_EV_TRACE_INFO)
        return lf_fail_at(r->err, at, "second trace info", "a trace has one, in its first packet");
    return lf_fail_at(r->err, at, "unknown event code", "%u", code);
}

/* A packet after the first: its events, or nothing when another process
 * wrote it (a fork's child still holding the file). */
static int read_packet(mt_reading *r, const mt_packet *h)
{
    mt_cursor c;
    if (packet_bytes(r, h, &c))
        return -1;
    r->t->counts.packets++;
    if (h->pid != r->t->info.pid) {
        r->t->counts.skipped_packets++;
        lf_mt_stream_skip(&r->in, (size_t)h->content);
        return 0;
    }
    mt_domain *d = domain_of(r, h);
    if (!d)
        return -1;
    if (mt_check_cache(d, h->verify_ix, h->verify_pred, h->verify_value))
        return lf_fail_at(r->err, h->offset + (h->version >= 3 ? 40 : 38),
                          "backtrace cache out of step",
                          "the packet's check of slot %u disagrees with the decoded cache",
                          h->verify_ix);
    uint64_t next_id = h->alloc_begin;
    while (c.p < c.end)
        if (read_event(r, &c, h, d, &next_id))
            return -1;
    if (next_id != h->alloc_end)
        return lf_fail_at(r->err, h->offset + (h->version >= 3 ? 60 : 58), "allocation ids out of step",
                          "the packet's allocations end at id %llu, its header says %llu",
                          (unsigned long long)next_id, (unsigned long long)h->alloc_end);
    lf_mt_stream_skip(&r->in, (size_t)h->content);
    return 0;
}

int lf_mt_read_fd(int fd, const lf_mt_visitor *v, lf_mt_trace *t, lf_error *err)
{
    memset(t, 0, sizeof *t);
    mt_reading r = {t, v, {0}, err};
    t->tables = calloc(1, sizeof *t->tables);
    t->site = calloc(1, sizeof *t->site);
    if (!t->tables || !t->site || lf_strtab_init(&t->strings))
        return lf_fail_nomem(err, "reading a trace");
    t->tables->site_cap = t->site_count = 1;
    if (lf_mt_stream_open(&r.in, fd, err))
        return -1;
    int rc = read_trace_info(&r);
    while (!rc) {
        mt_packet h;
        rc = read_header(&r, &h);
        if (!rc)
            rc = read_packet(&r, &h);
    }
    t->counts.bytes = lf_mt_stream_offset(&r.in);
    lf_mt_stream_close(&r.in);
    return rc < 0 ? -1 : 0;
}

void lf_mt_trace_free(lf_mt_trace *t)
{
    if (t->tables) {
        for (uint32_t i = 0; i < t->tables->domain_count; i++) {
            lf_big_free(t->tables->domain[i]->site_at);
            free(t->tables->domain[i]);
        }
        lf_mt_index_free(&t->tables->location_of_code);
        lf_mt_index_free(&t->tables->site_of_key);
        free(t->tables);
    }
    lf_strtab_free(&t->strings);
    lf_big_free(t->frame);
    lf_big_free(t->location);
    lf_big_free(t->site);
    memset(t, 0, sizeof *t);
}
