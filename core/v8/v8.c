/* v8.c - reads a V8 heap snapshot's JSON into flat arrays (v8_internal.h).
 *
 * The file is mapped, never copied: the header (snapshot.meta) is parsed
 * first and says how wide node and edge rows are and how many there are;
 * "nodes" and "edges" are read straight into per-field arrays sized from
 * those counts (checked against the bytes left first), "strings" into a
 * string table, and every other member is skipped. The two big arrays are
 * split between two threads at a comma: the second thread counts the values
 * before its half (a byte scan, much faster than parsing) and both store by
 * value index, so the result does not depend on the split. Semantics live in
 * v8_model.c. */
#include "v8.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../base/bigmem.h"
#include "../base/populate.h"
#include "../base/file.h"
#include "../base/file_copy.h"
#include "../model/edge_offsets.h"
#include "json_scan.h"
#include "v8_internal.h"
#include "v8_window.h"
#include "../base/vec.h"

#define MAX_FIELDS V8_MAX_FIELDS
#define MAX_TYPES V8_MAX_TYPES
#define THREADED_MIN_BYTES (1u << 22)

enum { F_SKIP, F_TYPE, F_NAME, F_ID, F_SIZE, F_EDGES, F_DETACHED, F_TO, F_TRACE, F_KINDS };

typedef struct v8_meta {
    unsigned node_fields, edge_fields;
    uint8_t node_field_kind[MAX_FIELDS], edge_field_kind[MAX_FIELDS];
    unsigned node_type_count, edge_type_count;
    uint8_t node_type_kind[MAX_TYPES], edge_type_kind[MAX_TYPES];
    int have_meta, have_node_count, have_edge_count, have_detached, have_trace_field;
    uint64_t node_count, edge_count, root_index;
    uint64_t trace_function_count;   /* > 0: allocation tracking was on */
} v8_meta;

int lf_v8_detect(const uint8_t *head, size_t len)
{
    /* '{' then the key "snapshot", blanks allowed around */
    static const char key[] = "\"snapshot\"";
    size_t i = 0;
    int stage = 0;
    while (i < len) {
        uint8_t c = head[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            i++;
            continue;
        }
        if (stage == 0) {
            if (c != '{')
                return 0;
            stage = 1;
            i++;
            continue;
        }
        return len - i >= sizeof key - 1 && memcmp(head + i, key, sizeof key - 1) == 0;
    }
    return 0;
}

/* Reads ["a", "b", ...] calling back with each name's position. */
typedef int (*name_fn)(void *ctx, unsigned index, const char *name, size_t len, lf_json *j);

static int read_names(lf_json *j, void *ctx, name_fn fn, char **buf, size_t *cap, const char *what)
{
    if (lf_json_expect(j, '[', what))
        return -1;
    if (lf_json_peek(j) == ']') {
        j->pos++;
        return 0;
    }
    for (unsigned i = 0;; i++) {
        size_t len;
        uint64_t at = j->pos;
        if (lf_json_string(j, buf, cap, &len))
            return -1;
        j->err->kind = LF_OK;
        if (fn(ctx, i, *buf, len, j)) {
            if (j->err->kind == LF_OK)
                lf_fail_at(j->err, at, "unsupported snapshot layout", "%s", what);
            return -1;
        }
        int more = lf_json_next(j, ']', what);
        if (more <= 0)
            return more;
    }
}

static int node_field(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    v8_meta *m = ctx;
    (void)j;
    if (i >= MAX_FIELDS)
        return -1;
    m->node_fields = i + 1;
    m->node_field_kind[i] = lf_json_key_is(name, len, "type") ? F_TYPE
                          : lf_json_key_is(name, len, "name") ? F_NAME
                          : lf_json_key_is(name, len, "id") ? F_ID
                          : lf_json_key_is(name, len, "self_size") ? F_SIZE
                          : lf_json_key_is(name, len, "edge_count") ? F_EDGES
                          : lf_json_key_is(name, len, "detachedness") ? F_DETACHED
                          : lf_json_key_is(name, len, "trace_node_id") ? F_TRACE : F_SKIP;
    m->have_detached |= m->node_field_kind[i] == F_DETACHED;
    m->have_trace_field |= m->node_field_kind[i] == F_TRACE;
    return 0;
}

static int edge_field(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    v8_meta *m = ctx;
    (void)j;
    if (i >= MAX_FIELDS)
        return -1;
    m->edge_fields = i + 1;
    m->edge_field_kind[i] = lf_json_key_is(name, len, "type") ? F_TYPE
                          : lf_json_key_is(name, len, "name_or_index") ? F_NAME
                          : lf_json_key_is(name, len, "to_node") ? F_TO : F_SKIP;
    return 0;
}

typedef struct type_ctx {
    v8_meta *m;
    v8_raw *raw;
} type_ctx;

static int trace_info_field(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    (void)j;
    if (i >= MAX_FIELDS)
        return -1;
    v8_trace_info_field(ctx, i, name, len);
    return 0;
}

static int trace_node_field(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    (void)j;
    if (i >= MAX_FIELDS)
        return -1;
    v8_trace_node_field(ctx, i, name, len);
    return 0;
}

static int location_field(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    (void)j;
    if (i >= MAX_FIELDS)
        return -1;
    v8_places_field(ctx, i, name, len);
    return 0;
}

static int node_type(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    type_ctx *t = ctx;
    static const char *const known[] = {"hidden", "array", "string", "object", "code", "closure",
                                        "regexp", "number", "native", "synthetic",
                                        "concatenated string", "sliced string", "symbol", "bigint",
                                        "object shape"};
    if (i >= MAX_TYPES)
        return -1;
    t->m->node_type_kind[i] = V8N_OTHER;
    for (unsigned k = 0; k < sizeof known / sizeof known[0]; k++)
        if (lf_json_key_is(name, len, known[k]))
            t->m->node_type_kind[i] = (uint8_t)k;
    t->m->node_type_count = i + 1;
    free(t->raw->type_names[i]); /* a repeated "node_types" key replaces the first list */
    t->raw->type_names[i] = strndup(name, len);
    t->raw->type_count = i + 1;
    if (!t->raw->type_names[i])
        return lf_fail_nomem(j->err, "reading the snapshot header");
    return 0;
}

static int edge_type(void *ctx, unsigned i, const char *name, size_t len, lf_json *j)
{
    v8_meta *m = ctx;
    static const char *const known[] = {"context", "element", "property", "internal", "hidden",
                                        "shortcut", "weak"};
    (void)j;
    if (i >= MAX_TYPES)
        return -1;
    m->edge_type_kind[i] = V8E_OTHER;
    for (unsigned k = 0; k < sizeof known / sizeof known[0]; k++)
        if (lf_json_key_is(name, len, known[k]))
            m->edge_type_kind[i] = (uint8_t)k;
    m->edge_type_count = i + 1;
    return 0;
}

/* "node_types": [[type names...], "string", "number", ...]: the first entry names the types. */
static int read_types(lf_json *j, void *ctx, name_fn fn, char **buf, size_t *cap, const char *what)
{
    if (lf_json_expect(j, '[', what))
        return -1;
    if (read_names(j, ctx, fn, buf, cap, what))
        return -1;
    for (;;) {
        int more = lf_json_next(j, ']', what);
        if (more <= 0)
            return more;
        if (lf_json_skip(j))
            return -1;
    }
}

static int read_meta(lf_json *j, v8_meta *m, v8_raw *raw, char **buf, size_t *cap)
{
    if (lf_json_expect(j, '{', "snapshot.meta"))
        return -1;
    if (lf_json_peek(j) == '}') {
        j->pos++;
        return 0;
    }
    type_ctx t = {m, raw};
    for (;;) {
        size_t len;
        if (lf_json_string(j, buf, cap, &len) || lf_json_expect(j, ':', "snapshot.meta"))
            return -1;
        int rc;
        if (lf_json_key_is(*buf, len, "node_fields"))
            rc = read_names(j, m, node_field, buf, cap, "snapshot.meta.node_fields");
        else if (lf_json_key_is(*buf, len, "edge_fields"))
            rc = read_names(j, m, edge_field, buf, cap, "snapshot.meta.edge_fields");
        else if (lf_json_key_is(*buf, len, "node_types"))
            rc = read_types(j, &t, node_type, buf, cap, "snapshot.meta.node_types");
        else if (lf_json_key_is(*buf, len, "edge_types"))
            rc = read_types(j, m, edge_type, buf, cap, "snapshot.meta.edge_types");
        else if (lf_json_key_is(*buf, len, "trace_function_info_fields"))
            rc = read_names(j, raw->trace, trace_info_field, buf, cap, "snapshot.meta.trace_function_info_fields");
        else if (lf_json_key_is(*buf, len, "trace_node_fields"))
            rc = read_names(j, raw->trace, trace_node_field, buf, cap, "snapshot.meta.trace_node_fields");
        else if (lf_json_key_is(*buf, len, "location_fields"))
            rc = read_names(j, raw->places, location_field, buf, cap, "snapshot.meta.location_fields");
        else
            rc = lf_json_skip(j);
        if (rc)
            return -1;
        int more = lf_json_next(j, '}', "snapshot.meta");
        if (more <= 0)
            return more;
    }
}

