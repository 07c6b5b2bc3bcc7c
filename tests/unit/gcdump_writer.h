/* gcdump_writer.h - .gcdump files made to order, for the reader's unit
 * tests, the fuzz corpus and the benchmark's generator: the
 * FastSerialization container, a GCHeapDump of version 10 (or another, to
 * see it refused) and its MemoryGraph, written as docs/DOTNET.md describes
 * them. Not a general writer: every object is written in place. */
#ifndef LF_GCDUMP_WRITER_H
#define LF_GCDUMP_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct gw_buf {
    uint8_t *data;
    size_t len, cap;
    int failed; /* out of memory */
    int64_t time_collected; /* .NET ticks the dump says it was taken at; 0, as dotnet-gcdump writes */
} gw_buf;

typedef struct gw_type {
    const char *name;
    int32_t size; /* the size of its nodes unless a node says its own */
} gw_type;

typedef struct gw_node {
    uint32_t type;
    int32_t size; /* -1: the type's */
    uint64_t address;
    uint32_t child_count;
    const uint32_t *child; /* node indices */
} gw_node;

/* A whole file: the graph's nodes (node 0 is its root, [.NET Roots]); the
 * total size is the sum of the node sizes unless total_size >= 0 says
 * another. */
int gw_write_dump(gw_buf *b, int32_t version, const gw_type *types, uint32_t type_count,
                  const gw_node *nodes, uint32_t node_count, int64_t total_size);
/* A version-10 file from its parts: node records already encoded (each
 * node's offset into blob), addresses, the total size. */
int gw_write_graph_parts(gw_buf *b, const gw_type *types, uint32_t type_count, uint32_t node_count,
                         const uint32_t *offset, const uint8_t *blob, size_t blob_len, const uint64_t *address,
                         int64_t total_size);
/* The parts, for a writer that makes nodes as it goes (the benchmark). */
void gw_u8(gw_buf *b, uint8_t v);
void gw_i32(gw_buf *b, int32_t v);
void gw_i64(gw_buf *b, int64_t v);
void gw_cint(gw_buf *b, int32_t v);
void gw_string(gw_buf *b, const char *s);
void gw_free(gw_buf *b);

#endif
