/* lfs_read.c - opens a leakfind file: validate everything, then map it.
 *
 * Every chunk is read once with pread (so page-cache pages are not charged to
 * this process), hashed and checked element by element; only then is the file
 * mapped and the snapshot pointed into it. Labels of edges are not checked here
 * (their meaning depends on the edge kind); lf_snapshot_string() bounds them. */
#include "lfs.h"
#include "bigmem.h"
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
    case CHECK_NAMED:
        for (i = 0; i < n; i++) {
            const uint8_t *q = p + i * c->elem_size;
            v = get_u32(q);
            if (v >= limit || (first_elem + i > 0 && v <= *prev) || get_u32(q + 4) >= limit2)
                goto bad;
            *prev = v;
        }
        return 0;
    }
    return 0;
bad:
    return lf_fail_at(err, c->offset + (first_elem + i) * c->elem_size, "corrupt leakfind snapshot",
                      "chunk %s entry %llu has invalid value %llu", c->name,
                      (unsigned long long)(first_elem + i), (unsigned long long)v);
}
#undef EACH_ELEMENT

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

int lf_lfs_open_fd_reporting(int fd, unsigned flags, const lf_progress *progress_to, lf_snapshot *out,
                             lf_error *err)
{
    memset(out, 0, sizeof *out);
    check_progress progress = {.untold = 0};
    uint8_t *buf = NULL;
    int rc = -1;
    struct stat st;
    if (fstat(fd, &st) < 0) {
        lf_fail_errno(err, "cannot stat", errno);
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        lf_fail(err, LF_ERR_INPUT, "a leakfind snapshot must be a regular file");
        goto out;
    }
    const uint64_t actual_size = (uint64_t)st.st_size;
    lf_progress_begin(&progress.told, progress_to, "checking", actual_size);
    buf = malloc(READ_BLOCK);
    if (!buf) {
        lf_fail_nomem(err, "opening");
        goto out;
    }
    uint64_t head_got = actual_size < LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE
                            ? actual_size
                            : LFS_HEADER_SIZE + LFS_MAX_CHUNKS * LFS_CHUNK_ENTRY_SIZE;
    if (pread(fd, buf, (size_t)head_got, 0) != (ssize_t)head_got) {
        lf_fail_errno(err, "cannot read", errno);
        goto out;
    }
    if (head_got < LFS_HEADER_SIZE) {
        lf_fail_at(err, 0, "truncated leakfind header", "need %d bytes, %llu left",
                   LFS_HEADER_SIZE, (unsigned long long)head_got);
        goto out;
    }
    if (memcmp(buf, LFS_MAGIC, 8) != 0) {
        lf_fail_at(err, 0, "not a leakfind snapshot", NULL);
        goto out;
    }
    if (buf[8] != LFS_VERSION_MAJOR || buf[9] != 0) {
        lf_fail_at(err, 8, "unsupported leakfind snapshot version", "%u.%u (this reads 1.x)",
                   (unsigned)(buf[8] | buf[9] << 8), (unsigned)(buf[10] | buf[11] << 8));
        goto out;
    }
    uint32_t header_size = get_u32(buf + 12), chunk_count = get_u32(buf + 16);
    uint64_t file_size = get_u64(buf + 24), table_offset = get_u64(buf + 32);
    if (header_size != LFS_HEADER_SIZE || table_offset != LFS_HEADER_SIZE) {
        lf_fail_at(err, 12, "corrupt leakfind header", "unexpected header or table size");
        goto out;
    }
    if (chunk_count > LFS_MAX_CHUNKS) {
        lf_fail_at(err, 16, "corrupt leakfind header", "%u chunks (at most %d)", chunk_count,
                   LFS_MAX_CHUNKS);
        goto out;
    }
    if (file_size > actual_size) {
        lf_fail_at(err, actual_size, "truncated leakfind snapshot",
                   "the header says %llu bytes, the file has %llu",
                   (unsigned long long)file_size, (unsigned long long)actual_size);
        goto out;
    }
    const uint64_t head_len = LFS_HEADER_SIZE + (uint64_t)chunk_count * LFS_CHUNK_ENTRY_SIZE;
    if (head_len > head_got) {
        lf_fail_at(err, head_got, "truncated leakfind chunk table", "need %llu bytes, %llu left",
                   (unsigned long long)head_len, (unsigned long long)head_got);
        goto out;
    }
    XXH3_state_t *hs = XXH3_createState();
    if (!hs) {
        lf_fail_nomem(err, "opening");
        goto out;
    }
    XXH3_64bits_reset(hs);
    XXH3_64bits_update(hs, buf, 56);
    XXH3_64bits_update(hs, buf + LFS_HEADER_SIZE, (size_t)(head_len - LFS_HEADER_SIZE));
    uint64_t head_hash = XXH3_64bits_digest(hs);
    XXH3_freeState(hs);
    if (head_hash != get_u64(buf + 56) && !(flags & LF_LFS_SKIP_CHECKSUMS)) {
        lf_fail_at(err, 56, "corrupt leakfind header", "checksum mismatch");
        goto out;
    }

    chunk_in chunk[] = {
        {LFS_META, "META", 1, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_STRO, "STRO", 1, 8, 0, CHECK_U64_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
        {LFS_STRB, "STRB", 1, 1, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_CLSN, "CLSN", 1, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
        {LFS_OIDS, "OIDS", 1, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_OCLS, "OCLS", 1, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
        {LFS_OSHL, "OSHL", 1, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_EOFF, "EOFF", 1, 8, 0, CHECK_U64_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
        {LFS_ETGT, "ETGT", 1, 4, 0, CHECK_U32_NODE_BELOW, 0, 0, 0, 0, 0, 0, 0},
        {LFS_ELBL, "ELBL", 1, 4, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_EKND, "EKND", 1, 1, 0, CHECK_U8_BELOW, LF_EDGE_KIND_COUNT, 0, 0, 0, 0, 0, 0},
        {LFS_ROOT, "ROOT", 1, 16, 0, CHECK_ROOTS, 0, 0, 0, 0, 0, 0, 0},
        {LFS_ONAM, "ONAM", 0, 8, 0, CHECK_NAMED, 0, 0, 0, 0, 0, 0, 0},
        {LFS_FRAM, "FRAM", 0, 16, 0, CHECK_FRAMES, 0, 0, 0, 0, 0, 0, 0},
        {LFS_SITE, "SITE", 0, 8, 0, CHECK_SITES, 0, 0, 0, 0, 0, 0, 0},
        {LFS_OSIT, "OSIT", 0, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
        {LFS_OSMP, "OSMP", 0, 4, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_CLDR, "CLDR", 0, 4, 0, CHECK_U32_NODE_OR_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_IDOM, "IDOM", 0, 4, 0, CHECK_U32_IDOM, 0, 0, 0, 0, 0, 0, 0},
        {LFS_RETN, "RETN", 0, 8, 0, CHECK_NONE, 0, 0, 0, 0, 0, 0, 0},
        {LFS_DTOF, "DTOF", 0, 4, 0, CHECK_U32_OFFSETS, 0, 0, 0, 0, 0, 0, 0},
        {LFS_DTCH, "DTCH", 0, 4, 0, CHECK_U32_BELOW, 0, 0, 0, 0, 0, 0, 0},
    };
    enum { C_META, C_STRO, C_STRB, C_CLSN, C_OIDS, C_OCLS, C_OSHL, C_EOFF, C_ETGT, C_ELBL,
           C_EKND, C_ROOT, C_ONAM, C_FRAM, C_SITE, C_OSIT, C_OSMP, C_CLDR, C_IDOM, C_RETN, C_DTOF, C_DTCH, C_COUNT };
    for (uint32_t i = 0; i < chunk_count; i++) {
        const uint8_t *e = buf + LFS_HEADER_SIZE + i * LFS_CHUNK_ENTRY_SIZE;
        uint64_t entry_at = LFS_HEADER_SIZE + (uint64_t)i * LFS_CHUNK_ENTRY_SIZE;
        uint64_t off = get_u64(e + 8), size = get_u64(e + 16);
        if (off % 8 || off < head_len || off > file_size || size > file_size - off) {
            lf_fail_at(err, entry_at, "corrupt leakfind chunk table",
                       "chunk %u lies outside the file", i);
            goto out;
        }
        for (int c = 0; c < C_COUNT; c++) {
            if (chunk[c].id != get_u32(e))
                continue;
            if (chunk[c].present) {
                lf_fail_at(err, entry_at, "corrupt leakfind chunk table", "chunk %s twice",
                           chunk[c].name);
                goto out;
            }
            chunk[c].present = 1;
            chunk[c].offset = off;
            chunk[c].size = size;
            chunk[c].hash = get_u64(e + 24);
        }
    }
    for (int c = 0; c < C_COUNT; c++) {
        if (chunk[c].required && !chunk[c].present) {
            lf_fail_at(err, LFS_HEADER_SIZE, "corrupt leakfind snapshot", "chunk %s is missing",
                       chunk[c].name);
            goto out;
        }
    }

    /* META gives the counts every other chunk is checked against. */
    chunk[C_META].elem_count = chunk[C_META].size / 8;
    if (chunk[C_META].size % 8 || chunk[C_META].size < 8 * (LFS_META_REACHABLE_COUNT) ||
        chunk[C_META].size > READ_BLOCK) {
        lf_fail_at(err, chunk[C_META].offset, "corrupt leakfind snapshot", "bad META size");
        goto out;
    }
    if (verify_chunk(fd, &chunk[C_META], buf, flags, &progress, err))
        goto out;
    uint64_t meta[LFS_META_FIELDS] = {0};
    for (uint64_t f = 0; f < LFS_META_FIELDS && f < chunk[C_META].size / 8; f++)
        meta[f] = get_u64(buf + 8 * f);
    const uint64_t n = meta[LFS_META_OBJECT_COUNT], edges = meta[LFS_META_EDGE_COUNT];
    const uint64_t classes = meta[LFS_META_CLASS_COUNT], roots = meta[LFS_META_ROOT_COUNT];
    const uint64_t strings = meta[LFS_META_STRING_COUNT];
    const int has_analysis = meta[LFS_META_HAS_ANALYSIS] == 1;
    /* Counts are bounded by the file: each costs bytes in some chunk. */
    if (n > LF_NODE_MAX || n > file_size / 8 || edges > file_size / 4 || classes > file_size / 4 ||
        roots > file_size / 16 || strings == 0 || strings > file_size / 8) {
        lf_fail_at(err, chunk[C_META].offset, "corrupt leakfind snapshot",
                   "counts do not fit the file size");
        goto out;
    }
    chunk[C_STRO].elem_count = strings + 1;
    chunk[C_STRO].last = chunk[C_STRB].size;
    chunk[C_STRB].elem_count = chunk[C_STRB].size;
    chunk[C_CLSN].elem_count = classes;
    chunk[C_CLSN].limit = strings;
    chunk[C_OIDS].elem_count = n;
    chunk[C_OCLS].elem_count = n;
    chunk[C_OCLS].limit = classes;
    chunk[C_OSHL].elem_count = n;
    chunk[C_EOFF].elem_count = n + 1;
    chunk[C_EOFF].last = edges;
    chunk[C_ETGT].elem_count = edges;
    chunk[C_ETGT].limit = n;
    chunk[C_ELBL].elem_count = edges;
    chunk[C_EKND].elem_count = edges;
    chunk[C_ROOT].elem_count = roots;
    chunk[C_ROOT].limit = n;
    chunk[C_ROOT].limit2 = strings;
    const uint64_t named = meta[LFS_META_NAMED_COUNT];
    if (named > n || (named && !chunk[C_ONAM].present)) {
        lf_fail_at(err, chunk[C_META].offset, "corrupt leakfind snapshot", "bad named-object count");
        goto out;
    }
    chunk[C_ONAM].elem_count = named;
    chunk[C_ONAM].limit = n;
    chunk[C_ONAM].limit2 = strings;
    /* Allocation sites (1.1): all three chunks or none; samples optional. */
    const uint64_t frames = meta[LFS_META_FRAME_COUNT], sites = meta[LFS_META_SITE_COUNT];
    double sample_rate;
    memcpy(&sample_rate, &meta[LFS_META_SAMPLE_RATE], sizeof sample_rate);
    const int has_sites = sites != 0;
    const int has_samples = has_sites && meta[LFS_META_SAMPLE_RATE] != 0;
    if ((has_sites && (!frames || frames > file_size / 16 || sites > file_size / 8 ||
                       !chunk[C_FRAM].present || !chunk[C_SITE].present ||
                       !chunk[C_OSIT].present)) ||
        (has_samples && (!(sample_rate > 0 && sample_rate <= 1) || !chunk[C_OSMP].present))) {
        lf_fail_at(err, chunk[C_META].offset, "corrupt leakfind snapshot",
                   "bad allocation-site counts");
        goto out;
    }
    chunk[C_FRAM].elem_count = frames;
    chunk[C_FRAM].limit2 = strings;
    chunk[C_SITE].elem_count = sites;
    chunk[C_SITE].limit = frames;
    chunk[C_OSIT].elem_count = n;
    chunk[C_OSIT].limit = sites;
    chunk[C_OSMP].elem_count = n;
    chunk[C_CLDR].elem_count = classes;
    chunk[C_CLDR].limit = n;
    if (has_analysis) {
        for (int c = C_IDOM; c <= C_DTCH; c++)
            if (!chunk[c].present) {
                lf_fail_at(err, LFS_HEADER_SIZE, "corrupt leakfind snapshot",
                           "chunk %s is missing", chunk[c].name);
                goto out;
            }
        chunk[C_IDOM].elem_count = n;
        chunk[C_IDOM].limit = n;
        chunk[C_RETN].elem_count = n;
        chunk[C_DTOF].elem_count = n + 2;
        chunk[C_DTOF].last = chunk[C_DTCH].size / 4;
        chunk[C_DTCH].elem_count = chunk[C_DTCH].size / 4;
        chunk[C_DTCH].limit = n;
        if (chunk[C_DTCH].size % 4 || chunk[C_DTCH].size / 4 > n) {
            lf_fail_at(err, chunk[C_DTCH].offset, "corrupt leakfind snapshot", "bad DTCH size");
            goto out;
        }
    }
    for (int c = C_STRO; c < C_COUNT; c++) {
        if ((c >= C_IDOM && !has_analysis) || ((c == C_ONAM || c == C_CLDR) && !chunk[c].present) ||
            (c >= C_FRAM && c <= C_OSIT && !has_sites) || (c == C_OSMP && !has_samples))
            continue;
        if (chunk[c].size != chunk[c].elem_count * chunk[c].elem_size) {
            lf_fail_at(err, chunk[c].offset, "corrupt leakfind snapshot",
                       "chunk %s has %llu bytes, its counts need %llu", chunk[c].name,
                       (unsigned long long)chunk[c].size,
                       (unsigned long long)(chunk[c].elem_count * chunk[c].elem_size));
            goto out;
        }
        if (verify_chunk(fd, &chunk[c], buf, flags, &progress, err))
            goto out;
    }

    lf_progress_reach(&progress.told, actual_size);
    void *map = mmap(NULL, (size_t)file_size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        lf_fail_errno(err, "cannot map", errno);
        goto out;
    }
    const uint8_t *base = map;
    out->map = map;
    out->map_size = (size_t)file_size;
    out->format = LF_FORMAT_LFS;
    out->source_format = meta[LFS_META_SOURCE_FORMAT] <= LF_FORMAT_V8
                             ? (lf_source_format)meta[LFS_META_SOURCE_FORMAT]
                             : LF_FORMAT_UNKNOWN;
    out->flags = (uint32_t)meta[LFS_META_SNAPSHOT_FLAGS];
    out->object_count = (uint32_t)n;
    out->edge_count = edges;
    out->class_count = (uint32_t)classes;
    out->root_count = (uint32_t)roots;
    out->string_count = (uint32_t)strings;
    out->string_offset = (const uint64_t *)(base + chunk[C_STRO].offset);
    out->string_bytes = (const char *)(base + chunk[C_STRB].offset);
    out->class_name = (const uint32_t *)(base + chunk[C_CLSN].offset);
    out->object_id = (const uint64_t *)(base + chunk[C_OIDS].offset);
    out->object_class = (const uint32_t *)(base + chunk[C_OCLS].offset);
    out->object_shallow = (const uint64_t *)(base + chunk[C_OSHL].offset);
    out->edge_offset = (const uint64_t *)(base + chunk[C_EOFF].offset);
    out->edge_target = (const uint32_t *)(base + chunk[C_ETGT].offset);
    out->edge_label = (const uint32_t *)(base + chunk[C_ELBL].offset);
    out->edge_kind = (const uint8_t *)(base + chunk[C_EKND].offset);
    out->root = (const lf_root *)(base + chunk[C_ROOT].offset);
    if (named) { /* pairs in the file; the model wants two arrays */
        uint32_t *pairs = malloc((size_t)named * 2 * sizeof *pairs);
        if (!lf_snapshot_own(out, pairs)) {
            free(pairs);
            lf_fail_nomem(err, "opening");
            lf_snapshot_free(out);
            goto out;
        }
        const uint8_t *p = base + chunk[C_ONAM].offset;
        for (uint64_t i = 0; i < named; i++) {
            pairs[i] = get_u32(p + 8 * i);
            pairs[named + i] = get_u32(p + 8 * i + 4);
        }
        out->named_count = (uint32_t)named;
        out->named_node = pairs;
        out->named_string = pairs + named;
    }
    if (has_sites) {
        out->frame_count = (uint32_t)frames;
        out->site_count = (uint32_t)sites;
        out->frame = (const lf_frame *)(base + chunk[C_FRAM].offset);
        out->site = (const lf_site *)(base + chunk[C_SITE].offset);
        out->object_site = (const uint32_t *)(base + chunk[C_OSIT].offset);
        if (has_samples) {
            out->object_samples = (const uint32_t *)(base + chunk[C_OSMP].offset);
            out->sample_rate = sample_rate;
        }
    }
    if (chunk[C_CLDR].present)
        out->class_loader = (const uint32_t *)(base + chunk[C_CLDR].offset);
    out->stats.dangling_edges = meta[LFS_META_DANGLING_EDGES];
    out->stats.dangling_roots = meta[LFS_META_DANGLING_ROOTS];
    out->stats.warnings = meta[LFS_META_WARNINGS];
    out->stats.cut_at = meta[LFS_META_CUT_AT];
    out->stats.cut_missing = meta[LFS_META_CUT_MISSING];
    out->stats.gzip_cut_at = meta[LFS_META_GZIP_CUT_AT];
    out->stats.non_owning_edges = meta[LFS_META_NON_OWNING_EDGES];
    out->stats.dangling_holders = meta[LFS_META_DANGLING_HOLDERS];
    /* a holder past the objects (a corrupt file) is no holder */
    out->stats.dangling_top_holder = meta[LFS_META_DANGLING_TOP_HOLDER] <= n ? meta[LFS_META_DANGLING_TOP_HOLDER] : 0;
    out->stats.dangling_top_count = meta[LFS_META_DANGLING_TOP_COUNT];
    out->stats.dangling_expected = meta[LFS_META_DANGLING_EXPECTED] <= meta[LFS_META_DANGLING_EDGES]
                                       ? meta[LFS_META_DANGLING_EXPECTED] : 0;
    out->source_key = (lf_source_key){meta[LFS_META_SOURCE_SIZE], meta[LFS_META_SOURCE_MTIME_NS],
                                      meta[LFS_META_SOURCE_HASH], meta[LFS_META_SOURCE_OPTIONS]};
    if (has_analysis) {
        out->idom = (const uint32_t *)(base + chunk[C_IDOM].offset);
        out->retained = (const uint64_t *)(base + chunk[C_RETN].offset);
        out->domtree_offset = (const uint32_t *)(base + chunk[C_DTOF].offset);
        out->domtree_child = (const uint32_t *)(base + chunk[C_DTCH].offset);
        out->reachable_count = (uint32_t)meta[LFS_META_REACHABLE_COUNT];
        out->reachable_shallow = meta[LFS_META_REACHABLE_SHALLOW];
        out->analysis_flags = (unsigned)meta[LFS_META_ANALYSIS_FLAGS];
        if (check_domtree(out, chunk[C_DTCH].offset, err)) {
            lf_snapshot_free(out);
            goto out;
        }
    }
    rc = 0;
out:
    free(buf);
    return rc;
}