static int read_header(lf_json *j, v8_meta *m, v8_raw *raw, char **buf, size_t *cap)
{
    if (lf_json_expect(j, '{', "snapshot"))
        return -1;
    if (lf_json_peek(j) == '}') {
        j->pos++;
        return 0;
    }
    for (;;) {
        size_t len;
        if (lf_json_string(j, buf, cap, &len) || lf_json_expect(j, ':', "snapshot"))
            return -1;
        int rc;
        if (lf_json_key_is(*buf, len, "meta")) {
            rc = read_meta(j, m, raw, buf, cap);
            m->have_meta = 1;
        } else if (lf_json_key_is(*buf, len, "node_count")) {
            rc = lf_json_uint(j, &m->node_count);
            m->have_node_count = 1;
        } else if (lf_json_key_is(*buf, len, "edge_count")) {
            rc = lf_json_uint(j, &m->edge_count);
            m->have_edge_count = 1;
        } else if (lf_json_key_is(*buf, len, "root_index")) {
            rc = lf_json_uint(j, &m->root_index);
        } else if (lf_json_key_is(*buf, len, "trace_function_count")) {
            rc = lf_json_uint(j, &m->trace_function_count);
        } else {
            rc = lf_json_skip(j);
        }
        if (rc)
            return -1;
        int more = lf_json_next(j, '}', "snapshot");
        if (more <= 0)
            return more;
    }
}

/* --- the number arrays --------------------------------------------------------- */

typedef struct array_job {
    const v8_meta *m;
    v8_raw *raw;
    /* The bytes: the whole file (base 0), or a copy of part of it (base:
     * the file offset of data[0]). Offsets are data's; the ones a part
     * keeps or reports (row notes, errors, the ']') are the file's. */
    const uint8_t *data;
    uint64_t base;
    lf_file_copy *copy;        /* the file, copied a chunk at a time (file_copy.h); NULL: read data */
    uint64_t start, end;       /* bytes of this part: values start..end, or up to a ']' */
    uint64_t first, total;     /* index of the first value here; values in the whole array */
    uint64_t parsed;           /* values read */
    uint64_t close;            /* where the ']' that ended the part is; NO_CLOSE: none seen */
    /* A copied chunk that is not the part's last leaves a row its end cuts
     * (one that starts in it) to the next chunk, so that the row is checked
     * whole, in the order a read of the whole part checks it: resume says
     * where that row starts (data's offset), NO_CLOSE when none was cut. */
    int whole_rows;
    uint64_t resume;
    /* The largest name its edges may look up as a string (element and
     * hidden edges' are indices; a row the split cuts counts either way):
     * check_references reads every edge only when it reaches the strings. */
    uint32_t name_max;
    uint64_t count_from;       /* a second part: its first value's index is the commas from here */
    int is_edges;
    lf_error err;
    int failed;
    lf_progress_counter *progress; /* bytes parsed, shared by the parts; NULL: nobody asks */
} array_job;

#define NO_CLOSE UINT64_MAX

/* Values between progress reports: at 2 to 8 bytes each, 16 to 64 MiB. */
#define VALUES_PER_REPORT ((uint64_t)8 << 20)

static int job_fail(array_job *job, uint64_t at, const char *reason)
{
    job->failed = 1;
    lf_fail_at(&job->err, job->base + at, reason, "in the %s array", job->is_edges ? "edges" : "nodes");
    return -1;
}

/* to_node / node fields, with the usual field counts as constant divisors. */
static inline uint64_t node_of_index(uint64_t v, unsigned fields)
{
    switch (fields) {
    case 6: return v / 6;
    case 7: return v / 7;
    case 5: return v / 5;
    default: return v / fields;
    }
}

/* A node's edge count. Narrow counts saturate: the offsets are narrow only
 * when edge_count is below UINT32_MAX, so a saturated count still exceeds
 * it and check_references refuses the file as it would the true count. */
static inline void set_edge_count(v8_raw *raw, uint64_t row, uint64_t count)
{
    lf_edge_offsets_set(&raw->edge_offset, row, raw->edge_offset.narrow && count > UINT32_MAX ? UINT32_MAX : count);
}

/* The bits of a node's type byte under mask become bits. A row cut by the
 * split between the threads has its type in one part and its detachedness
 * in the other: the two threads change disjoint bits of one byte. */
