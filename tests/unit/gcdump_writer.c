/* gcdump_writer.c - .gcdump files made to order (gcdump_writer.h). */
#include "gcdump_writer.h"

#include <stdlib.h>
#include <string.h>

static void put(gw_buf *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void gw_u8(gw_buf *b, uint8_t v)
{
    put(b, &v, 1);
}

void gw_i32(gw_buf *b, int32_t v)
{
    uint32_t u = (uint32_t)v;
    uint8_t le[4] = {(uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24)};
    put(b, le, 4);
}

void gw_i64(gw_buf *b, int64_t v)
{
    gw_i32(b, (int32_t)(uint32_t)(uint64_t)v);
    gw_i32(b, (int32_t)(uint32_t)((uint64_t)v >> 32));
}

/* 7 bits a byte, the most significant first, in the fewest bytes that hold
 * the value signed. */
void gw_cint(gw_buf *b, int32_t v)
{
    int n = 1;
    while (n < 5 && !(v >= -(1 << (7 * n - 1)) && v < (1 << (7 * n - 1))))
        n++;
    for (int i = n - 1; i > 0; i--)
        gw_u8(b, (uint8_t)(((uint32_t)v >> (7 * i)) | 0x80));
    gw_u8(b, (uint8_t)(v & 0x7f));
}

/* ASCII and Latin-1 names only: one UTF-16 unit per byte below 0x80, two
 * bytes for the 2-byte UTF-8 sequences. */
void gw_string(gw_buf *b, const char *s)
{
    if (!s) {
        gw_i32(b, -1);
        return;
    }
    int32_t units = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        units += (*p & 0xc0) != 0x80;
    gw_i32(b, units);
    put(b, s, strlen(s));
}

static void type_record(gw_buf *b, const char *name, int32_t version, int32_t min_reader)
{
    gw_u8(b, 0x04);
    gw_u8(b, 0x01);
    gw_i32(b, version);
    gw_i32(b, min_reader);
    gw_string(b, name);
    gw_u8(b, 0x06);
}

/* The MemoryGraph object from its parts: node records already encoded. */
static void graph_object(gw_buf *b, const gw_type *types, uint32_t type_count, uint32_t node_count,
                         const uint32_t *offset, const uint8_t *blob, size_t blob_len, const uint64_t *address,
                         int64_t total_size)
{
    gw_u8(b, 0x04);
    type_record(b, "Graphs.MemoryGraph", 1, 0);
    gw_i64(b, total_size);
    gw_i32(b, 0); /* root */
    gw_i32(b, (int32_t)type_count);
    for (uint32_t t = 0; t < type_count; t++) {
        gw_string(b, types[t].name);
        gw_i32(b, types[t].size);
        gw_string(b, t ? "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/System.Private.CoreLib.dll"
                       : NULL);
    }
    gw_i32(b, (int32_t)node_count);
    for (uint32_t i = 0; i < node_count; i++)
        gw_i32(b, (int32_t)offset[i]);
    gw_i32(b, (int32_t)blob_len);
    put(b, blob, blob_len);
    gw_i32(b, (int32_t)node_count);
    for (uint32_t i = 0; i < node_count; i++)
        gw_i64(b, (int64_t)address[i]);
    gw_u8(b, 0x08); /* tagged Is64Bit */
    gw_u8(b, 1);
    gw_u8(b, 0x06);
}

static void dump_head(gw_buf *b, int32_t version)
{
    put(b, "\x14\0\0\0!FastSerialization.1", 24);
    gw_u8(b, 0x04);
    type_record(b, "GCHeapDump", version, 8);
}

/* The GCHeapDump fields after the graph, its end, the forward-reference
 * table and the trailer. */
static void dump_tail(gw_buf *b)
{
    gw_u8(b, 1);           /* Is64Bit */
    gw_i32(b, 0x3f800000); /* AverageCountMultiplier 1.0f */
    gw_i32(b, 0x3f800000); /* AverageSizeMultiplier 1.0f */
    gw_u8(b, 0x01);        /* JSHeapInfo */
    gw_u8(b, 0x01);        /* DotNetHeapInfo */
    gw_string(b, NULL);    /* CollectionLog */
    gw_i64(b, b->time_collected); /* TimeCollected */
    gw_string(b, NULL);    /* MachineName */
    gw_string(b, NULL);    /* ProcessName */
    gw_i32(b, 0);
    gw_i64(b, 0);
    gw_i64(b, 0);
    gw_i32(b, 0);   /* CountMultipliersByType */
    gw_u8(b, 0x0c); /* InteropInfo, tagged: forward reference 0 to just after it */
    gw_i32(b, 0);
    gw_u8(b, 0x01);
    uint32_t after_interop = (uint32_t)b->len;
    gw_u8(b, 0x0d);
    gw_string(b, "leakfind tests");
    gw_u8(b, 0x06); /* end of GCHeapDump */
    gw_u8(b, 0x06); /* end of the objects */
    uint32_t table = (uint32_t)b->len;
    gw_i32(b, 1);
    gw_i32(b, (int32_t)after_interop);
    uint32_t trailer = (uint32_t)b->len;
    gw_i32(b, (int32_t)table);
    gw_i32(b, (int32_t)trailer);
}

int gw_write_graph_parts(gw_buf *b, const gw_type *types, uint32_t type_count, uint32_t node_count,
                         const uint32_t *offset, const uint8_t *blob, size_t blob_len, const uint64_t *address,
                         int64_t total_size)
{
    dump_head(b, 10);
    graph_object(b, types, type_count, node_count, offset, blob, blob_len, address, total_size);
    dump_tail(b);
    return b->failed ? -1 : 0;
}

int gw_write_dump(gw_buf *b, int32_t version, const gw_type *types, uint32_t type_count,
                  const gw_node *nodes, uint32_t node_count, int64_t total_size)
{
    gw_buf blob = {0};
    uint32_t *offset = calloc(node_count + 1, sizeof *offset);
    uint64_t *address = calloc(node_count + 1, sizeof *address);
    int64_t sum = 0;
    for (uint32_t i = 0; i < node_count && offset && address; i++) {
        const gw_node *n = &nodes[i];
        int32_t size = n->size >= 0 ? n->size : types[n->type].size;
        offset[i] = (uint32_t)blob.len;
        address[i] = n->address;
        gw_cint(&blob, (int32_t)(n->type << 1 | (size != types[n->type].size)));
        if (size != types[n->type].size)
            gw_cint(&blob, size);
        gw_cint(&blob, (int32_t)n->child_count);
        for (uint32_t k = 0; k < n->child_count; k++)
            gw_cint(&blob, (int32_t)n->child[k] - (int32_t)i);
        sum += size;
    }
    if (!offset || !address || blob.failed) {
        b->failed = 1;
    } else {
        dump_head(b, version);
        graph_object(b, types, type_count, node_count, offset, blob.data, blob.len, address,
                     total_size >= 0 ? total_size : sum);
        dump_tail(b);
    }
    gw_free(&blob);
    free(offset);
    free(address);
    return b->failed ? -1 : 0;
}

void gw_free(gw_buf *b)
{
    free(b->data);
    *b = (gw_buf){0};
}
