/* lfs_read.c - opens a leakfind file: validate everything, then map it.
 *
 * Every chunk is read once with pread (so page-cache pages are not charged to
 * this process), hashed and checked element by element; only then is the file
 * mapped and the snapshot pointed into it. Labels of edges are not checked here
 * (their meaning depends on the edge kind); lf_snapshot_string() bounds them. */
#include "lfs.h"
#include "../base/bigmem.h"
#include "../base/resident.h"
#include "../model/edge_offsets.h"
#include "lfs_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the leakfind format is little-endian and mapped as is: little-endian hosts only"
#endif

#define READ_BLOCK (1u << 20)

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

typedef enum check_kind {
    CHECK_NONE,
    CHECK_U32_BELOW,         /* every u32 < limit */
    CHECK_U32_NODE_BELOW,    /* every u32 without the weak bit < limit */
    CHECK_U32_IDOM,          /* < limit, or LF_NODE_SUPER / LF_NODE_NONE */
    CHECK_U32_NODE_OR_NONE,  /* < limit, or LF_NODE_NONE */
    CHECK_U8_BELOW,
    CHECK_U64_OFFSETS,       /* starts at 0, never decreases, ends at `last` */
    CHECK_U32_OFFSETS,
    CHECK_ROOTS,             /* node < limit, kind and name < limit2 */
    CHECK_NAMED,             /* node < limit and increasing, string < limit2 */
    CHECK_FRAMES,            /* function and file < limit2 */
    CHECK_SITES,             /* frame < limit, caller < the site's own index (site 0: 0) */
    CHECK_SIZES_BIG,         /* node < limit and increasing, reserved 0, bytes >= LF_SIZE_BIG */
    CHECK_PLACES,            /* node < limit and increasing, name and script < limit2 */
    CHECK_TEXTS,             /* node < limit and increasing, text < limit2, reserved 0 */
} check_kind;

typedef struct chunk_in {
    uint32_t id;
    const char *name;
    int required;
    uint64_t elem_size;
    uint64_t elem_count;     /* expected, from META */
    check_kind check;
    uint64_t limit, limit2, last;
    /* found in the table */
    int present;
    uint64_t offset, size, hash;
} chunk_in;

/* One loop per kind of check, the kind chosen once per block: a switch per
 * element made these checks most of a re-query's time (a 2 GB cache file is
 * checked on every open). */
#define EACH_ELEMENT(test)                                                    \
    for (i = 0; i < n; i++) {                                                \
        const uint8_t *q = p + i * c->elem_size;                              \
        (void)q;                                                              \
        if (test)                                                             \
            goto bad;                                                         \
    }                                                                         \
    return 0
/* Entries keyed by a node below limit, strictly increasing across blocks
 * (*prev carries the last one), the rest of the entry passing `rest`. */
#define EACH_INCREASING_NODE(rest)                                            \
    for (i = 0; i < n; i++) {                                                \
        const uint8_t *q = p + i * c->elem_size;                              \
        v = get_u32(q);                                                       \
        if (v >= limit || (first_elem + i > 0 && v <= *prev) || (rest))       \
            goto bad;                                                         \
        *prev = v;                                                            \
    }                                                                         \
    return 0

static int check_block(chunk_in *c, const uint8_t *p, uint64_t len, uint64_t first_elem,
                       uint64_t *prev, lf_error *err)
{
    uint64_t n = len / c->elem_size, i, v = 0;
    const uint64_t limit = c->limit, limit2 = c->limit2;
    switch (c->check) {
    case CHECK_NONE:
        return 0;
    case CHECK_U32_BELOW:
        EACH_ELEMENT((v = get_u32(q)) >= limit);
    case CHECK_U32_NODE_BELOW:
        EACH_ELEMENT((v = get_u32(q) & LF_EDGE_NODE) >= limit);
    case CHECK_U32_IDOM:
        EACH_ELEMENT((v = get_u32(q)) >= limit && v != LF_NODE_SUPER && v != LF_NODE_NONE);
    case CHECK_U32_NODE_OR_NONE:
        EACH_ELEMENT((v = get_u32(q)) >= limit && v != LF_NODE_NONE);
    case CHECK_U8_BELOW:
        EACH_ELEMENT((v = *q) >= limit);
    case CHECK_U64_OFFSETS:
    case CHECK_U32_OFFSETS:
        for (i = 0; i < n; i++) {
            const uint8_t *q = p + i * c->elem_size;
            uint64_t index = first_elem + i;
            v = c->check == CHECK_U64_OFFSETS ? get_u64(q) : get_u32(q);
            if ((index == 0 && v != 0) || v < *prev || v > c->last ||
                (index + 1 == c->elem_count && v != c->last))
                goto bad;
            *prev = v;
        }
        return 0;
    case CHECK_ROOTS:
        EACH_ELEMENT((v = get_u32(q)) >= limit || get_u32(q + 4) >= limit2 ||
                     get_u32(q + 8) >= limit2);
    case CHECK_FRAMES:
        EACH_ELEMENT((v = get_u32(q)) >= limit2 || (v = get_u32(q + 4)) >= limit2);
    case CHECK_SITES:
        for (i = 0; i < n; i++) {
            const uint8_t *q = p + i * c->elem_size;
            uint64_t index = first_elem + i;
            if ((v = get_u32(q)) >= limit || (v = get_u32(q + 4)) >= (index ? index : 1))
                goto bad;
        }
        return 0;
    case CHECK_SIZES_BIG:
        EACH_INCREASING_NODE(get_u32(q + 4) != 0 || get_u64(q + 8) < LF_SIZE_BIG);
    case CHECK_NAMED:
        EACH_INCREASING_NODE(get_u32(q + 4) >= limit2);
    case CHECK_PLACES:
        EACH_INCREASING_NODE(get_u32(q + 4) >= limit2 || get_u32(q + 8) >= limit2);
    case CHECK_TEXTS:
        EACH_INCREASING_NODE((v = get_u32(q + 4)) >= limit2 || (v = get_u32(q + 12)) != 0);
    }
    return 0;
bad:
    return lf_fail_at(err, c->offset + (first_elem + i) * c->elem_size, "corrupt leakfind snapshot",
                      "chunk %s entry %llu has invalid value %llu", c->name,
                      (unsigned long long)(first_elem + i), (unsigned long long)v);
}
#undef EACH_ELEMENT
#undef EACH_INCREASING_NODE

