/* lfs_stream.c - a leakfind file written as its objects come (lfs_stream.h).
 *
 * Layout: the header and a chunk table of LFS_MAX_CHUNKS entries (filled
 * last), then the per-object chunks at offsets fixed by the object count
 * (OIDS, OCLS, OSH4, EOF4), then ETGT, which grows at the file's end while
 * the references come. ELBL and EKND grow too, so they go to two unlinked
 * temporary files beside the output and are copied after ETGT at the end;
 * then what was kept in memory (strings, classes, roots, sites, big sizes),
 * and the header. Each chunk's checksum is taken as its bytes go out.
 * An output that is not a regular file (a FIFO, a device) cannot be
 * written out of order: the file is made in a temporary file in $TMPDIR
 * and copied into it, front to back, at the end. */
#include "lfs_stream.h"

#include <Judy.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "../base/bigmem.h"
#include "../base/file.h"
#include "../base/outfile.h"
#include "../base/vec.h"
#include "../lfs/lfs_chunks.h"
#include "../model/builder.h"
#include "../model/site_table.h"
#include "../model/strtab.h"

/* Bytes buffered per stream: seven streams, under 2 MiB in all. */
enum { STREAM_BUFFER = 256 << 10 };

/* One chunk's bytes on their way to fd at `at`, hashed as they go. */
typedef struct out_stream {
    int fd;
    uint64_t at;    /* where the buffered bytes go in fd */
    uint64_t size;  /* the chunk's bytes so far, buffered ones included */
    XXH3_state_t *hash;
    uint8_t *buf;
    size_t len;
} out_stream;

enum { S_OIDS, S_OCLS, S_OSH4, S_EOF4, S_ETGT, S_ELBL, S_EKND, S_COUNT };
static const uint32_t stream_chunk[S_COUNT] = {LFS_OIDS, LFS_OCLS, LFS_OSH4, LFS_EOF4,
                                               LFS_ETGT, LFS_ELBL, LFS_EKND};

typedef struct pending_root {
    uint64_t id;
    uint32_t kind, name;
} pending_root;

/* An object's allocation site: only sampled objects have one, so they are
 * kept apart and the per-object chunks made from them at the end. */
typedef struct pending_site {
    uint64_t id;
    uint32_t site, samples;
    uint64_t order; /* ties: the last given wins, as in the builder */
} pending_site;

struct lfs_stream {
    lf_strtab strings;
    Pvoid_t class_by_string; /* JudyL: string index -> class index + 1 */
    uint32_t *class_name;
    size_t class_count, class_cap;
    pending_root *root;
    size_t root_count, root_cap;
    lf_site_table sites;
    pending_site *object_site;
    size_t object_site_count, object_site_cap;
    double sample_rate;
    lf_clock clock;

    int opened;
    lf_outfile out;
    int work_fd; /* out.fd, or the temporary file copied into it at the end */
    uint64_t objects, given, edges, dangling_edges;
    lf_size_big *big;
    size_t big_count, big_cap;
    out_stream stream[S_COUNT];

    int failed;
    lf_error err;
};

static int fail_errno(lfs_stream *s, const char *what, int e)
{
    if (!s->failed)
        lf_fail_errno(&s->err, what, e);
    s->failed = 1;
    return LF_BUILDER_NOMEM;
}

static int fail(lfs_stream *s, int code, const char *what)
{
    if (!s->failed) {
        if (code == LF_BUILDER_NOMEM)
            lf_fail_nomem(&s->err, what);
        else
            lf_fail(&s->err, LF_ERR_SYSTEM, "streamed snapshot: %s", what);
    }
    s->failed = 1;
    return code;
}

lfs_stream *lfs_stream_new(void)
{
    lfs_stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    for (int i = 0; i < S_COUNT; i++)
        s->stream[i].fd = -1;
    s->out.fd = -1;
    s->work_fd = -1;
    if (lf_strtab_init(&s->strings) || lf_site_table_init(&s->sites)) {
        lf_strtab_free(&s->strings);
        free(s);
        return NULL;
    }
    return s;
}