static inline void set_type_bits(uint8_t *byte, unsigned mask, unsigned bits)
{
    uint8_t old = __atomic_load_n(byte, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(byte, &old, (uint8_t)((old & ~mask) | bits), 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
        ;
}

/* The same for an edge's word: its kind and its name. */
static inline void set_word_bits(uint32_t *word, uint32_t mask, uint32_t bits)
{
    uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(word, &old, (old & ~mask) | bits, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

static inline uint32_t name_bits(uint64_t name)
{
    return name < V8_NAME_FAR ? (uint32_t)name : V8_NAME_FAR;
}

/* Stores value v, field `field` of row `row`; -1 (job failed) if invalid. */
static inline int store_value(array_job *job, const uint8_t *kind, uint64_t row, unsigned field, uint64_t v,
                              uint64_t at)
{
    const v8_meta *m = job->m;
    v8_raw *raw = job->raw;
    if (!job->is_edges) {
        switch (kind[field]) {
        case F_TYPE:
            if (v >= m->node_type_count)
                return job_fail(job, at, "node type out of range");
            set_type_bits(&raw->node_type[row], V8_NODE_TYPE_MASK, (unsigned)v);
            break;
        case F_NAME:
            if (v > UINT32_MAX)
                return job_fail(job, at, "string index out of range");
            raw->node_name[row] = (uint32_t)v;
            break;
        case F_ID:
            if (v > UINT32_MAX)
                return job_fail(job, at, "node id out of range");
            raw->node_id[row] = (uint32_t)v;
            break;
        case F_SIZE: raw->node_size[row] = v; break;
        case F_EDGES: set_edge_count(raw, row, v); break;
        case F_DETACHED:
            set_type_bits(&raw->node_type[row], 3u << V8_NODE_DOM_SHIFT, (unsigned)(v & 3) << V8_NODE_DOM_SHIFT);
            break;
        case F_TRACE:
            if (!raw->node_trace)
                break;
            if (v > UINT32_MAX)
                return job_fail(job, at, "trace node id out of range");
            raw->node_trace[row] = (uint32_t)v;
            break;
        default: break;
        }
        return 0;
    }
    switch (kind[field]) {
    case F_TYPE:
        if (v >= m->edge_type_count)
            return job_fail(job, at, "edge type out of range");
        set_word_bits(&raw->edge_word[row], ~V8_NAME_FAR, (uint32_t)m->edge_type_kind[v] << V8_EDGE_KIND_SHIFT);
        break;
    case F_NAME:
        if (v > UINT32_MAX)
            return job_fail(job, at, "edge name or index out of range");
        set_word_bits(&raw->edge_word[row], V8_NAME_FAR, name_bits(v));
        if (name_bits(v) > job->name_max)
            job->name_max = name_bits(v);
        break;
    case F_TO: {
        /* a multiple of the node field count below node_count of them */
        uint64_t node = node_of_index(v, m->node_fields);
        if (node * m->node_fields != v || node >= m->node_count)
            return job_fail(job, at, "edge target is not a node");
        raw->edge_target[row] = (uint32_t)node;
        break;
    }
    default: break;
    }
    return 0;
}

static inline int is_blank(uint8_t c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The value of eight ASCII digits (SWAR: summed in pairs, then fours). */
static inline uint64_t swar8(uint64_t chunk)
{
    uint64_t w = chunk - 0x3030303030303030ull;
    w = (w * 10) + (w >> 8);
    return (((w & 0x000000ff000000ffull) * (100 + (1000000ull << 32))) +
            (((w >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32)))) >> 32;
}

/* The value of the 1 to 7 leading digits of an eight-byte chunk: the
 * digits moved to the top bytes, '0's below, make an eight-digit number. */
static inline uint64_t swar_digits(uint64_t chunk, unsigned digits)
{
    return swar8((chunk << (8 * (8 - digits))) | (0x3030303030303030ull >> (8 * digits)));
}

/* Leading digits of an eight-byte chunk: 0 to 7, or 8 when all are. */
static inline unsigned chunk_digits(uint64_t chunk)
{
    uint64_t x = chunk ^ 0x3030303030303030ull;
    uint64_t nondigit = (x | (x + 0x7676767676767676ull)) & 0x8080808080808080ull;
    return nondigit ? (unsigned)__builtin_ctzll(nondigit) >> 3 : 8;
}

/* Bytes a row may take on the fast path: per value up to 15 digits and
 * two bytes of separator, and the last eight-byte load's overhang. */
#define FAST_ROW_BYTES(fields) ((uint64_t)(fields) * 17 + 16)

/* A whole row as V8 writes it ("9,1,3,0,40,0,0\n,": up to 15 digits a
 * value, ',' or one blank and ',' after each), with no bounds check per
 * byte: the caller has FAST_ROW_BYTES(fields) bytes before the part's end.
 * Returns the byte after the row, or 0 on anything else (longer numbers,
 * more blanks, the array's end), which the general loop then reads. */
static inline uint64_t fast_row(const uint8_t *d, uint64_t p, unsigned fields, uint64_t *vals)
{
    static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    for (unsigned f = 0; f < fields; f++) {
        uint64_t chunk;
        memcpy(&chunk, d + p, 8);
        unsigned digits = chunk_digits(chunk);
        if (digits - 1 < 7) {
            vals[f] = swar_digits(chunk, digits);
            p += digits;
        } else if (digits == 8) {
            uint64_t more;
            memcpy(&more, d + p + 8, 8);
            unsigned rest = chunk_digits(more);
            if (rest == 8)
                return 0;
            vals[f] = swar8(chunk) * pow10[rest] + (rest ? swar_digits(more, rest) : 0);
            p += 8 + rest;
        } else {
            return 0;
        }
        if (d[p] == ',')
            p++;
        else if (is_blank(d[p]) && d[p + 1] == ',')
            p += 2;
        else
            return 0;
    }
    return p;
}

/* Reads one non-negative integer at d[*p] (blanks first), leaving *p after
 * it. Returns 0, or -1 with *p at the fault (job failed). */
static inline int read_uint(array_job *job, const uint8_t *d, uint64_t end, uint64_t *p_io, uint64_t *out)
{
    uint64_t p = *p_io; /* at a non-blank byte */
    uint64_t at = p, v = 0;
    unsigned digits = 0;
    if (end - p >= 8) {
        /* Eight bytes at once: how many leading digits, then their value
         * (SWAR; up to 7 digits, the usual case, in a few instructions). */
        uint64_t chunk;
        memcpy(&chunk, d + p, 8);
        digits = chunk_digits(chunk);
        if (digits == 8) {
            digits = 0; /* eight or more: digit by digit below */
        } else if (digits > 0) {
            v = swar_digits(chunk, digits);
            p += digits;
        }
    }
    if (digits == 0) {
        while (p < end && (unsigned)(d[p] - '0') < 10 && digits < 19) {
            v = v * 10 + (unsigned)(d[p] - '0');
            p++;
            digits++;
        }
        if (digits == 0) {
            *p_io = at;
            return job_fail(job, at, p < end ? "expected a non-negative integer" : "truncated number array");
        }
        if (p < end && (unsigned)(d[p] - '0') < 10) { /* a 20th digit: may not fit */
            unsigned digit = (unsigned)(d[p] - '0');
            if (v > (UINT64_MAX - digit) / 10 || (p + 1 < end && (unsigned)(d[p + 1] - '0') < 10)) {
                *p_io = at;
                return job_fail(job, at, "number too large");
            }
            v = v * 10 + digit;
            p++;
        }
    }
    *p_io = p;
    *out = v;
    return 0;
}

/* A whole node or edge row, its fields at their known places. */
typedef struct row_layout {
    unsigned type, name, id, size, edges, detached, to, trace; /* field positions; MAX_FIELDS if absent */
} row_layout;

static row_layout layout_of(const uint8_t *kind, unsigned fields)
{
    row_layout l = {MAX_FIELDS, MAX_FIELDS, MAX_FIELDS, MAX_FIELDS, MAX_FIELDS, MAX_FIELDS, MAX_FIELDS,
                    MAX_FIELDS};
    for (unsigned f = 0; f < fields; f++)
        switch (kind[f]) {
        case F_TYPE: l.type = f; break;
        case F_NAME: l.name = f; break;
        case F_ID: l.id = f; break;
        case F_SIZE: l.size = f; break;
        case F_EDGES: l.edges = f; break;
        case F_DETACHED: l.detached = f; break;
        case F_TO: l.to = f; break;
        case F_TRACE: l.trace = f; break;
        default: break;
        }
    return l;
}

/* The offset of field f of the row that starts at byte p (for messages). */
static uint64_t field_offset(const uint8_t *d, uint64_t p, uint64_t end, unsigned f)
{
    for (unsigned k = 0; k < f && p < end; k++) {
        while (p < end && d[p] != ',')
            p++;
        p++;
    }
    while (p < end && is_blank(d[p]))
        p++;
    return p;
}

/* The fields of a part's row that it holds from field `from` up to `to`,
 * one by one with their checks: a row cut by the start or the end of a part. */
static int store_fields(array_job *job, const uint8_t *kind, uint64_t row, unsigned from, unsigned to,
                        const uint64_t *vals, uint64_t row_at)
{
    for (unsigned f = from; f < to; f++)
        if (store_value(job, kind, row, f, vals[f], field_offset(job->data, row_at, job->end, f - from)))
            return -1;
    return 0;
}

/* A whole node row: NULL, or why it is invalid (*fault_field: which field). */
static inline const char *store_node_row(array_job *job, const row_layout *l, uint64_t row, const uint64_t *vals,
                                         unsigned *fault_field)
{
    const v8_meta *m = job->m;
    v8_raw *raw = job->raw;
    uint64_t t = vals[l->type];
    if (t >= m->node_type_count)
        return *fault_field = l->type, "node type out of range";
    if ((vals[l->name] | vals[l->id]) > UINT32_MAX) {
        /* V8's ids are 32-bit (so are DevTools') */
        if (vals[l->name] > UINT32_MAX)
            return *fault_field = l->name, "string index out of range";
        return *fault_field = l->id, "node id out of range";
    }
    if (l->trace < MAX_FIELDS) {
        if (vals[l->trace] > UINT32_MAX)
            return *fault_field = l->trace, "trace node id out of range";
        raw->node_trace[row] = (uint32_t)vals[l->trace];
    }
    unsigned dom = l->detached < MAX_FIELDS ? (unsigned)(vals[l->detached] & 3) : 0;
    raw->node_type[row] = (uint8_t)(t | dom << V8_NODE_DOM_SHIFT);
    raw->node_name[row] = (uint32_t)vals[l->name];
    raw->node_id[row] = (uint32_t)vals[l->id];
    raw->node_size[row] = vals[l->size];
    set_edge_count(raw, row, vals[l->edges]);
    return NULL;
}

/* A whole edge row: NULL, or why it is invalid (*fault_field: which field). */
static inline const char *store_edge_row(array_job *job, const row_layout *l, uint64_t row, const uint64_t *vals,
                                         uint32_t *name_max, unsigned *fault_field)
{
    const v8_meta *m = job->m;
    v8_raw *raw = job->raw;
    uint64_t t = vals[l->type], v = vals[l->to], node = node_of_index(v, m->node_fields);
    if (t >= m->edge_type_count)
        return *fault_field = l->type, "edge type out of range";
    if (vals[l->name] > UINT32_MAX)
        return *fault_field = l->name, "edge name or index out of range";
    if (node * m->node_fields != v || node >= m->node_count)
        return *fault_field = l->to, "edge target is not a node";
    const uint8_t kind = m->edge_type_kind[t];
    const uint32_t name = name_bits(vals[l->name]);
    raw->edge_word[row] = (uint32_t)kind << V8_EDGE_KIND_SHIFT | name;
    raw->edge_target[row] = (uint32_t)node;
    const uint32_t looked_up = kind == V8E_ELEMENT || kind == V8E_HIDDEN ? 0 : name;
    *name_max = looked_up > *name_max ? looked_up : *name_max;
    return NULL;
}

/* A whole row's values stored, with its checks, and its start noted
 * every V8_ROW_STEP rows: NULL, or why it is invalid (*fault_field). */
static inline const char *store_whole_row(array_job *job, const row_layout *l, uint64_t row, uint64_t row_at,
                                          const uint64_t *vals, uint64_t *row_notes, uint32_t *name_max,
                                          unsigned *fault_field)
{
    if (row % V8_ROW_STEP == 0)
        row_notes[row / V8_ROW_STEP] = job->base + row_at;
    return job->is_edges ? store_edge_row(job, l, row, vals, name_max, fault_field)
                         : store_node_row(job, l, row, vals, fault_field);
}

/* After a value: a ',' (the next value follows) or the ']' that ends the
 * array (job->close), blanks allowed; the end of the part also ends it. */
static inline int pass_separator(array_job *job, const uint8_t *d, uint64_t end, uint64_t *p_io)
{
    uint64_t p = *p_io;
    if (p < end && d[p] == ',') {
        *p_io = p + 1;
        return 0;
    }
    while (p < end && is_blank(d[p]))
        p++;
    if (p < end && d[p] == ']') {
        job->close = job->base + p;
    } else if (p < end) {
        if (d[p] != ',')
            return job_fail(job, p, "expected ',' or ']'");
        p++;
    }
    *p_io = p;
    return 0;
}

/* The progress check rides on the check against the header's count: the
 * limit stops every VALUES_PER_REPORT values too (a compare of its own per
 * row cost 4% of the parse loop). -1: more values than the header said. */
static int report_or_overflow(array_job *job, uint64_t index, uint64_t p, uint64_t *reported, uint64_t *limit)
{
    if (index >= job->total)
        return job_fail(job, p, "more values than the header's count");
    lf_progress_add(job->progress, p - *reported);
    *reported = p;
    *limit = job->total - index > VALUES_PER_REPORT ? index + VALUES_PER_REPORT : job->total;
    return 0;
}

/* Parses one part of a number array, whole rows where it can and value by
 * value where it cannot, storing each row as it completes. The loop stays
 * in one body (110 lines): it is the reader's hot path, the row stores are
 * inlined into it, its state (row, index, the row's start) lives in
 * registers across its three paths, and the whole-row paths took its share
 * of the run from 20.8% to 17.4% (BENCHMARKS.md 1.3.1), then the window's
 * 1.84 to 1.58 s of 10 parses (1.3.2). */
static void *parse_part(void *arg)
{
    array_job *job = arg;
    const uint8_t *d = job->data;
    const unsigned fields = job->is_edges ? job->m->edge_fields : job->m->node_fields;
    const uint8_t *kind = job->is_edges ? job->m->edge_field_kind : job->m->node_field_kind;
    row_layout l = layout_of(kind, fields);
    if (!job->raw->node_trace)
        l.trace = MAX_FIELDS; /* tracking off: the field is all zeros, not kept */
    const uint64_t end = job->end;
    uint64_t p = job->start, index = job->first;
    uint64_t row = index / fields;
    unsigned field = (unsigned)(index % fields);
    uint64_t vals[MAX_FIELDS + 1] = {0};
    uint64_t row_at = p;          /* where this row's first value here starts */
    unsigned first_field = field; /* a part may start or end inside a row */
    const char *fault = NULL;
    unsigned fault_field = 0;
    uint32_t name_max = 0; /* the whole rows' (job->name_max: the rest) */
    job->close = NO_CLOSE;
    uint64_t reported = p, limit = job->total;
    if (job->progress && job->total - index > VALUES_PER_REPORT)
        limit = index + VALUES_PER_REPORT;
    uint64_t *row_notes = job->is_edges ? job->raw->edge_row_at : job->raw->node_row_at;
    const uint64_t fast_end = end > FAST_ROW_BYTES(fields) ? end - FAST_ROW_BYTES(fields) : 0;
    const uint64_t window_end = end > V8_WINDOW_READS ? end - V8_WINDOW_READS : 0;
    v8_window_rows window_rows;
    v8_window_rows_init(&window_rows, fields);
    for (;;) {
        /* Whole rows first, as V8 writes them: a window's worth at once,
         * else one row; the value by value loop below takes anything
         * else, and the rows that cross a report. */
        v8_window w;
        unsigned rows;
        if (field == 0 && p < window_end && index + V8_WINDOW_MAX_VALUES <= limit &&
            (rows = v8_window_open(d + p, &window_rows, &w))) {
            const uint8_t *at = d + p;
            for (; rows; rows--) {
                row_at = p + v8_window_next(&w);
                for (unsigned f = 0; f < fields; f++)
                    vals[f] = v8_window_take(at, &w);
                if ((fault = store_whole_row(job, &l, row, row_at, vals, row_notes, &name_max, &fault_field)))
                    break;
                index += fields;
                row++;
            }
            if (fault)
                break;
            p = row_at = p + v8_window_next(&w);
            continue;
        }
        uint64_t next;
        if (field == 0 && p < fast_end && index + fields <= limit && (next = fast_row(d, p, fields, vals))) {
            if ((fault = store_whole_row(job, &l, row, p, vals, row_notes, &name_max, &fault_field)))
                break;
            index += fields;
            row++;
            p = row_at = next;
            continue;
        }
        while (p < end && is_blank(d[p]))
            p++;
        if (p >= end)
            break;
        if (d[p] == ']') {
            job->close = job->base + p;
            break;
        }
        if (index >= limit && report_or_overflow(job, index, p, &reported, &limit))
            return NULL;
        if (field == 0 && row % V8_ROW_STEP == 0) /* where labels and names are read back from */
            row_notes[row / V8_ROW_STEP] = job->base + p;
        if (read_uint(job, d, end, &p, &vals[field]))
            return NULL;
        index++;
        if (pass_separator(job, d, end, &p))
            return NULL;
        if (++field < fields && job->close == NO_CLOSE)
            continue;
        if (field < fields)
            break; /* the array ends inside a row: the fields it has are stored below */
        /* a row is complete (perhaps only from first_field on) */
        if (first_field != 0) {
            if (store_fields(job, kind, row, first_field, fields, vals, row_at))
                return NULL;
        } else {
            fault = job->is_edges ? store_edge_row(job, &l, row, vals, &name_max, &fault_field)
                                  : store_node_row(job, &l, row, vals, &fault_field);
            if (fault)
                break;
        }
        field = 0;
        first_field = 0;
        row++;
        row_at = p;
        if (job->close != NO_CLOSE)
            break;
    }
    if (name_max > job->name_max)
        job->name_max = name_max;
    if (fault) {
        job_fail(job, field_offset(d, row_at, end, fault_field), fault);
        return NULL;
    }
    if (job->whole_rows && field != 0 && first_field == 0 && job->close == NO_CLOSE) {
        /* a copied chunk cut this row: the next chunk reads it whole */
        job->resume = row_at;
        job->parsed = index - field - job->first;
        return NULL;
    }
    /* a row cut by the end of this part: the fields it has */
    if (store_fields(job, kind, row, first_field, field, vals, row_at))
        return NULL;
    job->parsed = index - job->first;
    return NULL;
}

/* Commas in n bytes, and (*closed) whether they hold a ']'. The second
 * thread counts half an array with it before it parses: SSE2 counts 16
 * bytes in a few instructions (eight-byte SWAR took a fifth as long as
 * parsing the same bytes). */
static uint64_t count_commas(const uint8_t *p, uint64_t n, int *closed)
{
    uint64_t count = 0, i = 0;
    int close = 0;
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(','), bracket = _mm_set1_epi8(']');
    while (n - i >= 16) {
        /* per byte lane, up to 255 blocks: each match subtracts -1 */
        __m128i lanes = _mm_setzero_si128(), brackets = _mm_setzero_si128();
        uint64_t blocks = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
        for (uint64_t b = 0; b < blocks; b++, i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(v, comma));
            brackets = _mm_or_si128(brackets, _mm_cmpeq_epi8(v, bracket));
        }
        __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
        count += (uint64_t)_mm_cvtsi128_si32(sums) + (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
        close |= _mm_movemask_epi8(brackets) != 0;
    }
#endif
    for (; i < n; i++) {
        count += p[i] == ',';
        close |= p[i] == ']';
    }
    *closed = close;
    return count;
}

/* Bytes of the file copied at a time (lf_v8_copy_chunk_set): a quarter of
 * a 2 MiB page, which the copy leaves in the core's cache for the parse. */
#define COPY_CHUNK_DEFAULT ((size_t)256 << 10)
static size_t copy_chunk = COPY_CHUNK_DEFAULT;

void lf_v8_copy_chunk_set(size_t bytes)
{
    copy_chunk = bytes ? bytes : COPY_CHUNK_DEFAULT;
}

/* Where a chunk of a part ends: just before its last comma, so that no
 * value straddles two chunks, or its whole length when it ends the part.
 * 0 when that comma does not follow a digit (blanks between allowed): a
 * chunk ending in "1,," would lose the empty value the whole part fails
 * on, so the caller reads the rest, and anything malformed there, from
 * the mapping. */
static uint64_t chunk_cut(const uint8_t *bytes, uint64_t len, int ends_part)
{
    if (ends_part)
        return len;
    const uint8_t *comma = memrchr(bytes, ',', len);
    if (!comma)
        return 0;
    const uint64_t cut = (uint64_t)(comma - bytes);
    uint64_t before = cut;
    while (before > 0 && is_blank(bytes[before - 1]))
        before--;
    return before > 0 && (unsigned)(bytes[before - 1] - '0') < 10 ? cut : 0;
}

/* A part of an array read from copies of the file, a chunk at a time
 * (file_copy.h), each parsed as a part of its own that carries on the
 * values' count; a row the chunk's end cuts is read again, whole, from the
 * next chunk (array_job.whole_rows). Same values, row notes, errors and
 * offsets as parse_part over the whole part (tests/unit/test_v8_copy.c,
 * and fuzz_v8 compares the two). A failed copy, a chunk without a comma
 * to cut at, or a row longer than a chunk leaves the rest of the part to
 * the mapping. The chunks report their bytes to progress themselves:
 * parse_part reports every 8M values, more than a chunk holds. */
static void parse_copied(array_job *job)
{
    if (!job->copy) {
        parse_part(job);
        return;
    }
    uint64_t pos = job->start, parsed = 0;
    int from_mapping = 0;
    job->close = NO_CLOSE;
    for (;;) {
        const uint64_t len = job->end - pos < copy_chunk ? job->end - pos : copy_chunk;
        const int last = pos + len >= job->end;
        const uint8_t *bytes = from_mapping ? NULL : lf_file_copy_read(job->copy, pos, (size_t)len);
        const uint64_t cut = bytes ? chunk_cut(bytes, len, last) : 0;
        const int copied = cut > 0 || (bytes && last);
        array_job part = *job;
        part.first = job->first + parsed;
        part.name_max = 0;
        part.resume = NO_CLOSE;
        if (copied) {
            part.data = bytes;
            part.base = pos;
            part.start = 0;
            part.end = cut;
            part.progress = NULL;
            part.whole_rows = !last;
        } else {
            part.start = pos; /* the rest, from the mapping */
        }
        parse_part(&part);
        job->name_max = part.name_max > job->name_max ? part.name_max : job->name_max;
        if (part.failed) {
            job->failed = 1;
            job->err = part.err;
            return;
        }
        parsed += part.parsed;
        job->close = part.close;
        if (!copied || last || part.close != NO_CLOSE)
            break;
        /* on after the cut, or from the start of the row the cut split; a
         * row that starts the chunk and does not end in it: the mapping */
        const uint64_t next = part.resume == NO_CLOSE ? pos + cut + 1 : pos + part.resume;
        from_mapping = next == pos;
        lf_progress_add(job->progress, next - pos);
        pos = next;
    }
    job->parsed = parsed;
}

/* count_commas over bytes [from, from + n) of the file, from copies when
 * the job has them. */
static uint64_t count_copied(const array_job *job, uint64_t from, uint64_t n, int *closed)
{
    if (!job->copy)
        return count_commas(job->data + from, n, closed);
    uint64_t count = 0;
    int close = 0;
    for (uint64_t at = from; at < from + n;) {
        const uint64_t len = from + n - at < copy_chunk ? from + n - at : copy_chunk;
        const uint8_t *bytes = lf_file_copy_read(job->copy, at, (size_t)len);
        int c;
        count += count_commas(bytes ? bytes : job->data + at, len, &c);
        close |= c;
        at += len;
    }
    *closed = close;
    return count;
}

/* The second part of an array: its first value's index is the number of
 * commas before it, counted here while the first part is parsed. A ']' in
 * the first part means the array ended there: nothing to read. */
static void *second_part_run(void *arg)
{
    array_job *job = arg;
    int closed;
    job->first = count_copied(job, job->count_from, job->start - job->count_from, &closed);
    job->parsed = 0;
    job->close = NO_CLOSE;
    if (!closed)
        parse_copied(job);
    return NULL;
}

/* The array's length in bytes if all its values were as long as those of
 * the 64 KiB at byte at; 0 when those bytes do not tell (they end an array). */
static uint64_t length_estimate(const uint8_t *d, uint64_t at, uint64_t file_end, uint64_t total)
{
    uint64_t sample = file_end - at < 65536 ? file_end - at : 65536;
    int closed;
    uint64_t commas = count_commas(d + at, sample, &closed);
    if (closed || commas == 0 || total / commas > (UINT64_MAX >> 20) / sample)
        return 0;
    return total / commas * sample + total % commas * sample / commas;
}

/* Where to split an array that starts at byte start and holds total values
 * into two parts for two threads, before its end is known: its length is
 * estimated from the values per byte of its first 64 KiB, then again from
 * the 64 KiB at the middle of that estimate (numbers grow along V8's node
 * array: node ids do). The second part gets a little less, as its thread
 * first counts the commas of the first. 0: one part. The estimate only
 * balances the threads: a wrong one costs time (an array that ends inside
 * the first part is read by one thread). */
static uint64_t split_guess(const uint8_t *d, uint64_t start, uint64_t file_end, uint64_t total)
{
    uint64_t estimate = length_estimate(d, start, file_end, total);
    if (estimate < THREADED_MIN_BYTES)
        return 0;
    if (estimate / 2 < file_end - start) {
        uint64_t middle = length_estimate(d, start + estimate / 2, file_end, total);
        if (middle >= THREADED_MIN_BYTES)
            estimate = middle;
    }
    if (estimate > file_end - start)
        estimate = file_end - start;
    uint64_t split = start + estimate / 16 * 9;
    while (split < file_end && d[split] != ',')
        split++;
    return split + 1 < file_end ? split + 1 : 0; /* just after a comma: a value starts there */
}

/* Reads '[' v, v, ... ']' of exactly `total` values on one or two threads. */
/* cut_at: NULL, or (partial snapshots) where a cut edges array's last whole
 * row ends, set when the file ends inside the array. */
/* copies: NULL, or one copy of the file per thread (file_copy.h). */
static int read_array(lf_json *j, const v8_meta *m, v8_raw *raw, int is_edges, uint64_t total,
                      unsigned threads, lf_file_copy *copies, lf_progress_counter *progress, uint64_t *cut_at)
{
    const char *what = is_edges ? "edges" : "nodes";
    if (lf_json_expect(j, '[', what))
        return -1;
    const uint64_t start = j->pos;
    array_job jobs[2];
    for (int k = 0; k < 2; k++)
        jobs[k] = (array_job){.m = m, .raw = raw, .data = j->data, .copy = copies ? &copies[k] : NULL,
                              .start = start, .end = j->end,
                              .total = total, .is_edges = is_edges, .close = NO_CLOSE,
                              .progress = progress->progress ? progress : NULL};
    uint64_t split = threads >= 2 && j->end - start >= THREADED_MIN_BYTES
                         ? split_guess(j->data, start, j->end, total) : 0;
    unsigned parts = 1;
    if (split) {
        jobs[0].end = split - 1; /* its last value's comma is not its to read */
        jobs[1].start = split;
        jobs[1].count_from = start;
        parts = 2;
    }
    pthread_t t;
    int threaded = parts == 2 && pthread_create(&t, NULL, second_part_run, &jobs[1]) == 0;
    parse_copied(&jobs[0]);
    if (threaded)
        pthread_join(t, NULL);
    else if (parts == 2)
        second_part_run(&jobs[1]);
    /* the job whose error counts: the first part's, else the second's */
    const array_job *failed = jobs[0].failed ? &jobs[0]
                              : parts == 2 && jobs[0].close == NO_CLOSE && jobs[1].failed ? &jobs[1] : NULL;
    uint64_t got = jobs[0].parsed, close = jobs[0].close;
    if (failed && memchr(j->data + start, ']', j->end - start)) {
        *j->err = failed->err;
        return -1;
    }
    if (!failed && close == NO_CLOSE && parts == 2) {
        if (jobs[0].parsed != jobs[1].first)
            return lf_fail_at(j->err, split, "malformed number array", "in the %s array", what);
        got += jobs[1].parsed;
        close = jobs[1].close;
    }
    if (failed || close == NO_CLOSE) {
        /* the file ends inside the array (a value cut there may have failed) */
        lf_fail_at(j->err, j->end, "truncated JSON", "the file ends inside the %s array", what);
        j->err->truncated = 1;
        if (!is_edges || !cut_at)
            return -1;
        /* a partial snapshot: the edges up to the last whole row; the value
         * after the last comma may itself be cut */
        const uint8_t *comma = memrchr(j->data + start, ',', j->end - start);
        array_job cut = jobs[0];
        cut.progress = NULL; /* read once already */
        cut.end = comma ? (uint64_t)(comma - j->data) : start;
        cut.failed = 0;
        parse_part(&cut);
        if (cut.failed) {
            *j->err = cut.err;
            return -1;
        }
        raw->edge_count = cut.parsed / m->edge_fields;
        raw->edge_name_max = cut.name_max;
        *cut_at = cut.end;
        j->pos = j->end;
        return 0;
    }
    if (got != total)
        return lf_fail_at(j->err, close, "wrong number of values",
                          "the %s array holds %llu values, the header says %llu", what,
                          (unsigned long long)got, (unsigned long long)total);
    if (is_edges)
        raw->edge_name_max = jobs[0].name_max > jobs[1].name_max ? jobs[0].name_max : jobs[1].name_max;
    j->pos = close + 1;
    return 0;
}

enum { STRINGS_RESERVE_MAX = 1u << 30, STRINGS_AHEAD = 8u << 20, STRINGS_AHEAD_MIN = 4u << 20 };

/* The strings' loop: each appended to the table, and the pages mapper (when
 * there is one) told how far the text has got. */
static int append_strings(lf_json *j, v8_raw *raw, char **buf, size_t *cap, lf_progress_counter *progress,
                          lf_pages_ahead *ahead, uint64_t text_from)
{
    uint64_t report_at = progress->progress ? j->pos + LF_PROGRESS_STEP : UINT64_MAX;
    for (;;) {
        size_t len;
        const char *text;
        if (lf_json_string_ref(j, &text, &len, buf, cap))
            return -1;
        if (raw->string_count == UINT32_MAX - V8_STRING_BASE || lf_strtab_append(&raw->strings, text, len) < 0)
            return lf_fail_nomem(j->err, "reading strings");
        raw->string_count++;
        if (ahead)
            lf_pages_ahead_tell(ahead, raw->strings.bytes_len - text_from);
        if (j->pos >= report_at) {
            lf_progress_reach(progress, j->pos);
            report_at = j->pos + LF_PROGRESS_STEP;
        }
        int more = lf_json_next(j, ']', "strings");
        if (more <= 0)
            return more;
    }
}

/* The file's strings, appended in its order (V8 writes each string once):
 * file string k is table string V8_STRING_BASE + k. */
static int read_strings(lf_json *j, v8_raw *raw, char **buf, size_t *cap, lf_progress_counter *progress,
                        unsigned threads)
{
    if (lf_json_expect(j, '[', "strings"))
        return -1;
    if (lf_json_peek(j) == ']') {
        j->pos++;
        return 0;
    }
    /* the text is at most the bytes left (escapes only shrink): reserved,
     * it is written once, not copied at every doubling (pages of the
     * reserve never touched cost nothing; past STRINGS_RESERVE_MAX, where
     * strings come before the arrays, it doubles as before) */
    uint64_t left = j->end - j->pos;
    if (lf_strtab_reserve_bytes(&raw->strings, raw->strings.bytes_len + (left < STRINGS_RESERVE_MAX ? left : STRINGS_RESERVE_MAX) + 1))
        return lf_fail_nomem(j->err, "reading strings");
    /* The strings are read alone on their core (the Express snapshot: 13
     * MB of text, 40 ms, most of it first touches of the reserve): the
     * other core maps the reserve in just ahead. Only a reserve that holds
     * them all, which the appends never move; not for a few MiB, where a
     * thread costs more than the faults. */
    lf_pages_ahead ahead;
    const uint64_t text_from = raw->strings.bytes_len;
    int mapping = threads > 1 && left >= STRINGS_AHEAD_MIN && left < STRINGS_RESERVE_MAX;
    if (mapping)
        lf_pages_ahead_start(&ahead, raw->strings.bytes + text_from, left, STRINGS_AHEAD);
    int rc = append_strings(j, raw, buf, cap, progress, mapping ? &ahead : NULL, text_from);
    if (mapping)
        lf_pages_ahead_stop(&ahead);
    return rc;
}

/* Arrays sized from the header's counts, once those counts are known to fit
 * in the bytes that are left (a value takes at least two bytes: "0,"). */
static int allocate(lf_json *j, const v8_meta *m, v8_raw *raw, int is_edges, int partial)
{
    uint64_t count = is_edges ? m->edge_count : m->node_count;
    unsigned fields = is_edges ? m->edge_fields : m->node_fields;
    uint64_t left = j->end - j->pos, fit = left / 2 / fields + 1;
    if (count > fit && partial && is_edges) {
        count = fit; /* a cut snapshot: room for the edges the file can hold */
    } else if (count > fit && partial) {
        lf_fail_at(j->err, j->pos, "snapshot cut off inside its nodes array",
                   "--partial needs every node: node_count %llu does not fit in the %llu bytes left",
                   (unsigned long long)count, (unsigned long long)left);
        return -1;
    } else if (count > fit) {
        lf_fail_at(j->err, j->pos, "count larger than the file",
                   "%s_count %llu does not fit in the %llu bytes left", is_edges ? "edge" : "node",
                   (unsigned long long)count, (unsigned long long)left);
        j->err->truncated = is_edges; /* perhaps a cut file: --partial can read it */
        return -1;
    }
    if (!is_edges) {
        if (count >= 0x7fffffffu)
            return lf_fail_at(j->err, j->pos, "too many nodes", "%llu", (unsigned long long)count);
        size_t n = (size_t)count + 1;
        raw->node_count = (uint32_t)count;
        raw->node_type = lf_big_calloc(n, 1);
        /* the kinds the nodes' types were checked against (a later header
         * could list others) */
        memcpy(raw->type_kind, m->node_type_kind, sizeof raw->type_kind);
        raw->have_detached = m->have_detached;
        /* these become the snapshot's (names: classes; sizes: narrowed).
         * Not cleared: every row's name, id and size is written (read_array
         * refuses a nodes array short of node_count rows), by the parse's
         * threads, which fault the pages in on both cores; cleared, the
         * three took 20 ms on one core before the parse (the Express
         * snapshot's 1.7M nodes) */
        raw->node_name = lf_big_result_malloc(n * sizeof *raw->node_name);
        raw->node_id = lf_big_result_malloc(n * sizeof *raw->node_id);
        raw->node_size = lf_big_result_malloc(n * sizeof *raw->node_size);
        raw->node_row_at = lf_big_result_calloc(n / V8_ROW_STEP + 1, sizeof *raw->node_row_at);
        /* narrow when the header's edge_count fits (a cut file has fewer) */
        /* not zeroed: every row sets its count, check_references the end */
        const int offsets_failed =
            lf_edge_offsets_alloc_unset(&raw->edge_offset, raw->node_count + 1, m->edge_count);
        if (m->have_trace_field && m->trace_function_count > 0 &&
            !(raw->node_trace = lf_big_result_calloc(n, sizeof *raw->node_trace)))
            return lf_fail_nomem(j->err, "reading nodes");
        if (!raw->node_type || !raw->node_name || !raw->node_id || !raw->node_size || !raw->node_row_at ||
            offsets_failed)
            return lf_fail_nomem(j->err, "reading nodes");
        raw->node_name[count] = raw->node_id[count] = 0; /* the entries past the rows, as cleared */
        raw->node_size[count] = 0;
        lf_edge_offsets_set(&raw->edge_offset, count + 1, 0);
        return 0;
    }
    size_t e = (size_t)count + 1;
    raw->edge_count = count;
    raw->edge_word = lf_big_calloc(e, sizeof *raw->edge_word);
    raw->edge_target = lf_big_result_calloc(e, sizeof *raw->edge_target);
    raw->edge_row_at = lf_big_result_calloc(count / V8_ROW_STEP + 1, sizeof *raw->edge_row_at);
    raw->file = j->data;
    raw->file_size = j->end;
    raw->edge_fields = m->edge_fields;
    for (unsigned f = 0; f < m->edge_fields; f++)
        if (m->edge_field_kind[f] == F_NAME)
            raw->edge_name_field = f;
    if (!raw->edge_word || !raw->edge_target || !raw->edge_row_at)
        return lf_fail_nomem(j->err, "reading edges");
    return 0;
}

static int check_layout(lf_json *j, const v8_meta *m, uint64_t at)
{
    if (!m->have_meta || !m->have_node_count || !m->have_edge_count)
        return lf_fail_at(j->err, at, "snapshot header incomplete",
                          "meta, node_count and edge_count must come before the arrays");
    int has[F_KINDS] = {0};
    for (unsigned i = 0; i < m->node_fields; i++)
        has[m->node_field_kind[i]] = 1;
    if (!has[F_TYPE] || !has[F_NAME] || !has[F_ID] || !has[F_SIZE] || !has[F_EDGES])
        return lf_fail_at(j->err, at, "unsupported snapshot layout",
                          "node_fields lacks one of type, name, id, self_size, edge_count");
    memset(has, 0, sizeof has);
    for (unsigned i = 0; i < m->edge_fields; i++)
        has[m->edge_field_kind[i]] = 1;
    if (!has[F_TYPE] || !has[F_NAME] || !has[F_TO])
        return lf_fail_at(j->err, at, "unsupported snapshot layout",
                          "edge_fields lacks one of type, name_or_index, to_node");
    if (m->node_type_count == 0 || m->edge_type_count == 0)
        return lf_fail_at(j->err, at, "unsupported snapshot layout", "no node or edge types");
    return 0;
}

static void raw_free(v8_raw *raw)
{
    lf_big_free(raw->node_type);
    lf_big_free(raw->node_name);
    lf_big_free(raw->node_id);
    lf_big_free(raw->node_size);
    lf_edge_offsets_free(&raw->edge_offset);
    lf_big_free(raw->edge_word);
    lf_big_free(raw->edge_target);
    lf_big_free(raw->edge_row_at);
    lf_big_free(raw->node_row_at);
    lf_big_free(raw->node_trace);
    if (raw->trace)
        v8_trace_free(raw->trace);
    if (raw->places)
        v8_places_free(raw->places);
    lf_strtab_free(&raw->strings);
    for (unsigned i = 0; i < sizeof raw->type_names / sizeof raw->type_names[0]; i++)
        free(raw->type_names[i]); /* all slots: a repeated, shorter list leaves names past type_count */
}

/* Names must be strings of the table; rows must account for every edge. */
static int check_references(lf_json *j, const v8_meta *m, v8_raw *raw, uint64_t nodes_at,
                            uint64_t edges_at)
{
    const uint32_t n = raw->node_count;
    uint64_t total = 0;
    for (uint32_t v = 0; v < n; v++) {
        if (raw->node_name[v] >= raw->string_count)
            return lf_fail_at(j->err, nodes_at, "string index out of range",
                              "node %u names string %u of %u", v, raw->node_name[v], raw->string_count);
        uint64_t count = lf_edge_offsets_get(&raw->edge_offset, v);
        lf_edge_offsets_set(&raw->edge_offset, v, total);
        total += count;
        if (total > raw->edge_count)
            return lf_fail_at(j->err, nodes_at, "edge counts exceed edge_count",
                              "at node %u", v);
    }
    lf_edge_offsets_set(&raw->edge_offset, n, total);
    if (total != raw->edge_count)
        return lf_fail_at(j->err, nodes_at, "edge counts disagree with edge_count",
                          "the nodes have %llu edges, the header says %llu", (unsigned long long)total,
                          (unsigned long long)raw->edge_count);
    /* the parse kept the largest name: the edges are read again only
     * when one may be out of range, to say which */
    for (uint64_t e = 0; raw->edge_name_max >= raw->string_count && e < raw->edge_count; e++) {
        uint8_t t = v8_edge_kind(raw, e);
        uint32_t name = raw->edge_word[e] & V8_NAME_FAR;
        if (t != V8E_ELEMENT && t != V8E_HIDDEN && name >= raw->string_count &&
            (name = v8_edge_name(raw, e)) >= raw->string_count)
            return lf_fail_at(j->err, edges_at, "string index out of range",
                              "edge %llu names string %u of %u", (unsigned long long)e, name, raw->string_count);
    }
    if (m->root_index % m->node_fields != 0 || (n && m->root_index / m->node_fields >= n))
        return lf_fail_at(j->err, 0, "root_index is not a node", NULL);
    raw->root_ordinal = (uint32_t)(m->root_index / m->node_fields);
    return 0;
}

/* A partial snapshot lacks the strings after the cut: names that point past
 * the ones read become one placeholder, and node rows keep only the edges
 * that were read. */
static int patch_cut_snapshot(v8_raw *raw, lf_error *err)
{
    if (raw->string_count == UINT32_MAX - V8_STRING_BASE ||
        lf_strtab_append(&raw->strings, "(name cut off)", 14) < 0)
        return lf_fail_nomem(err, "reading strings");
    const uint32_t cut = raw->string_count++;
    raw->name_cut = cut; /* for names read back */
    for (uint32_t v = 0; v < raw->node_count; v++)
        if (raw->node_name[v] >= cut)
            raw->node_name[v] = cut;
    for (uint64_t e = 0; e < raw->edge_count; e++) {
        uint8_t t = v8_edge_kind(raw, e);
        if (t != V8E_ELEMENT && t != V8E_HIDDEN && v8_edge_name(raw, e) >= cut)
            raw->edge_word[e] = (raw->edge_word[e] & ~V8_NAME_FAR) | name_bits(cut);
    }
    if (raw->edge_name_max > cut) /* every name past the cut is the cut now */
        raw->edge_name_max = cut;
    uint64_t total = 0;
    for (uint32_t v = 0; v < raw->node_count; v++) {
        uint64_t want = lf_edge_offsets_get(&raw->edge_offset, v), room = raw->edge_count - total;
        lf_edge_offsets_set(&raw->edge_offset, v, want < room ? want : room);
        total += want < room ? want : room;
    }
    return 0;
}

/* Edge kinds and labels stay in the file (v8_lazy.c), which must stay
 * mapped as long as the snapshot. */
static int keep_labels_lazy(v8_raw *raw, const v8_meta *m, const uint8_t *data, uint64_t size,
                            uint32_t strings_read, const uint32_t *ids, uint64_t nodes_at, lf_snapshot *out)
{
    v8_lazy *l = calloc(1, sizeof *l);
    if (!l || !lf_snapshot_own(out, l)) {
        free(l);
        return -1;
    }
    const uint64_t *edge_row_at = lf_snapshot_own(out, raw->edge_row_at);
    if (!edge_row_at)
        return -1;
    raw->edge_row_at = NULL;
    if (!lf_snapshot_own(out, raw->node_row_at))
        return -1;
    unsigned type_field = 0, name_field = 0;
    for (unsigned f = 0; f < m->edge_fields; f++) {
        if (m->edge_field_kind[f] == F_TYPE)
            type_field = f;
        else if (m->edge_field_kind[f] == F_NAME)
            name_field = f;
    }
    *l = (v8_lazy){.data = data, .size = size, .row_at = edge_row_at, .object_id = ids,
                   .fields = m->edge_fields, .type_field = type_field, .name_field = name_field,
                   .type_count = m->edge_type_count, .string_count = strings_read,
                   .missing_name = V8_STRING_BASE + strings_read};
    memcpy(l->type_kind, m->edge_type_kind, sizeof l->type_kind);
    /* where `inspect` and string texts read node names back (v8_values.c) */
    l->nodes_at = nodes_at;
    l->node_row_at = raw->node_row_at;
    raw->node_row_at = NULL;
    l->node_fields = m->node_fields;
    l->node_type_count = m->node_type_count;
    memcpy(l->node_type_kind, m->node_type_kind, sizeof l->node_type_kind);
    for (unsigned f = 0; f < m->node_fields; f++) {
        if (m->node_field_kind[f] == F_TYPE)
            l->node_type_field = f;
        else if (m->node_field_kind[f] == F_NAME)
            l->node_name_field = f;
    }
    v8_lazy_init(l);
    out->lazy = &l->lazy;
    return 0;
}

int lf_v8_parse(const uint8_t *data, uint64_t size, unsigned threads, int partial, lf_snapshot *out,
                lf_error *err)
{
    return lf_v8_parse_reporting(data, size, -1, threads, partial, NULL, out, err);
}

/* The header's answers a node scan needs; raw is scratch for read_header. */
static int layout_from_meta(const v8_meta *m, uint64_t values_at, v8_nodes_layout *out, lf_error *err)
{
    out->values_at = values_at;
    out->fields = m->node_fields;
    out->id_field = out->type_field = MAX_FIELDS;
    for (unsigned f = 0; f < m->node_fields; f++) {
        if (m->node_field_kind[f] == F_ID)
            out->id_field = f;
        else if (m->node_field_kind[f] == F_TYPE)
            out->type_field = f;
    }
    out->heap_types = 0;
    for (unsigned t = 0; t < m->node_type_count; t++)
        if (m->node_type_kind[t] != V8N_NATIVE && m->node_type_kind[t] != V8N_SYNTHETIC)
            out->heap_types |= 1u << t;
    if (out->id_field == MAX_FIELDS || out->type_field == MAX_FIELDS)
        return lf_fail_at(err, values_at, "unsupported snapshot layout", "nodes without id or type");
    return 0;
}

int v8_probe_nodes(const uint8_t *head, uint64_t len, v8_nodes_layout *out, lf_error *err)
{
    v8_meta m;
    v8_raw raw;
    v8_trace trace;
    v8_places places;
    memset(&m, 0, sizeof m);
    memset(&raw, 0, sizeof raw);
    memset(&trace, 0, sizeof trace);
    memset(&places, 0, sizeof places);
    raw.trace = &trace;
    raw.places = &places;
    lf_json j = {head, 0, len, err};
    char *buf = NULL;
    size_t cap = 0, klen;
    err->truncated = 0;
    int rc = lf_json_expect(&j, '{', "the snapshot") || lf_json_string(&j, &buf, &cap, &klen) ||
             lf_json_expect(&j, ':', "the snapshot");
    if (!rc && !lf_json_key_is(buf, klen, "snapshot"))
        rc = lf_fail_at(err, 0, "unsupported snapshot layout", "\"snapshot\" is not first");
    rc = rc || read_header(&j, &m, &raw, &buf, &cap) || lf_json_next(&j, '}', "the snapshot") != 1 ||
         lf_json_string(&j, &buf, &cap, &klen) || lf_json_expect(&j, ':', "the snapshot");
    if (!rc && !lf_json_key_is(buf, klen, "nodes"))
        rc = lf_fail_at(err, j.pos, "unsupported snapshot layout", "\"nodes\" does not follow the header");
    rc = rc || lf_json_expect(&j, '[', "nodes") || layout_from_meta(&m, j.pos, out, err);
    lf_big_free(buf);
    raw_free(&raw);
    return rc ? -1 : 0;
}

/* One read of a snapshot: the JSON cursor, what the header said, the raw
 * arrays and which of the top-level members have been met. */
typedef struct v8_reader {
    lf_json j;
    v8_meta m;
    v8_raw raw;
    v8_trace trace;
    v8_places places;
    char *buf;                 /* key and string scratch */
    size_t cap;
    unsigned threads;
    int partial;
    int have_nodes, have_edges, have_strings;
    uint64_t nodes_at, edges_at; /* where the members' keys are, for messages */
    uint64_t cut_at;           /* a partial snapshot: where its edges end; 0: whole */
    lf_file_copy copies[2];    /* the number arrays' copies, one per thread (file_copy.h) */
    int copying;
    lf_progress_counter progress; /* bytes of the JSON parsed */
} v8_reader;

/* "nodes" or "edges": once each, nodes first, after a complete header. */
static int read_number_member(v8_reader *r, int is_edges, uint64_t key_at)
{
    int rc;
    if ((is_edges ? r->have_edges : r->have_nodes) || (is_edges && !r->have_nodes)) {
        rc = lf_fail_at(r->j.err, key_at, "unsupported snapshot layout",
                        is_edges ? "edges before nodes, or twice" : "nodes twice");
    } else {
        /* The rest of the file is read whole from here: nodes, edges,
         * strings; the arrays from copies when there are (file_copy.h),
         * the rest through the mapping. */
        if (!is_edges && !r->copying)
            lf_file_populate(r->j.data + r->j.pos, r->j.end - r->j.pos);
        if (!(rc = check_layout(&r->j, &r->m, key_at)) && !(rc = allocate(&r->j, &r->m, &r->raw, is_edges, r->partial)))
            rc = read_array(&r->j, &r->m, &r->raw, is_edges,
                            is_edges ? r->raw.edge_count * r->m.edge_fields : r->m.node_count * r->m.node_fields,
                            r->threads, r->copying ? r->copies : NULL, &r->progress, r->partial ? &r->cut_at : NULL);
        if (!rc && is_edges && r->copying)
            lf_file_populate(r->j.data + r->j.pos, r->j.end - r->j.pos);
    }
    *(is_edges ? &r->have_edges : &r->have_nodes) = 1;
    *(is_edges ? &r->edges_at : &r->nodes_at) = key_at;
    return rc;
}

/* The value of the top-level member whose key (len bytes) is in r->buf. */
static int read_member(v8_reader *r, size_t len, uint64_t key_at)
{
    const char *key = r->buf;
    if (lf_json_key_is(key, len, "snapshot"))
        return read_header(&r->j, &r->m, &r->raw, &r->buf, &r->cap);
    if (lf_json_key_is(key, len, "nodes") || lf_json_key_is(key, len, "edges"))
        return read_number_member(r, key[0] == 'e', key_at);
    if (lf_json_key_is(key, len, "trace_function_infos") && r->m.trace_function_count > 0 && !r->trace.have_infos)
        return v8_trace_read_infos(&r->j, &r->trace);
    if (lf_json_key_is(key, len, "trace_tree") && r->m.trace_function_count > 0 && !r->trace.have_tree)
        return v8_trace_read_tree(&r->j, &r->trace);
    if (lf_json_key_is(key, len, "locations"))
        return v8_places_read(&r->j, &r->places, &r->raw, r->m.node_fields);
    if (lf_json_key_is(key, len, "strings")) {
        int rc = r->have_strings ? lf_fail_at(r->j.err, key_at, "unsupported snapshot layout", "strings twice")
                                 : read_strings(&r->j, &r->raw, &r->buf, &r->cap, &r->progress, r->threads);
        r->have_strings = 1;
        return rc;
    }
    return lf_json_skip(&r->j);
}

/* The top-level object, member by member. A partial snapshot cut after its
 * nodes stops at the cut and is read as far as it goes. */
static int read_members(v8_reader *r)
{
    lf_error *err = r->j.err;
    if (lf_json_expect(&r->j, '{', "the snapshot"))
        return -1;
    for (;;) {
        size_t len;
        uint64_t key_at = r->j.pos;
        if (lf_json_string(&r->j, &r->buf, &r->cap, &len) || lf_json_expect(&r->j, ':', "the snapshot"))
            return -1;
        int rc = read_member(r, len, key_at);
        lf_progress_reach(&r->progress, r->j.pos); /* what the arrays' threads left untold */
        int more = rc ? -1 : lf_json_next(&r->j, '}', "the snapshot");
        if (more < 0 && r->partial && err->truncated && r->have_edges) {
            /* cut after the nodes: analyse what there is (nodes, the edges
             * read, the strings read); strings past the cut are placeholders */
            if (!r->cut_at)
                r->cut_at = r->j.end;
            r->have_strings = 1;
            return 0;
        }
        if (more < 0) {
            if (!r->have_edges && r->partial && err->truncated)
                lf_fail_at(err, err->position, "snapshot cut off before its edges",
                           "--partial needs the whole nodes array");
            if (!r->have_edges)
                err->truncated = 0; /* no hint: --partial cannot help */
            return -1;
        }
        if (more == 0)
            return 0;
    }
}

/* After the members: nothing but blanks follows a whole snapshot, and it
 * has nodes, edges and strings. */
static int check_complete(v8_reader *r)
{
    lf_error *err = r->j.err;
    if (!r->cut_at && lf_json_peek(&r->j) != -1)
        return lf_fail_at(err, r->j.pos, "trailing data after the snapshot", NULL);
    if (!r->have_nodes || !r->have_edges || !r->have_strings)
        return lf_fail_at(err, r->j.end, "snapshot incomplete", "no %s array",
                          !r->have_nodes ? "nodes" : !r->have_edges ? "edges" : "strings");
    if (r->raw.node_count == 0)
        return lf_fail_at(err, r->nodes_at, "snapshot without nodes", NULL);
    return 0;
}

/* The snapshot from the raw arrays: DevTools' model, allocation sites, and
 * the lazy fields that read kinds and labels back from the file. */
static int build_model(v8_reader *r, uint32_t strings_read, lf_snapshot *out)
{
    lf_error *err = r->j.err;
    if (check_references(&r->j, &r->m, &r->raw, r->nodes_at, r->edges_at))
        return -1;
    const uint32_t *ids = r->raw.node_id; /* the snapshot's once built, read through the lazy fields */
    lf_clock clock = v8_clock_of(&r->raw);
    if (v8_build_snapshot(&r->raw, r->threads, out, err))
        return -1;
    out->clock = clock;
    if (v8_trace_sites(&r->raw, r->cut_at ? strings_read : r->raw.string_count,
                       r->cut_at ? strings_read : UINT32_MAX, out, err))
        return -1;
    if (keep_labels_lazy(&r->raw, &r->m, r->j.data, r->j.end, strings_read, ids, r->nodes_at, out))
        return lf_fail_nomem(err, "reading the snapshot");
    if (r->cut_at) {
        out->flags |= LF_SNAP_PARTIAL;
        out->stats.cut_at = r->cut_at; /* the bytes the cut record lacked are not known */
    }
    return 0;
}

static int read_snapshot(v8_reader *r, lf_snapshot *out)
{
    if (lf_strtab_init(&r->raw.strings))
        return lf_fail_nomem(r->j.err, "reading strings");
    if (read_members(r))
        return -1;
    lf_progress_reach(&r->progress, r->j.end);
    const uint32_t strings_read = r->raw.string_count;
    if (r->cut_at && patch_cut_snapshot(&r->raw, r->j.err))
        return -1;
    if (check_complete(r))
        return -1;
    return build_model(r, strings_read, out);
}

int lf_v8_parse_reporting(const uint8_t *data, uint64_t size, int fd, unsigned threads, int partial,
                          const lf_progress *progress_to, lf_snapshot *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    v8_reader r;
    memset(&r, 0, sizeof r);
    r.j = (lf_json){data, 0, size, err};
    r.raw.trace = &r.trace;
    r.raw.places = &r.places;
    r.raw.name_cut = UINT32_MAX;
    r.threads = threads;
    r.partial = partial;
    lf_progress_begin(&r.progress, progress_to, "", size);
    /* no buffer bigger than the file: a small one is not a fresh 2 MiB page */
    const size_t buffer = size < copy_chunk ? (size_t)size : copy_chunk;
    r.copying = fd >= 0 && lf_file_copy_open(&r.copies[0], fd, buffer) == 0 &&
                lf_file_copy_open(&r.copies[1], fd, buffer) == 0;
    int rc = read_snapshot(&r, out);
    lf_file_copy_close(&r.copies[0]);
    lf_file_copy_close(&r.copies[1]);
    lf_big_free(r.buf);
    raw_free(&r.raw);
    if (rc)
        lf_snapshot_free(out);
    return rc;
}
