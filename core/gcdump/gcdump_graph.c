/* gcdump_graph.c - the MemoryGraph object of a .gcdump (docs/DOTNET.md,
 * "The file"): its type table is read into memory, its node offsets, node
 * records and addresses are used where they sit in the mapped file. A node's
 * record: a compressed (type << 1 | has-size), the size if that bit is set,
 * the child count, and each child as a signed delta from the node's index. */
#include "gcdump_internal.h"

#include <stdlib.h>
#include <string.h>

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_types(fs_cursor *c, gc_graph *g, lf_error *err)
{
    /* a type: a name (4 bytes at least), its size, a module name */
    if (fs_count(c, 12, &g->type_count, "the type table", err))
        return -1;
    g->type = calloc((size_t)g->type_count + 1, sizeof *g->type);
    if (!g->type)
        return lf_fail_nomem(err, "the .gcdump type table");
    fs_string name = {0};
    for (uint32_t t = 0; t < g->type_count; t++) {
        if (fs_read_string(c, &name, "a type's name", err) ||
            fs_i32(c, &g->type[t].size, "a type's size", err) ||
            fs_skip_string(c, "a type's module", err)) {
            fs_string_free(&name);
            return -1;
        }
        g->type[t].name = strdup(name.is_null ? "" : name.text);
        if (!g->type[t].name) {
            fs_string_free(&name);
            return lf_fail_nomem(err, "the .gcdump type names");
        }
    }
    fs_string_free(&name);
    return 0;
}

static int read_nodes(fs_cursor *c, gc_graph *g, lf_error *err)
{
    if (fs_count(c, 4, &g->node_count, "the node table", err))
        return -1;
    g->node_offset_at = c->pos;
    g->node_offset = c->data + c->pos;
    c->pos += (uint64_t)g->node_count * 4;
    uint32_t blob_len;
    if (fs_count(c, 1, &blob_len, "the node records", err))
        return -1;
    g->blob_len = blob_len;
    g->blob_at = c->pos;
    g->blob = c->data + c->pos;
    c->pos += blob_len;
    return 0;
}

static int read_addresses(fs_cursor *c, gc_graph *g, lf_error *err)
{
    uint64_t at = c->pos;
    uint32_t count;
    if (fs_count(c, 8, &count, "the node addresses", err))
        return -1;
    if (count != g->node_count)
        return lf_fail_at(err, at, "bad .gcdump", "%u node addresses for %u nodes", count, g->node_count);
    g->address = c->data + c->pos;
    c->pos += (uint64_t)count * 8;
    return 0;
}

int gc_graph_read(fs_cursor *c, const fs_type *graph_type, gc_graph *g, lf_error *err)
{
    memset(g, 0, sizeof *g);
    uint64_t root_at;
    int32_t root;
    g->total_size_at = c->pos;
    if (fs_i64(c, &g->total_size, "the graph's total size", err))
        return -1;
    root_at = c->pos;
    if (fs_i32(c, &root, "the root node", err) || read_types(c, g, err) || read_nodes(c, g, err))
        return -1;
    if (graph_type->min_reader_version >= 1)
        return lf_fail_at(err, c->pos, "unsupported .gcdump",
                          "a graph with deferred types (.NET Native, ProjectN): not read");
    if (read_addresses(c, g, err) || fs_skip_tagged_to_end(c, err))
        return -1;
    if (root < 0 || (uint32_t)root >= g->node_count)
        return lf_fail_at(err, root_at, "bad .gcdump", "root node %d of %u", root, g->node_count);
    g->root = (uint32_t)root;
    return 0;
}

void gc_graph_free(gc_graph *g)
{
    for (uint32_t t = 0; g->type && t < g->type_count; t++)
        free(g->type[t].name);
    free(g->type);
    memset(g, 0, sizeof *g);
}

uint64_t gc_node_address(const gc_graph *g, uint32_t node)
{
    const uint8_t *p = g->address + (size_t)node * 8;
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int gc_type_is_undefined(const gc_graph *g, uint32_t type)
{
    return type == 0 || !strcmp(g->type[type].name, "UNDEFINED");
}

/* A compressed signed integer: 7 bits a byte, the most significant first,
 * the high bit set on every byte but the last; at most 5 bytes. */
static int read_cint(const gc_graph *g, const uint8_t **pp, int32_t *v, const char *what, lf_error *err)
{
    const uint8_t *p = *pp, *end = g->blob + g->blob_len;
    if (p >= end)
        return lf_fail_at(err, g->blob_at + (uint64_t)(p - g->blob), "bad .gcdump",
                          "%s: past the end of the node records", what);
    uint8_t b = *p++;
    uint32_t v32 = (uint32_t)(int32_t)((int8_t)(uint8_t)(b << 1) >> 1); /* 7 bits, sign-extended */
    for (int i = 1; i < 5 && (b & 0x80); i++) {
        if (p >= end)
            return lf_fail_at(err, g->blob_at + (uint64_t)(p - g->blob), "bad .gcdump",
                              "%s: past the end of the node records", what);
        b = *p++;
        v32 = (v32 << 7) + (b & 0x7f);
    }
    if (b & 0x80)
        return lf_fail_at(err, g->blob_at + (uint64_t)(p - g->blob) - 1, "bad .gcdump",
                          "%s: a compressed number longer than 5 bytes", what);
    memcpy(v, &v32, sizeof *v);
    *pp = p;
    return 0;
}

int gc_node_read(const gc_graph *g, uint32_t node, gc_node *out, lf_error *err)
{
    uint32_t off = le32(g->node_offset + (size_t)node * 4);
    if (off >= g->blob_len)
        return lf_fail_at(err, g->node_offset_at + (uint64_t)node * 4, "bad .gcdump",
                          "node %u's record at %u, past the %u bytes of records", node, off, g->blob_len);
    const uint8_t *p = g->blob + off;
    int32_t type_and_flag, size, count;
    if (read_cint(g, &p, &type_and_flag, "a node's type", err))
        return -1;
    uint32_t type = (uint32_t)type_and_flag >> 1;
    if (type_and_flag < 0 || type >= g->type_count)
        return lf_fail_at(err, g->blob_at + off, "bad .gcdump", "node %u of type %d, of %u types", node,
                          type_and_flag >> 1, g->type_count);
    if (type_and_flag & 1) {
        if (read_cint(g, &p, &size, "a node's size", err))
            return -1;
    } else {
        size = g->type[type].size;
    }
    if (read_cint(g, &p, &count, "a node's child count", err))
        return -1;
    if (count < 0 || (uint64_t)count > (uint64_t)(g->blob + g->blob_len - p))
        return lf_fail_at(err, g->blob_at + off, "bad .gcdump", "node %u with %d children, %llu bytes left",
                          node, count, (unsigned long long)(g->blob + g->blob_len - p));
    *out = (gc_node){type, size < 0 ? 0 : size, (uint32_t)count, p};
    return 0;
}

int gc_next_child(const gc_graph *g, uint32_t node, gc_node *n, uint32_t *child, lf_error *err)
{
    uint64_t at = g->blob_at + (uint64_t)(n->p - g->blob);
    int32_t delta;
    if (read_cint(g, &n->p, &delta, "a child", err))
        return -1;
    int64_t c = (int64_t)node + delta;
    if (c < 0 || c >= (int64_t)g->node_count)
        return lf_fail_at(err, at, "bad .gcdump", "node %u's child %lld, of %u nodes", node, (long long)c,
                          g->node_count);
    *child = (uint32_t)c;
    return 0;
}