int64_t lfs_stream_string(lfs_stream *s, const char *text, size_t len)
{
    int64_t i = lf_strtab_intern(&s->strings, text, len);
    return i < 0 ? fail(s, LF_BUILDER_NOMEM, "a string") : i;
}

int64_t lfs_stream_class(lfs_stream *s, const char *name, size_t len)
{
    int64_t str = lfs_stream_string(s, name, len);
    if (str < 0)
        return str;
    PWord_t slot;
    JLI(slot, s->class_by_string, (Word_t)str);
    if (slot == PJERR)
        return fail(s, LF_BUILDER_NOMEM, "a class");
    if (*slot == 0) {
        if (s->class_count >= 0xfffffffeu)
            return fail(s, LF_BUILDER_TOO_MANY, "too many classes");
        if (lf_vec_reserve((void **)&s->class_name, &s->class_cap, s->class_count + 1,
                           sizeof *s->class_name))
            return fail(s, LF_BUILDER_NOMEM, "a class");
        s->class_name[s->class_count++] = (uint32_t)str;
        *slot = s->class_count;
    }
    return (int64_t)*slot - 1;
}

/* ---- the streams */

static int write_at(int fd, const void *data, uint64_t len, uint64_t at)
{
    const uint8_t *p = data;
    while (len) {
        ssize_t n = pwrite(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n, at += (uint64_t)n, len -= (uint64_t)n;
    }
    return 0;
}

static int flush(lfs_stream *s, out_stream *o)
{
    if (!o->len)
        return 0;
    XXH3_64bits_update(o->hash, o->buf, o->len);
    if (write_at(o->fd, o->buf, o->len, o->at))
        return fail_errno(s, "cannot write output", errno);
    o->at += o->len;
    o->len = 0;
    return 0;
}

static int put(lfs_stream *s, out_stream *o, const void *data, size_t len)
{
    if (o->len + len > STREAM_BUFFER && flush(s, o))
        return -1;
    memcpy(o->buf + o->len, data, len);
    o->len += len;
    o->size += len;
    return 0;
}

static int put_u32(lfs_stream *s, out_stream *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return put(s, o, b, 4);
}

static int put_u64(lfs_stream *s, out_stream *o, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    return put(s, o, b, 8);
}

/* An unlinked file in dir for a stream whose size is not known ahead. */
static int temp_beside(const char *dir)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    char path[4096];
    if (snprintf(path, sizeof path, "%s/.leakfind-stream-XXXXXX", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd2 = mkstemp(path);
    if (fd2 >= 0)
        unlink(path);
    return fd2;
}

static uint64_t align8(uint64_t x)
{
    return (x + 7) & ~(uint64_t)7;
}

int lfs_stream_open(lfs_stream *s, const char *path, uint64_t objects)
{
    if (s->opened || s->failed)
        return fail(s, LF_BUILDER_BAD_INDEX, "opened twice");
    if (objects > LF_NODE_MAX)
        return fail(s, LF_BUILDER_TOO_MANY, "too many objects");
    if (lf_outfile_open(path, 0, &s->out, &s->err)) {
        s->failed = 1;
        return LF_BUILDER_NOMEM;
    }
    s->opened = 1;
    s->objects = objects;
    const char *tmp = getenv("TMPDIR");
    char *dir_copy = strdup(s->out.temp ? s->out.temp : "/");
    if (!dir_copy)
        return fail(s, LF_BUILDER_NOMEM, "the output");
    const char *dir = s->out.temp ? dirname(dir_copy) : tmp && *tmp ? tmp : "/tmp";
    s->work_fd = s->out.temp ? s->out.fd : temp_beside(dir);
    if (s->work_fd < 0) {
        free(dir_copy);
        return fail_errno(s, "cannot write a temporary file", errno);
    }
    const uint64_t per_object[] = {8, 4, 4, 4};
    uint64_t at = align8(LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE);
    int rc = 0;
    for (int i = 0; i < S_COUNT && !rc; i++) {
        out_stream *o = &s->stream[i];
        o->hash = XXH3_createState();
        o->buf = malloc(STREAM_BUFFER);
        if (!o->hash || !o->buf) {
            rc = fail(s, LF_BUILDER_NOMEM, "the output's buffers");
            break;
        }
        XXH3_64bits_reset(o->hash);
        if (i <= S_ETGT) {
            o->fd = s->work_fd;
            o->at = at;
            if (i < S_ETGT)
                at = align8(at + per_object[i] * (objects + (i == S_EOF4)));
        } else if ((o->fd = temp_beside(dir)) < 0) {
            rc = fail_errno(s, "cannot write a temporary file", errno);
        }
    }
    free(dir_copy);
    return rc ? rc : put_u32(s, &s->stream[S_EOF4], 0);
}

int lfs_stream_object(lfs_stream *s, uint64_t id, uint32_t class_index, uint64_t shallow)
{
    if (s->failed)
        return LF_BUILDER_NOMEM;
    if (!s->opened || id != s->given || id >= s->objects)
        return fail(s, LF_BUILDER_BAD_INDEX, "an object out of order");
    if (class_index >= s->class_count)
        return fail(s, LF_BUILDER_BAD_INDEX, "an unknown class");
    if (s->given && put_u32(s, &s->stream[S_EOF4], (uint32_t)s->edges))
        return -1;
    uint32_t narrow = (uint32_t)shallow;
    if (shallow >= LF_SIZE_BIG) {
        narrow = LF_SIZE_BIG;
        if (lf_vec_reserve((void **)&s->big, &s->big_cap, s->big_count + 1, sizeof *s->big))
            return fail(s, LF_BUILDER_NOMEM, "a size");
        s->big[s->big_count++] = (lf_size_big){(uint32_t)id, 0, shallow};
    }
    s->given++;
    return put_u64(s, &s->stream[S_OIDS], id) || put_u32(s, &s->stream[S_OCLS], class_index) ||
                   put_u32(s, &s->stream[S_OSH4], narrow)
               ? -1
               : 0;
}

int lfs_stream_edge(lfs_stream *s, uint64_t from, uint64_t to, int weak, lf_edge_kind kind,
                    uint32_t label)
{
    if (s->failed)
        return LF_BUILDER_NOMEM;
    if ((unsigned)kind >= LF_EDGE_KIND_COUNT ||
        ((kind == LF_EDGE_KIND_FIELD || kind == LF_EDGE_KIND_INTERNAL) &&
         label >= s->strings.count))
        return fail(s, LF_BUILDER_BAD_INDEX, "a reference's label");
    if (!s->given || from != s->given - 1)
        return fail(s, LF_BUILDER_BAD_INDEX, "a reference not of the object given last");
    if (to >= s->objects) {
        s->dangling_edges++;
        return 0;
    }
    if (s->edges == UINT32_MAX)
        return fail(s, LF_BUILDER_TOO_MANY, "over 2^32-1 references");
    s->edges++;
    uint8_t k = (uint8_t)kind;
    return put_u32(s, &s->stream[S_ETGT], (uint32_t)to | (weak ? LF_EDGE_WEAK : 0)) ||
                   put_u32(s, &s->stream[S_ELBL], label) || put(s, &s->stream[S_EKND], &k, 1)
               ? -1
               : 0;
}

int lfs_stream_root(lfs_stream *s, uint64_t id, uint32_t kind_string, uint32_t name_string)
{
    if (kind_string >= s->strings.count || name_string >= s->strings.count)
        return fail(s, LF_BUILDER_BAD_INDEX, "a root's name");
    if (lf_vec_reserve((void **)&s->root, &s->root_cap, s->root_count + 1, sizeof *s->root))
        return fail(s, LF_BUILDER_NOMEM, "a root");
    s->root[s->root_count++] = (pending_root){id, kind_string, name_string};
    return 0;
}

int64_t lfs_stream_frame(lfs_stream *s, uint32_t function, uint32_t file, uint32_t line,
                         uint32_t column)
{
    if (function >= s->strings.count || file >= s->strings.count)
        return fail(s, LF_BUILDER_BAD_INDEX, "a frame's name");
    int64_t f = lf_site_table_frame(&s->sites, function, file, line, column);
    return f < 0 ? fail(s, LF_BUILDER_NOMEM, "a frame") : f;
}

int64_t lfs_stream_site(lfs_stream *s, uint32_t caller, uint32_t frame)
{
    if (caller >= s->sites.site_count || frame >= s->sites.frame_count)
        return fail(s, LF_BUILDER_BAD_INDEX, "a site's frame");
    int64_t site = lf_site_table_site(&s->sites, caller, frame);
    return site < 0 ? fail(s, LF_BUILDER_NOMEM, "a site") : site;
}

int lfs_stream_object_site(lfs_stream *s, uint64_t id, uint32_t site, uint32_t samples)
{
    if (site >= s->sites.site_count)
        return fail(s, LF_BUILDER_BAD_INDEX, "an unknown site");
    if (lf_vec_reserve((void **)&s->object_site, &s->object_site_cap, s->object_site_count + 1,
                       sizeof *s->object_site))
        return fail(s, LF_BUILDER_NOMEM, "an object's site");
    s->object_site[s->object_site_count] = (pending_site){id, site, samples, s->object_site_count};
    s->object_site_count++;
    return 0;
}

void lfs_stream_set_sample_rate(lfs_stream *s, double samples_per_word)
{
    s->sample_rate = samples_per_word > 0 && samples_per_word <= 1 ? samples_per_word : 0;
}

void lfs_stream_set_clock(lfs_stream *s, lf_clock clock)
{
    s->clock = clock;
}

int lfs_stream_error(const lfs_stream *s, lf_error *err)
{
    if (!s->failed)
        return 0;
    *err = s->err;
    return 1;
}

/* ---- the end */

/* Copies a temporary stream's bytes to out at `at`. */
static int copy_stream(lfs_stream *s, const out_stream *o, uint64_t at)
{
    uint8_t *buf = o->buf; /* flushed: free for the copy */
    for (uint64_t done = 0; done < o->size;) {
        size_t want = o->size - done < STREAM_BUFFER ? (size_t)(o->size - done) : STREAM_BUFFER;
        ssize_t got = pread(o->fd, buf, want, (off_t)done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return fail_errno(s, "cannot read a temporary file", got < 0 ? errno : EIO);
        if (write_at(s->work_fd, buf, (uint64_t)got, at + done))
            return fail_errno(s, "cannot write output", errno);
        done += (uint64_t)got;
    }
    return 0;
}

/* The whole file, made in the temporary work file, into the output
 * front to back (a FIFO or a device). */
static int copy_out(lfs_stream *s, uint64_t file_size)
{
    uint8_t *buf = s->stream[S_OIDS].buf; /* flushed: free for the copy */
    for (uint64_t done = 0; done < file_size;) {
        size_t want = file_size - done < STREAM_BUFFER ? (size_t)(file_size - done) : STREAM_BUFFER;
        ssize_t got = pread(s->work_fd, buf, want, (off_t)done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return fail_errno(s, "cannot read a temporary file", got < 0 ? errno : EIO);
        if (lf_write_all(s->out.fd, buf, (uint64_t)got))
            return fail_errno(s, "cannot write output", errno);
        done += (uint64_t)got;
    }
    return 0;
}

static int place_memory(lfs_stream *s, chunk_out *c, uint64_t *at)
{
    c->offset = *at = align8(*at);
    c->hash = XXH3_64bits(c->data, (size_t)c->size);
    if (c->size && write_at(s->work_fd, c->data, c->size, c->offset))
        return fail_errno(s, "cannot write output", errno);
    *at += c->size;
    return 0;
}

static int by_id_then_order(const void *a, const void *b)
{
    const pending_site *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* OSIT (samples 0) or OSMP (1) at `at`, every object's entry, 0 where the
 * sorted pending sites give none; ids past the objects are dropped. */
static int write_sites(lfs_stream *s, int samples, chunk_out *c, uint64_t *at)
{
    uint8_t *buf = s->stream[S_OIDS].buf; /* flushed: free */
    XXH3_state_t *h = s->stream[S_OIDS].hash;
    XXH3_64bits_reset(h);
    c->offset = *at = align8(*at);
    size_t next = 0, len = 0;
    for (uint64_t id = 0; id < s->objects; id++) {
        uint32_t v = 0;
        for (; next < s->object_site_count && s->object_site[next].id <= id; next++)
            if (s->object_site[next].id == id)
                v = samples ? s->object_site[next].samples : s->object_site[next].site;
        for (int b = 0; b < 4; b++)
            buf[len++] = (uint8_t)(v >> (8 * b));
        if (len == STREAM_BUFFER || id + 1 == s->objects) {
            XXH3_64bits_update(h, buf, len);
            if (write_at(s->work_fd, buf, len, *at))
                return fail_errno(s, "cannot write output", errno);
            *at += len;
            len = 0;
        }
    }
    c->hash = XXH3_64bits_digest(h);
    return 0;
}

/* The roots that name an object, in node space. */
static lf_root *resolved_roots(lfs_stream *s, uint32_t *count, uint64_t *dangling)
{
    lf_root *root = malloc((s->root_count + 1) * sizeof *root);
    *count = 0;
    for (size_t i = 0; root && i < s->root_count; i++) {
        if (s->root[i].id >= s->objects) {
            (*dangling)++;
            continue;
        }
        root[(*count)++] = (lf_root){(uint32_t)s->root[i].id, s->root[i].kind, s->root[i].name, 0};
    }
    return root;
}

/* The streamed chunks flushed, the temporary ones copied to the end of the
 * output, each into chunk[0 .. S_COUNT); *at: the end of the last. */
static int close_streams(lfs_stream *s, chunk_out *chunk, uint64_t *at)
{
    *at = 0;
    for (int i = 0; i < S_COUNT; i++) {
        out_stream *o = &s->stream[i];
        if (flush(s, o))
            return -1;
        uint64_t start = o->at - o->size;
        if (i > S_ETGT) { /* from its temporary file to the end of the output */
            start = align8(*at);
            if (copy_stream(s, o, start))
                return -1;
        }
        chunk[i] = (chunk_out){stream_chunk[i], NULL, o->size, start, XXH3_64bits_digest(o->hash)};
        *at = start + o->size;
    }
    return 0;
}

/* META's bytes for the snapshot as streamed, with `roots` roots of which
 * `dangling` named no object; field[] as lf_lfs_fill_meta gives them. */
static void meta_bytes(const lfs_stream *s, uint32_t roots, uint64_t dangling, int has_sites,
                       uint64_t field[LFS_META_FIELDS], uint8_t meta[LFS_META_FIELDS * 8])
{
    lf_snapshot meta_of = {0};
    meta_of.stats.dangling_roots = dangling;
    meta_of.format = meta_of.source_format = LF_FORMAT_LFS;
    meta_of.object_count = (uint32_t)s->objects;
    meta_of.edge_count = s->edges;
    meta_of.class_count = (uint32_t)s->class_count;
    meta_of.root_count = roots;
    meta_of.string_count = s->strings.count;
    meta_of.stats.dangling_edges = s->dangling_edges;
    meta_of.clock = s->clock;
    meta_of.frame_count = s->sites.frame_count;
    meta_of.site_count = s->sites.site_count;
    static const uint32_t sampled; /* meta only asks whether there are samples */
    meta_of.object_samples = s->sample_rate > 0 ? &sampled : NULL;
    meta_of.sample_rate = s->sample_rate;
    lf_lfs_fill_meta(&meta_of, 0, has_sites, field);
    for (int i = 0; i < LFS_META_FIELDS; i++)
        for (int b = 0; b < 8; b++)
            meta[8 * i + b] = (uint8_t)(field[i] >> (8 * b));
}

static int write_rest(lfs_stream *s)
{
    if (s->given != s->objects)
        return fail(s, LF_BUILDER_BAD_INDEX, "fewer objects than said");
    if (put_u32(s, &s->stream[S_EOF4], (uint32_t)s->edges))
        return -1;
    chunk_out chunk[LFS_MAX_CHUNKS];
    unsigned count = S_COUNT;
    uint64_t at;
    if (close_streams(s, chunk, &at))
        return -1;
    uint32_t roots;
    uint64_t dangling = 0;
    lf_root *root = resolved_roots(s, &roots, &dangling);
    if (!root)
        return fail(s, LF_BUILDER_NOMEM, "the roots");
    const int has_sites = s->object_site_count > 0;
    qsort(s->object_site, s->object_site_count, sizeof *s->object_site, by_id_then_order);
    uint64_t field[LFS_META_FIELDS];
    uint8_t meta[LFS_META_FIELDS * 8];
    meta_bytes(s, roots, dangling, has_sites, field, meta);
    const uint64_t n = s->objects;
    unsigned first_memory = count;
#define ADD(ID, DATA, SIZE) chunk[count++] = (chunk_out){.id = (ID), .data = (DATA), .size = (SIZE)}
    ADD(LFS_META, meta, sizeof meta);
    ADD(LFS_STRO, s->strings.offset, ((uint64_t)s->strings.count + 1) * 8);
    ADD(LFS_STRB, s->strings.bytes, s->strings.offset[s->strings.count]);
    ADD(LFS_CLSN, s->class_name, (uint64_t)s->class_count * 4);
    if (s->big_count)
        ADD(LFS_OSHB, s->big, s->big_count * sizeof *s->big);
    ADD(LFS_ROOT, root, (uint64_t)roots * sizeof *root);
    ADD(LFS_ONAM, meta, 0);
    if (has_sites) {
        ADD(LFS_FRAM, s->sites.frame, (uint64_t)s->sites.frame_count * sizeof(lf_frame));
        ADD(LFS_SITE, s->sites.site, (uint64_t)s->sites.site_count * sizeof(lf_site));
    }
    unsigned first_site = count;
    if (has_sites) {
        ADD(LFS_OSIT, NULL, n * 4);
        if (field[LFS_META_SAMPLE_RATE])
            ADD(LFS_OSMP, NULL, n * 4);
    }
#undef ADD
    int rc = 0;
    for (unsigned i = first_memory; i < first_site && !rc; i++)
        rc = place_memory(s, &chunk[i], &at);
    for (unsigned i = first_site; i < count && !rc; i++)
        rc = write_sites(s, chunk[i].id == LFS_OSMP, &chunk[i], &at);
    free(root);
    if (rc)
        return -1;
    uint64_t file_size = align8(at);
    uint8_t head[LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE];
    size_t head_len = lf_lfs_fill_head(chunk, count, file_size, head);
    if (!head_len)
        return fail(s, LF_BUILDER_NOMEM, "the header");
    if (write_at(s->work_fd, head, head_len, 0) || ftruncate(s->work_fd, (off_t)file_size))
        return fail_errno(s, "cannot write output", errno);
    return s->work_fd != s->out.fd ? copy_out(s, file_size) : 0;
}

static void free_stream(lfs_stream *s)
{
    for (int i = 0; i < S_COUNT; i++) {
        out_stream *o = &s->stream[i];
        if (i > S_ETGT && o->fd >= 0)
            close(o->fd);
        if (o->hash)
            XXH3_freeState(o->hash);
        free(o->buf);
    }
    if (s->work_fd >= 0 && s->work_fd != s->out.fd)
        close(s->work_fd);
    Word_t freed;
    JLFA(freed, s->class_by_string);
    (void)freed;
    lf_strtab_free(&s->strings);
    lf_site_table_free(&s->sites);
    lf_big_free(s->class_name);
    lf_big_free(s->root);
    lf_big_free(s->big);
    lf_big_free(s->object_site);
    free(s);
}

int lfs_stream_finish(lfs_stream *s, lf_error *err)
{
    if (!s->opened)
        fail(s, LF_BUILDER_BAD_INDEX, "never opened");
    int rc = s->failed ? -1 : write_rest(s);
    if (rc == 0 && lf_outfile_commit(&s->out, &s->err)) {
        s->failed = 1;
        rc = -1;
    } else if (rc && s->opened) {
        lf_outfile_abort(&s->out);
    }
    if (rc)
        *err = s->err;
    free_stream(s);
    return rc ? -1 : 0;
}

void lfs_stream_abandon(lfs_stream *s)
{
    if (!s)
        return;
    if (s->opened)
        lf_outfile_abort(&s->out);
    free_stream(s);
}
