/* lfs_format.h - on-disk constants of the leakfind snapshot format (docs/FORMAT.md). */
#ifndef LF_LFS_FORMAT_H
#define LF_LFS_FORMAT_H

#include <stdint.h>

#define LFS_MAGIC "LEAKFIND"
#define LFS_VERSION_MAJOR 1
#define LFS_VERSION_MINOR 6
#define LFS_HEADER_SIZE 64
#define LFS_CHUNK_ENTRY_SIZE 32
#define LFS_MAX_CHUNKS 64

#define LFS_FOURCC(a, b, c, d) \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

enum lfs_chunk_id {
    LFS_META = LFS_FOURCC('M', 'E', 'T', 'A'),
    LFS_STRO = LFS_FOURCC('S', 'T', 'R', 'O'), /* u64 string offsets, count+1 */
    LFS_STRB = LFS_FOURCC('S', 'T', 'R', 'B'), /* string bytes */
    LFS_CLSN = LFS_FOURCC('C', 'L', 'S', 'N'), /* u32 class name string */
    LFS_OIDS = LFS_FOURCC('O', 'I', 'D', 'S'), /* u64 object id */
    LFS_OCLS = LFS_FOURCC('O', 'C', 'L', 'S'), /* u32 object class */
    LFS_OSHL = LFS_FOURCC('O', 'S', 'H', 'L'), /* up to 1.1: u64 object shallow size */
    /* 1.2: sizes in 4 bytes, LF_SIZE_BIG for one in the big table (graph/sizes.h) */
    LFS_OSH4 = LFS_FOURCC('O', 'S', 'H', '4'), /* u32 object shallow size */
    LFS_OSHB = LFS_FOURCC('O', 'S', 'H', 'B'), /* optional: 16-byte (u32 node, u32 0, u64 bytes) */
    LFS_EOFF = LFS_FOURCC('E', 'O', 'F', 'F'), /* u64 edge offsets, objects+1 */
    LFS_ETGT = LFS_FOURCC('E', 'T', 'G', 'T'), /* u32 edge target | weak bit */
    LFS_ELBL = LFS_FOURCC('E', 'L', 'B', 'L'), /* u32 edge label */
    LFS_EKND = LFS_FOURCC('E', 'K', 'N', 'D'), /* u8 edge kind */
    LFS_ROOT = LFS_FOURCC('R', 'O', 'O', 'T'), /* 16-byte root records */
    LFS_ONAM = LFS_FOURCC('O', 'N', 'A', 'M'), /* (u32 object, u32 string) named objects */
    LFS_IDOM = LFS_FOURCC('I', 'D', 'O', 'M'), /* u32 immediate dominator */
    LFS_RETN = LFS_FOURCC('R', 'E', 'T', 'N'), /* up to 1.1: u64 retained size */
    LFS_RET4 = LFS_FOURCC('R', 'E', 'T', '4'), /* 1.2: u32 retained size */
    LFS_RETB = LFS_FOURCC('R', 'E', 'T', 'B'), /* 1.2, optional: big retained sizes, as OSHB */
    LFS_DTOF = LFS_FOURCC('D', 'T', 'O', 'F'), /* u32 dominator-tree child offsets, objects+2 */
    LFS_DTCH = LFS_FOURCC('D', 'T', 'C', 'H'), /* u32 dominator-tree children */
    /* 1.1: allocation sites, optional */
    LFS_FRAM = LFS_FOURCC('F', 'R', 'A', 'M'), /* 4 x u32 frames: function, file, line, column */
    LFS_SITE = LFS_FOURCC('S', 'I', 'T', 'E'), /* 2 x u32 sites: frame, caller site */
    LFS_OSIT = LFS_FOURCC('O', 'S', 'I', 'T'), /* u32 object -> site */
    LFS_OSMP = LFS_FOURCC('O', 'S', 'M', 'P'), /* u32 object -> allocation samples */
    /* 1.1, optional: class loaders (HPROF) */
    LFS_CLDR = LFS_FOURCC('C', 'L', 'D', 'R'), /* u32 class -> loader object, 0xffffffff none */
    /* 1.2: u32 edge offsets, objects+1, in place of EOFF when the edges fit
     * (a 1.1 reader then refuses the file for lack of EOFF) */
    LFS_EOF4 = LFS_FOURCC('E', 'O', 'F', '4'),
    /* 1.3, optional: u8 edge -> the source's own edge type (V8: context,
     * element, property, internal, hidden, shortcut, weak, other = 0..7) */
    LFS_ETYP = LFS_FOURCC('E', 'T', 'Y', 'P'),
    /* 1.4, optional: 5 x u32 source places (lf_place: object, name string,
     * script string, 0-based line, 0-based column), objects increasing; the
     * count is the chunk's size over 20 */
    LFS_PLAC = LFS_FOURCC('P', 'L', 'A', 'C'),
    /* 1.6, optional: 4 x u32 string objects' texts (lf_object_text:
     * object, text string, characters, reserved 0), objects increasing;
     * the count is the chunk's size over 16 */
    LFS_STXT = LFS_FOURCC('S', 'T', 'X', 'T'),
};

/* ETYP values are below this (V8's seven types and "other"). */
#define LFS_EDGE_TYPE_COUNT 8

/* META chunk: little-endian u64 fields in this order. Readers accept a longer
 * META (fields appended by later minor versions) and treat missing trailing
 * fields as 0. */
enum lfs_meta_field {
    LFS_META_OBJECT_COUNT,
    LFS_META_EDGE_COUNT,
    LFS_META_CLASS_COUNT,
    LFS_META_ROOT_COUNT,
    LFS_META_STRING_COUNT,
    LFS_META_SOURCE_FORMAT,
    LFS_META_SNAPSHOT_FLAGS,
    LFS_META_DANGLING_EDGES,
    LFS_META_DANGLING_ROOTS,
    LFS_META_WARNINGS,
    LFS_META_HAS_ANALYSIS,
    LFS_META_REACHABLE_COUNT,
    LFS_META_REACHABLE_SHALLOW,
    LFS_META_ANALYSIS_FLAGS,
    LFS_META_NAMED_COUNT,
    LFS_META_CUT_AT,         /* a partial dump (snapshot flag bit 5): where it was cut */
    LFS_META_CUT_MISSING,
    LFS_META_GZIP_CUT_AT,
    LFS_META_SOURCE_SIZE,    /* a cache (--cache): the key of the dump it was made from */
    LFS_META_SOURCE_MTIME_NS,
    LFS_META_SOURCE_HASH,
    LFS_META_SOURCE_OPTIONS,
    LFS_META_FRAME_COUNT,    /* 1.1: allocation sites (0: none) */
    LFS_META_SITE_COUNT,
    LFS_META_SAMPLE_RATE,    /* IEEE-754 double bits: samples per word; 0: not sampled */
    LFS_META_NON_OWNING_EDGES, /* stats.non_owning_edges (0 in older files) */
    LFS_META_DANGLING_HOLDERS, /* stats.dangling_*: where dangling edges come from */
    LFS_META_DANGLING_TOP_HOLDER,
    LFS_META_DANGLING_TOP_COUNT,
    LFS_META_DANGLING_EXPECTED,
    LFS_META_CLOCK_KIND,     /* 1.5: when the dump was taken (lf_clock_kind; 0: not known) */
    LFS_META_CLOCK_VALUE,
    LFS_META_FIELDS
};

#endif
