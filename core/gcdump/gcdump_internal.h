/* gcdump_internal.h - what the .gcdump reader's files share: the
 * MemoryGraph as it sits in the file (gcdump_graph.c reads it, pointing
 * into the mapped bytes), and the model built from it (gcdump_model.c). */
#ifndef LF_GCDUMP_INTERNAL_H
#define LF_GCDUMP_INTERNAL_H

#include "../base/progress.h"
#include "../model/snapshot.h"
#include "fastser.h"

/* One entry of the graph's type table. */
typedef struct gc_type {
    char *name;    /* UTF-8, as the file has it ("System.Byte[] (Bytes > 1K)", "[static vars]") */
    int32_t size;  /* the size of the first node of this type; a node may say its own */
} gc_type;

typedef struct gc_graph {
    int64_t total_size;       /* the file's sum of node sizes */
    uint64_t total_size_at;   /* its offset, for the message when it is wrong */
    uint32_t root;            /* node index of [.NET Roots] */
    gc_type *type;
    uint32_t type_count;
    uint32_t node_count;
    const uint8_t *node_offset; /* node_count LE u32: each node's record in the blob */
    uint64_t node_offset_at;
    const uint8_t *blob;        /* the node records */
    uint32_t blob_len;
    uint64_t blob_at;
    const uint8_t *address;     /* node_count LE u64 */
} gc_graph;

/* One node's record, decoded; its children are read one by one from p. */
typedef struct gc_node {
    uint32_t type;
    int64_t size;
    uint32_t child_count;
    const uint8_t *p; /* the next child's compressed delta */
} gc_node;

/* Reads the MemoryGraph object's fields (after its type record) and its
 * EndObject. */
int gc_graph_read(fs_cursor *c, const fs_type *graph_type, gc_graph *g, lf_error *err);
void gc_graph_free(gc_graph *g);
uint64_t gc_node_address(const gc_graph *g, uint32_t node);
/* Type 0, or one named UNDEFINED: the type of nodes the collector saw
 * referenced but never described. */
int gc_type_is_undefined(const gc_graph *g, uint32_t type);
/* Decodes node's record; its children are then read with gc_next_child. */
int gc_node_read(const gc_graph *g, uint32_t node, gc_node *out, lf_error *err);
/* The next child of node (a node index), read from n->p. */
int gc_next_child(const gc_graph *g, uint32_t node, gc_node *n, uint32_t *child, lf_error *err);

/* Builds the snapshot from the graph (docs/DOTNET.md, "What a dump holds"). */
int gc_model_build(const gc_graph *g, const lf_progress *progress, lf_snapshot *out, lf_error *err);

#define GC_NO_RANK UINT32_MAX           /* a node that is not an object */
#define GC_DANGLING_ID ((uint64_t)INT64_MAX) /* the builder id of no object */

/* Objects are numbered in node order: a node's number is its index less
 * the nodes before it that are not objects (the synthetic ones and the
 * UNDEFINED ones, a few thousand), kept sorted. */
typedef struct gc_ranks {
    uint32_t *not_object;
    size_t count, cap;
} gc_ranks;

uint32_t gc_rank_of(const gc_ranks *r, uint32_t node);
/* What a reference or root to node names: its object number, GC_DANGLING_ID
 * for an object the collector never described, -1 for nothing. */
int64_t gc_target_id(const gc_graph *g, const gc_ranks *r, uint32_t node);

struct lf_builder;
/* The roots: the objects the synthetic nodes under the root hold, by
 * object number (gcdump_roots.c). */
int gc_roots_add(const gc_graph *g, struct lf_builder *b, const gc_ranks *r, lf_error *err);

#endif