/* Bytes checked, told about every LF_PROGRESS_STEP of them. */
typedef struct check_progress {
    lf_progress_counter told;
    uint64_t untold;
} check_progress;

static int verify_chunk(int fd, chunk_in *c, uint8_t *buf, unsigned flags, check_progress *progress,
                        lf_error *err)
{
    XXH3_state_t *st = XXH3_createState();
    if (!st)
        return lf_fail_nomem(err, "checking the snapshot");
    XXH3_64bits_reset(st);
    uint64_t done = 0, prev = 0;
    int rc = 0;
    while (done < c->size) {
        uint64_t want = c->size - done < READ_BLOCK ? c->size - done : READ_BLOCK;
        ssize_t got = pread(fd, buf, (size_t)want, (off_t)(c->offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            rc = got < 0 ? lf_fail_errno(err, "cannot read", errno)
                         : lf_fail_at(err, c->offset + done, "truncated leakfind snapshot",
                                      "chunk %s ends past the end of the file", c->name);
            break;
        }
        uint64_t len = (uint64_t)got - (uint64_t)got % c->elem_size;
        if (len == 0) { /* a partial element: read the rest next time */
            if ((uint64_t)got == want) {
                rc = lf_fail_at(err, c->offset + done, "corrupt leakfind snapshot",
                                "chunk %s size is not a multiple of its entry size", c->name);
                break;
            }
            continue;
        }
        XXH3_64bits_update(st, buf, (size_t)len);
        if (check_block(c, buf, len, done / c->elem_size, &prev, err)) {
            rc = -1;
            break;
        }
        done += len;
        if ((progress->untold += len) >= LF_PROGRESS_STEP) {
            lf_progress_add(&progress->told, progress->untold);
            progress->untold = 0;
        }
    }
    if (rc == 0 && !(flags & LF_LFS_SKIP_CHECKSUMS) && XXH3_64bits_digest(st) != c->hash)
        rc = lf_fail_at(err, c->offset, "corrupt leakfind snapshot",
                        "checksum mismatch in chunk %s", c->name);
    XXH3_freeState(st);
    return rc;
}

/* The stored dominator tree must be a tree hanging from the super-root whose
 * lists agree with idom[]: then walking it always ends. */
static int check_domtree(const lf_snapshot *s, uint64_t dtch_offset, lf_error *err)
{
    const uint32_t n = s->object_count;
    const uint32_t *off = s->domtree_offset, *child = s->domtree_child;
    const uint32_t listed = off[n + 1];
    uint8_t *seen = lf_big_calloc(((size_t)n + 8) / 8, 1);
    uint32_t *stack = lf_big_malloc(((size_t)listed + 1) * sizeof *stack);
    int rc = 0;
    if (!seen || !stack) {
        rc = lf_fail_nomem(err, "checking the dominator tree");
        goto out;
    }
    uint64_t visited = 0;
    size_t top = 0;
    stack[top++] = n;
    while (top > 0 && rc == 0) {
        uint32_t slot = stack[--top];
        uint32_t owner = slot == n ? LF_NODE_SUPER : slot;
        for (uint32_t i = off[slot]; i < off[slot + 1]; i++) {
            uint32_t c = child[i];
            if (s->idom[c] != owner || (seen[c / 8] >> (c % 8) & 1)) {
                rc = lf_fail_at(err, dtch_offset + (uint64_t)i * 4, "corrupt leakfind snapshot",
                                "dominator tree entry %u disagrees with the dominators", i);
                break;
            }
            seen[c / 8] |= (uint8_t)(1u << (c % 8));
            visited++;
            stack[top++] = c;
        }
    }
    uint64_t dominated = 0;
    for (uint32_t v = 0; v < n; v++)
        dominated += s->idom[v] != LF_NODE_NONE;
    if (rc == 0 && (visited != listed || dominated != listed || s->reachable_count != listed))
        rc = lf_fail_at(err, dtch_offset, "corrupt leakfind snapshot",
                        "dominator tree has entries not reachable from the roots");
out:
    lf_big_free(seen);
    lf_big_free(stack);
    return rc;
}

int lf_lfs_detect(const uint8_t *data, uint64_t size)
{
    return size >= 8 && memcmp(data, LFS_MAGIC, 8) == 0;
}

int lf_lfs_open(const char *path, lf_snapshot *out, lf_error *err)
{
    return lf_lfs_open_flags(path, 0, out, err);
}

int lf_lfs_open_flags(const char *path, unsigned flags, lf_snapshot *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lf_fail_errno(err, "cannot open", errno);
    int rc = lf_lfs_open_fd(fd, flags, out, err);
    close(fd);
    return rc;
}

int lf_lfs_open_fd(int fd, unsigned flags, lf_snapshot *out, lf_error *err)
{
    return lf_lfs_open_fd_reporting(fd, flags, NULL, out, err);
}

/* Every chunk this reader knows, in table order; the checks' limits and the
 * expected counts are filled in from META. */
enum { C_META, C_STRO, C_STRB, C_CLSN, C_OIDS, C_OCLS, C_OSHL, C_OSH4, C_OSHB, C_EOFF, C_EOF4,
       C_ETGT, C_ELBL, C_EKND, C_ETYP, C_ROOT, C_ONAM, C_PLAC, C_STXT, C_FRAM, C_SITE, C_OSIT, C_OSMP, C_CLDR, C_IDOM, C_RETN,
       C_RET4, C_RETB, C_DTOF, C_DTCH, C_COUNT };

static const chunk_in chunk_kinds[C_COUNT] = {
    [C_META] = {LFS_META, "META", 1, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_STRO] = {LFS_STRO, "STRO", 1, 8, 0, CHECK_U64_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
    [C_STRB] = {LFS_STRB, "STRB", 1, 1, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_CLSN] = {LFS_CLSN, "CLSN", 1, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
    [C_OIDS] = {LFS_OIDS, "OIDS", 1, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_OCLS] = {LFS_OCLS, "OCLS", 1, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
    /* shallow sizes: OSH4 (and OSHB), or a 1.0/1.1 file's OSHL */
    [C_OSHL] = {LFS_OSHL, "OSHL", 0, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_OSH4] = {LFS_OSH4, "OSH4", 0, 4, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_OSHB] = {LFS_OSHB, "OSHB", 0, 16, 0, CHECK_SIZES_BIG, 0, 0, 0, 0, 0, 0, 0},
    /* one of the two (expect_graph) */
    [C_EOFF] = {LFS_EOFF, "EOFF", 0, 8, 0, CHECK_U64_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
    [C_EOF4] = {LFS_EOF4, "EOF4", 0, 4, 0, CHECK_U32_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
    [C_ETGT] = {LFS_ETGT, "ETGT", 1, 4, 0, CHECK_U32_NODE_BELOW, 0, 0, 0, 0, 0, 0, 0},
    [C_ELBL] = {LFS_ELBL, "ELBL", 1, 4, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_EKND] = {LFS_EKND, "EKND", 1, 1, 0, CHECK_U8_BELOW, LF_EDGE_KIND_COUNT, 0, 0, 0, 0, 0, 0},
    [C_ETYP] = {LFS_ETYP, "ETYP", 0, 1, 0, CHECK_U8_BELOW, LFS_EDGE_TYPE_COUNT, 0, 0, 0, 0, 0, 0},
    [C_ROOT] = {LFS_ROOT, "ROOT", 1, 16, 0, CHECK_ROOTS, 0, 0, 0, 0, 0, 0, 0},
    [C_ONAM] = {LFS_ONAM, "ONAM", 0, 8, 0, CHECK_NAMED, 0, 0, 0, 0, 0, 0, 0},
    [C_PLAC] = {LFS_PLAC, "PLAC", 0, 20, 0, CHECK_PLACES, 0, 0, 0, 0, 0, 0, 0},
    [C_STXT] = {LFS_STXT, "STXT", 0, 16, 0, CHECK_TEXTS, 0, 0, 0, 0, 0, 0, 0},
    [C_FRAM] = {LFS_FRAM, "FRAM", 0, 16, 0, CHECK_FRAMES, 0, 0, 0, 0, 0, 0, 0},
    [C_SITE] = {LFS_SITE, "SITE", 0, 8, 0, CHECK_SITES, 0, 0, 0, 0, 0, 0, 0},
    [C_OSIT] = {LFS_OSIT, "OSIT", 0, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
    [C_OSMP] = {LFS_OSMP, "OSMP", 0, 4, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_CLDR] = {LFS_CLDR, "CLDR", 0, 4, 0, CHECK_U32_NODE_OR_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_IDOM] = {LFS_IDOM, "IDOM", 0, 4, 0, CHECK_U32_IDOM, 0, 0, 0, 0, 0, 0, 0},
    [C_RETN] = {LFS_RETN, "RETN", 0, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_RET4] = {LFS_RET4, "RET4", 0, 4, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
    [C_RETB] = {LFS_RETB, "RETB", 0, 16, 0, CHECK_SIZES_BIG, 0, 0, 0, 0, 0, 0, 0},
    [C_DTOF] = {LFS_DTOF, "DTOF", 0, 4, 0, CHECK_U32_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
    [C_DTCH] = {LFS_DTCH, "DTCH", 0, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
};

/* One open in progress: what the header, the chunk table and META said. */
typedef struct lfs_reading {
    int fd;
    unsigned flags;
    uint8_t *buf;              /* READ_BLOCK bytes: the head, then each chunk block by block */
    check_progress progress;
    uint64_t actual_size;      /* of the file on disk */
    uint64_t file_size;        /* as the header says (at most actual_size) */
    uint64_t head_len;         /* header and chunk table */
    uint32_t chunk_count;
    chunk_in chunk[C_COUNT];
    uint64_t meta[LFS_META_FIELDS]; /* missing trailing fields read as 0 */
    double sample_rate;
    int has_analysis, has_sites, has_samples;
} lfs_reading;

static int open_regular_file(lfs_reading *r, const lf_progress *progress_to, lf_error *err)
{
    struct stat st;
    if (fstat(r->fd, &st) < 0)
        return lf_fail_errno(err, "cannot stat", errno);
    if (!S_ISREG(st.st_mode))
        return lf_fail(err, LF_ERR_INPUT, "a leakfind snapshot must be a regular file");
    r->actual_size = (uint64_t)st.st_size;
    lf_progress_begin(&r->progress.told, progress_to, "checking", r->actual_size);
    r->buf = malloc(READ_BLOCK);
    if (!r->buf)
        return lf_fail_nomem(err, "opening");
    return 0;
}

/* The fixed header: magic, version, sizes; then the chunk table must fit. */
static int read_header(lfs_reading *r, lf_error *err)
{
    const uint64_t head_max = LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE;
    const uint64_t head_got = r->actual_size < head_max ? r->actual_size : head_max;
    const uint8_t *buf = r->buf;
    if (pread(r->fd, r->buf, (size_t)head_got, 0) != (ssize_t)head_got)
        return lf_fail_errno(err, "cannot read", errno);
    if (head_got < LFS_HEADER_SIZE)
        return lf_fail_at(err, 0, "truncated leakfind header", "need %d bytes, %llu left",
                          LFS_HEADER_SIZE, (unsigned long long)head_got);
    if (memcmp(buf, LFS_MAGIC, 8) != 0)
        return lf_fail_at(err, 0, "not a leakfind snapshot", NULL);
    if (buf[8] != LFS_VERSION_MAJOR || buf[9] != 0)
        return lf_fail_at(err, 8, "unsupported leakfind snapshot version", "%u.%u (this reads 1.x)",
                          (unsigned)(buf[8] | buf[9] << 8), (unsigned)(buf[10] | buf[11] << 8));
    uint32_t header_size = get_u32(buf + 12);
    uint64_t table_offset = get_u64(buf + 32);
    r->chunk_count = get_u32(buf + 16);
    r->file_size = get_u64(buf + 24);
    if (header_size != LFS_HEADER_SIZE || table_offset != LFS_HEADER_SIZE)
        return lf_fail_at(err, 12, "corrupt leakfind header", "unexpected header or table size");
    if (r->chunk_count > LFS_MAX_CHUNKS)
        return lf_fail_at(err, 16, "corrupt leakfind header", "%u chunks (at most %d)", r->chunk_count,
                          LFS_MAX_CHUNKS);
    if (r->file_size > r->actual_size)
        return lf_fail_at(err, r->actual_size, "truncated leakfind snapshot",
                          "the header says %llu bytes, the file has %llu",
                          (unsigned long long)r->file_size, (unsigned long long)r->actual_size);
    r->head_len = LFS_HEADER_SIZE + (uint64_t)r->chunk_count * LFS_CHUNK_ENTRY_SIZE;
    if (r->head_len > head_got)
        return lf_fail_at(err, head_got, "truncated leakfind chunk table", "need %llu bytes, %llu left",
                          (unsigned long long)r->head_len, (unsigned long long)head_got);
    return 0;
}

/* The header checksum covers bytes 0..55 and the chunk table. */
static int check_header_hash(lfs_reading *r, lf_error *err)
{
    XXH3_state_t *hs = XXH3_createState();
    if (!hs)
        return lf_fail_nomem(err, "opening");
    XXH3_64bits_reset(hs);
    XXH3_64bits_update(hs, r->buf, 56);
    XXH3_64bits_update(hs, r->buf + LFS_HEADER_SIZE, (size_t)(r->head_len - LFS_HEADER_SIZE));
    uint64_t head_hash = XXH3_64bits_digest(hs);
    XXH3_freeState(hs);
    if (head_hash != get_u64(r->buf + 56) && !(r->flags & LF_LFS_SKIP_CHECKSUMS))
        return lf_fail_at(err, 56, "corrupt leakfind header", "checksum mismatch");
    return 0;
}

/* Each table entry lies inside the file and names a chunk at most once;
 * entries of kinds this reader does not know are passed over. */
static int find_chunks(lfs_reading *r, lf_error *err)
{
    for (uint32_t i = 0; i < r->chunk_count; i++) {
        const uint8_t *e = r->buf + LFS_HEADER_SIZE + i * LFS_CHUNK_ENTRY_SIZE;
        uint64_t entry_at = LFS_HEADER_SIZE + (uint64_t)i * LFS_CHUNK_ENTRY_SIZE;
        uint64_t off = get_u64(e + 8), size = get_u64(e + 16);
        if (off % 8 || off < r->head_len || off > r->file_size || size > r->file_size - off)
            return lf_fail_at(err, entry_at, "corrupt leakfind chunk table",
                              "chunk %u lies outside the file", i);
        for (int c = 0; c < C_COUNT; c++) {
            chunk_in *k = &r->chunk[c];
            if (k->id != get_u32(e))
                continue;
            if (k->present)
                return lf_fail_at(err, entry_at, "corrupt leakfind chunk table", "chunk %s twice",
                                  k->name);
            k->present = 1;
            k->offset = off;
            k->size = size;
            k->hash = get_u64(e + 24);
        }
    }
    for (int c = 0; c < C_COUNT; c++)
        if (r->chunk[c].required && !r->chunk[c].present)
            return lf_fail_at(err, LFS_HEADER_SIZE, "corrupt leakfind snapshot", "chunk %s is missing",
                              r->chunk[c].name);
    return 0;
}

/* META gives the counts every other chunk is checked against. */
static int read_meta(lfs_reading *r, lf_error *err)
{
    chunk_in *meta = &r->chunk[C_META];
    meta->elem_count = meta->size / 8;
    if (meta->size % 8 || meta->size < 8 * (LFS_META_REACHABLE_COUNT) || meta->size > READ_BLOCK)
        return lf_fail_at(err, meta->offset, "corrupt leakfind snapshot", "bad META size");
    if (verify_chunk(r->fd, meta, r->buf, r->flags, &r->progress, err))
        return -1;
    for (uint64_t f = 0; f < LFS_META_FIELDS && f < meta->size / 8; f++)
        r->meta[f] = get_u64(r->buf + 8 * f);
    r->has_analysis = r->meta[LFS_META_HAS_ANALYSIS] == 1;
    return 0;
}

/* A table of at most one entry per object (OSHB, RETB: big sizes, 16-byte
 * entries; PLAC: source places): its size a whole number of entries. */
static int expect_per_object(lfs_reading *r, int c, lf_error *err)
{
    chunk_in *k = &r->chunk[c];
    const uint64_t n = r->meta[LFS_META_OBJECT_COUNT];
    if (!k->present)
        return 0;
    if (k->size % k->elem_size || k->size / k->elem_size > n)
        return lf_fail_at(err, k->offset, "corrupt leakfind snapshot", "bad %s size", k->name);
    k->elem_count = k->size / k->elem_size;
    k->limit = n;
    return 0;
}

/* Strings, classes, objects, edges and roots: the chunks every file has.
 * Counts are bounded by the file: each costs bytes in some chunk. */
static int expect_graph(lfs_reading *r, lf_error *err)
{
    const uint64_t *meta = r->meta, file_size = r->file_size;
    const uint64_t n = meta[LFS_META_OBJECT_COUNT], edges = meta[LFS_META_EDGE_COUNT];
    const uint64_t classes = meta[LFS_META_CLASS_COUNT], roots = meta[LFS_META_ROOT_COUNT];
    const uint64_t strings = meta[LFS_META_STRING_COUNT];
    chunk_in *chunk = r->chunk;
    if (n > LF_NODE_MAX || n > file_size / 8 || edges > file_size / 4 || classes > file_size / 4 ||
        roots > file_size / 16 || strings == 0 || strings > file_size / 8)
        return lf_fail_at(err, chunk[C_META].offset, "corrupt leakfind snapshot",
                          "counts do not fit the file size");
    chunk[C_STRO].elem_count = strings + 1;
    chunk[C_STRO].last = chunk[C_STRB].size;
    chunk[C_STRB].elem_count = chunk[C_STRB].size;
    chunk[C_CLSN].elem_count = classes;
    chunk[C_CLSN].limit = strings;
    chunk[C_OIDS].elem_count = n;
    chunk[C_OCLS].elem_count = n;
    chunk[C_OCLS].limit = classes;
    chunk[C_OSHL].elem_count = n;
    if (chunk[C_EOFF].present == chunk[C_EOF4].present)
        return lf_fail_at(err, LFS_HEADER_SIZE, "corrupt leakfind snapshot",
                          chunk[C_EOFF].present ? "chunks EOFF and EOF4 both present" : "chunk EOFF is missing");
    if (chunk[C_EOF4].present && edges > UINT32_MAX)
        return lf_fail_at(err, chunk[C_EOF4].offset, "corrupt leakfind snapshot",
                          "EOF4 cannot hold %llu edges", (unsigned long long)edges);
    chunk[C_OSH4].elem_count = n;
    if (!chunk[C_OSH4].present && !chunk[C_OSHL].present)
        return lf_fail_at(err, LFS_HEADER_SIZE, "corrupt leakfind snapshot", "chunk OSH4 is missing");
    if (expect_per_object(r, C_OSHB, err))
        return -1;
    chunk[C_EOFF].elem_count = n + 1;
    chunk[C_EOFF].last = edges;
    chunk[C_EOF4].elem_count = n + 1;
    chunk[C_EOF4].last = edges;
    chunk[C_ETGT].elem_count = edges;
    chunk[C_ETGT].limit = n;
    chunk[C_ELBL].elem_count = edges;
    chunk[C_EKND].elem_count = edges;
    chunk[C_ETYP].elem_count = edges;
    chunk[C_ROOT].elem_count = roots;
    chunk[C_ROOT].limit = n;
    chunk[C_ROOT].limit2 = strings;
    return 0;
}

/* ONAM: (object, string) pairs, objects increasing. */
static int expect_named(lfs_reading *r, lf_error *err)
{
    const uint64_t named = r->meta[LFS_META_NAMED_COUNT], n = r->meta[LFS_META_OBJECT_COUNT];
    chunk_in *onam = &r->chunk[C_ONAM];
    if (named > n || (named && !onam->present))
        return lf_fail_at(err, r->chunk[C_META].offset, "corrupt leakfind snapshot",
                          "bad named-object count");
    onam->elem_count = named;
    onam->limit = n;
    onam->limit2 = r->meta[LFS_META_STRING_COUNT];
    return 0;
}

/* PLAC (1.4, optional): source places, at most one an object, whose names
 * are table strings. */
static int expect_places(lfs_reading *r, lf_error *err)
{
    if (expect_per_object(r, C_PLAC, err))
        return -1;
    r->chunk[C_PLAC].limit2 = r->meta[LFS_META_STRING_COUNT];
    return 0;
}

/* STXT (1.6, optional): string objects' texts, at most one an object,
 * each a table string. */
static int expect_texts(lfs_reading *r, lf_error *err)
{
    if (expect_per_object(r, C_STXT, err))
        return -1;
    r->chunk[C_STXT].limit2 = r->meta[LFS_META_STRING_COUNT];
    return 0;
}

/* Allocation sites (1.1): all three chunks or none; samples optional. */
static int expect_sites(lfs_reading *r, lf_error *err)
{
    const uint64_t *meta = r->meta, file_size = r->file_size;
    const uint64_t frames = meta[LFS_META_FRAME_COUNT], sites = meta[LFS_META_SITE_COUNT];
    chunk_in *chunk = r->chunk;
    memcpy(&r->sample_rate, &meta[LFS_META_SAMPLE_RATE], sizeof r->sample_rate);
    r->has_sites = sites != 0;
    r->has_samples = r->has_sites && meta[LFS_META_SAMPLE_RATE] != 0;
    if ((r->has_sites && (!frames || frames > file_size / 16 || sites > file_size / 8 ||
                          !chunk[C_FRAM].present || !chunk[C_SITE].present ||
                          !chunk[C_OSIT].present)) ||
        (r->has_samples && (!(r->sample_rate > 0 && r->sample_rate <= 1) || !chunk[C_OSMP].present)))
        return lf_fail_at(err, chunk[C_META].offset, "corrupt leakfind snapshot",
                          "bad allocation-site counts");
    chunk[C_FRAM].elem_count = frames;
    chunk[C_FRAM].limit2 = meta[LFS_META_STRING_COUNT];
    chunk[C_SITE].elem_count = sites;
    chunk[C_SITE].limit = frames;
    chunk[C_OSIT].elem_count = meta[LFS_META_OBJECT_COUNT];
    chunk[C_OSIT].limit = sites;
    chunk[C_OSMP].elem_count = meta[LFS_META_OBJECT_COUNT];
    return 0;
}

/* CLDR (1.1, optional): a loader object a class, or none. Its size is
 * checked with the others; nothing here can fail. */
static int expect_class_loaders(lfs_reading *r)
{
    r->chunk[C_CLDR].elem_count = r->meta[LFS_META_CLASS_COUNT];
    r->chunk[C_CLDR].limit = r->meta[LFS_META_OBJECT_COUNT];
    return 0;
}

/* A stored analysis: dominators, retained sizes and the dominator tree, all
 * four chunks or none. */
static int expect_analysis(lfs_reading *r, lf_error *err)
{
    if (!r->has_analysis)
        return 0;
    const uint64_t n = r->meta[LFS_META_OBJECT_COUNT];
    chunk_in *chunk = r->chunk;
    for (int c = C_IDOM; c <= C_DTCH; c++)
        if (!chunk[c].present && c != C_RETN && c != C_RETB &&
            !(c == C_RET4 && chunk[C_RETN].present)) /* a 1.0/1.1 file: RETN */
            return lf_fail_at(err, LFS_HEADER_SIZE, "corrupt leakfind snapshot",
                              "chunk %s is missing", chunk[c].name);
    chunk[C_IDOM].elem_count = n;
    chunk[C_IDOM].limit = n;
    chunk[C_RETN].elem_count = n;
    chunk[C_RET4].elem_count = n;
    if (expect_per_object(r, C_RETB, err))
        return -1;
    chunk[C_DTOF].elem_count = n + 2;
    chunk[C_DTOF].last = chunk[C_DTCH].size / 4;
    chunk[C_DTCH].elem_count = chunk[C_DTCH].size / 4;
    chunk[C_DTCH].limit = n;
    if (chunk[C_DTCH].size % 4 || chunk[C_DTCH].size / 4 > n)
        return lf_fail_at(err, chunk[C_DTCH].offset, "corrupt leakfind snapshot", "bad DTCH size");
    return 0;
}

static int chunk_is_used(const lfs_reading *r, int c)
{
    const chunk_in *k = r->chunk;
    /* the 4-byte sizes when the file has them (1.2), else the 8-byte ones;
     * a big table only beside its 4-byte sizes */
    switch (c) {
    case C_OSHL: return !k[C_OSH4].present;
    case C_OSH4: return k[C_OSH4].present;
    case C_OSHB: return k[C_OSHB].present && k[C_OSH4].present;
    case C_RETN: return r->has_analysis && !k[C_RET4].present;
    case C_RET4: return r->has_analysis && k[C_RET4].present;
    case C_RETB: return r->has_analysis && k[C_RETB].present && k[C_RET4].present;
    default: break;
    }
    return !((c >= C_IDOM && !r->has_analysis) ||
             ((c == C_ONAM || c == C_PLAC || c == C_STXT || c == C_CLDR || c == C_EOFF || c == C_EOF4 || c == C_ETYP) &&
              !r->chunk[c].present) ||
             (c >= C_FRAM && c <= C_OSIT && !r->has_sites) || (c == C_OSMP && !r->has_samples));
}

/* Each chunk the file uses: its size from the counts, then every element. */
static int verify_chunks(lfs_reading *r, lf_error *err)
{
    for (int c = C_STRO; c < C_COUNT; c++) {
        chunk_in *k = &r->chunk[c];
        if (!chunk_is_used(r, c))
            continue;
        if (k->size != k->elem_count * k->elem_size)
            return lf_fail_at(err, k->offset, "corrupt leakfind snapshot",
                              "chunk %s has %llu bytes, its counts need %llu", k->name,
                              (unsigned long long)k->size,
                              (unsigned long long)(k->elem_count * k->elem_size));
        if (verify_chunk(r->fd, k, r->buf, r->flags, &r->progress, err))
            return -1;
    }
    lf_progress_reach(&r->progress.told, r->actual_size);
    return 0;
}

/* The graph's arrays, straight into the mapping. */
static void point_graph(const lfs_reading *r, const uint8_t *base, lf_snapshot *out)
{
    const uint64_t *meta = r->meta;
    const chunk_in *chunk = r->chunk;
    out->format = LF_FORMAT_LFS;
    out->source_format = meta[LFS_META_SOURCE_FORMAT] <= LF_FORMAT_GCDUMP
                             ? (lf_source_format)meta[LFS_META_SOURCE_FORMAT]
                             : LF_FORMAT_UNKNOWN;
    out->flags = (uint32_t)meta[LFS_META_SNAPSHOT_FLAGS];
    out->object_count = (uint32_t)meta[LFS_META_OBJECT_COUNT];
    out->edge_count = meta[LFS_META_EDGE_COUNT];
    out->class_count = (uint32_t)meta[LFS_META_CLASS_COUNT];
    out->root_count = (uint32_t)meta[LFS_META_ROOT_COUNT];
    out->string_count = (uint32_t)meta[LFS_META_STRING_COUNT];
    out->string_offset = (const uint64_t *)(base + chunk[C_STRO].offset);
    out->string_bytes = (const char *)(base + chunk[C_STRB].offset);
    out->class_name = (const uint32_t *)(base + chunk[C_CLSN].offset);
    out->object_id = (const uint64_t *)(base + chunk[C_OIDS].offset);
    out->object_class = (const uint32_t *)(base + chunk[C_OCLS].offset);
    out->edge_target = (const uint32_t *)(base + chunk[C_ETGT].offset);
    out->edge_label = (const uint32_t *)(base + chunk[C_ELBL].offset);
    out->edge_kind = (const uint8_t *)(base + chunk[C_EKND].offset);
    if (chunk[C_ETYP].present)
        out->edge_type = (const uint8_t *)(base + chunk[C_ETYP].offset);
    out->root = (const lf_root *)(base + chunk[C_ROOT].offset);
    if (chunk[C_CLDR].present)
        out->class_loader = (const uint32_t *)(base + chunk[C_CLDR].offset);
    if (chunk[C_PLAC].present) { /* entries are 4-byte words at an 8-aligned offset */
        out->place_count = (uint32_t)chunk[C_PLAC].elem_count;
        out->place = (const lf_place *)(base + chunk[C_PLAC].offset);
    }
    if (chunk[C_STXT].present) {
        out->text_count = (uint32_t)chunk[C_STXT].elem_count;
        out->text = (const lf_object_text *)(base + chunk[C_STXT].offset);
    }
}

/* Edge offsets are mapped as the file holds them: 32-bit (EOF4), or 64-bit
 * (EOFF: 1.1 files, and edge totals past 32 bits). 32-bit ones are copied
 * wide when wide ones are asked for (lf_edge_offsets_wide_from: tests). */
static int point_edge_offsets(const lfs_reading *r, const uint8_t *base, lf_snapshot *out, lf_error *err)
{
    const chunk_in *chunk = r->chunk;
    if (chunk[C_EOFF].present) {
        out->edge_offset.wide = (const uint64_t *)(base + chunk[C_EOFF].offset);
        return 0;
    }
    const uint32_t *narrow = (const uint32_t *)(base + chunk[C_EOF4].offset);
    if (lf_edge_offsets_fit_narrow(out->edge_count)) {
        out->edge_offset.narrow = narrow;
        return 0;
    }
    const size_t entries = (size_t)out->object_count + 1;
    uint64_t *wide = lf_big_result_malloc(entries * sizeof *wide);
    if (!lf_snapshot_own(out, wide)) {
        lf_big_free(wide);
        return lf_fail_nomem(err, "opening");
    }
    for (size_t v = 0; v < entries; v++)
        wide[v] = narrow[v];
    out->edge_offset.wide = wide;
    return 0;
}

/* Named objects are pairs in the file; the model wants two arrays. */
static int copy_named(const lfs_reading *r, const uint8_t *base, lf_snapshot *out, lf_error *err)
{
    const uint64_t named = r->meta[LFS_META_NAMED_COUNT];
    if (!named)
        return 0;
    uint32_t *pairs = malloc((size_t)named * 2 * sizeof *pairs);
    if (!lf_snapshot_own(out, pairs)) {
        free(pairs);
        return lf_fail_nomem(err, "opening");
    }
    const uint8_t *p = base + r->chunk[C_ONAM].offset;
    for (uint64_t i = 0; i < named; i++) {
        pairs[i] = get_u32(p + 8 * i);
        pairs[named + i] = get_u32(p + 8 * i + 4);
    }
    out->named_count = (uint32_t)named;
    out->named_node = pairs;
    out->named_string = pairs + named;
    return 0;
}

static void point_sites(const lfs_reading *r, const uint8_t *base, lf_snapshot *out)
{
    if (!r->has_sites)
        return;
    const chunk_in *chunk = r->chunk;
    out->frame_count = (uint32_t)r->meta[LFS_META_FRAME_COUNT];
    out->site_count = (uint32_t)r->meta[LFS_META_SITE_COUNT];
    out->frame = (const lf_frame *)(base + chunk[C_FRAM].offset);
    out->site = (const lf_site *)(base + chunk[C_SITE].offset);
    out->object_site = (const uint32_t *)(base + chunk[C_OSIT].offset);
    if (r->has_samples) {
        out->object_samples = (const uint32_t *)(base + chunk[C_OSMP].offset);
        out->sample_rate = r->sample_rate;
    }
}

/* When the dump was taken: a kind this reader does not know is none. */
static lf_clock clock_of(const uint64_t *meta)
{
    uint64_t kind = meta[LFS_META_CLOCK_KIND];
    if (kind != LF_CLOCK_WALL_MS && kind != LF_CLOCK_V8_IDS)
        return (lf_clock){LF_CLOCK_NONE, 0};
    return (lf_clock){(lf_clock_kind)kind, meta[LFS_META_CLOCK_VALUE]};
}

/* What the reader that made the file counted, and the key of its source. */
static void copy_stats(const lfs_reading *r, lf_snapshot *out)
{
    const uint64_t *meta = r->meta;
    out->stats.dangling_edges = meta[LFS_META_DANGLING_EDGES];
    out->stats.dangling_roots = meta[LFS_META_DANGLING_ROOTS];
    out->stats.warnings = meta[LFS_META_WARNINGS];
    out->stats.cut_at = meta[LFS_META_CUT_AT];
    out->stats.cut_missing = meta[LFS_META_CUT_MISSING];
    out->stats.gzip_cut_at = meta[LFS_META_GZIP_CUT_AT];
    out->stats.non_owning_edges = meta[LFS_META_NON_OWNING_EDGES];
    out->stats.dangling_holders = meta[LFS_META_DANGLING_HOLDERS];
    /* a holder past the objects (a corrupt file) is no holder */
    out->stats.dangling_top_holder = meta[LFS_META_DANGLING_TOP_HOLDER] <= meta[LFS_META_OBJECT_COUNT]
                                         ? meta[LFS_META_DANGLING_TOP_HOLDER] : 0;
    out->stats.dangling_top_count = meta[LFS_META_DANGLING_TOP_COUNT];
    out->stats.dangling_expected = meta[LFS_META_DANGLING_EXPECTED] <= meta[LFS_META_DANGLING_EDGES]
                                       ? meta[LFS_META_DANGLING_EXPECTED] : 0;
    out->clock = clock_of(meta);
    out->source_key = (lf_source_key){meta[LFS_META_SOURCE_SIZE], meta[LFS_META_SOURCE_MTIME_NS],
                                      meta[LFS_META_SOURCE_HASH], meta[LFS_META_SOURCE_OPTIONS]};
}

/* The stored analysis, once its tree is known to be one. */
static int point_analysis(const lfs_reading *r, const uint8_t *base, lf_snapshot *out, lf_error *err)
{
    if (!r->has_analysis)
        return 0;
    const uint64_t *meta = r->meta;
    const chunk_in *chunk = r->chunk;
    out->idom = (const uint32_t *)(base + chunk[C_IDOM].offset);
    out->domtree_offset = (const uint32_t *)(base + chunk[C_DTOF].offset);
    out->domtree_child = (const uint32_t *)(base + chunk[C_DTCH].offset);
    out->reachable_count = (uint32_t)meta[LFS_META_REACHABLE_COUNT];
    out->reachable_shallow = meta[LFS_META_REACHABLE_SHALLOW];
    out->analysis_flags = (unsigned)meta[LFS_META_ANALYSIS_FLAGS];
    return check_domtree(out, chunk[C_DTCH].offset, err);
}

/* Sizes in 4 bytes and a big table, mapped (1.2), or made from a 1.0/1.1
 * file's 8-byte ones (memory the snapshot owns). */
static int point_sizes(const lfs_reading *r, const uint8_t *base, int narrow, int big, int wide,
                       lf_snapshot *out, lf_sizes *into, lf_error *err)
{
    const chunk_in *chunk = r->chunk;
    if (chunk[narrow].present) {
        into->narrow = (const uint32_t *)(base + chunk[narrow].offset);
        into->big = chunk[big].present ? (const lf_size_big *)(base + chunk[big].offset) : NULL;
        into->big_count = chunk[big].present ? chunk[big].elem_count : 0;
        return 0;
    }
    const uint32_t n = out->object_count;
    const uint8_t *p = base + chunk[wide].offset;
    uint32_t *made = lf_big_result_malloc(((size_t)n + 1) * sizeof *made);
    if (!lf_snapshot_own(out, made)) {
        lf_big_free(made);
        return lf_fail_nomem(err, "opening");
    }
    lf_size_table table = {0};
    int failed = 0;
    for (uint32_t v = 0; v < n && !failed; v++)
        failed = lf_size_store(made, &table, v, get_u64(p + 8 * (uint64_t)v));
    if (failed || (table.entry && !lf_snapshot_own(out, table.entry))) {
        lf_size_table_free(&table);
        return lf_fail_nomem(err, "opening");
    }
    *into = lf_sizes_of(made, &table);
    return 0;
}

/* Only a file that passed every check is mapped and pointed into. */
static int map_snapshot(const lfs_reading *r, lf_snapshot *out, lf_error *err)
{
    void *map = mmap(NULL, (size_t)r->file_size, PROT_READ, MAP_SHARED, r->fd, 0);
    if (map == MAP_FAILED)
        return lf_fail_errno(err, "cannot map", errno);
    const uint8_t *base = map;
    out->map = map;
    lf_resident_track(map, (size_t)r->file_size);
    out->map_size = (size_t)r->file_size;
    point_graph(r, base, out);
    if (point_edge_offsets(r, base, out, err) ||
        point_sizes(r, base, C_OSH4, C_OSHB, C_OSHL, out, &out->object_shallow, err) ||
        (r->has_analysis && point_sizes(r, base, C_RET4, C_RETB, C_RETN, out, &out->retained, err)) ||
        copy_named(r, base, out, err)) {
        lf_snapshot_free(out);
        return -1;
    }
    point_sites(r, base, out);
    copy_stats(r, out);
    if (point_analysis(r, base, out, err)) {
        lf_snapshot_free(out);
        return -1;
    }
    return 0;
}

int lf_lfs_open_fd_reporting(int fd, unsigned flags, const lf_progress *progress_to, lf_snapshot *out,
                             lf_error *err)
{
    memset(out, 0, sizeof *out);
    lfs_reading r = {.fd = fd, .flags = flags};
    memcpy(r.chunk, chunk_kinds, sizeof r.chunk);
    /* Each step runs only when all before it passed: a file with several
     * faults is reported by the first in this order, which is the format's. */
    int failed = open_regular_file(&r, progress_to, err) ||
                 read_header(&r, err) ||
                 check_header_hash(&r, err) ||
                 find_chunks(&r, err) ||
                 read_meta(&r, err) ||
                 expect_graph(&r, err) ||
                 expect_named(&r, err) ||
                 expect_places(&r, err) ||
                 expect_texts(&r, err) ||
                 expect_sites(&r, err) ||
                 expect_class_loaders(&r) ||
                 expect_analysis(&r, err) ||
                 verify_chunks(&r, err) ||
                 map_snapshot(&r, out, err);
    free(r.buf);
    return failed ? -1 : 0;
}

lf_clock lf_lfs_clock_fd(int fd, lf_source_format *source)
{
    lfs_reading r = {.fd = fd};
    lf_error err;
    memcpy(r.chunk, chunk_kinds, sizeof r.chunk);
    int failed = open_regular_file(&r, NULL, &err) || read_header(&r, &err) || check_header_hash(&r, &err) ||
                 find_chunks(&r, &err) || read_meta(&r, &err);
    free(r.buf);
    uint64_t from = failed ? 0 : r.meta[LFS_META_SOURCE_FORMAT];
    *source = from >= LF_FORMAT_TEXT && from <= LF_FORMAT_GCDUMP ? (lf_source_format)from : LF_FORMAT_UNKNOWN;
    return failed ? (lf_clock){LF_CLOCK_NONE, 0} : clock_of(r.meta);
}
