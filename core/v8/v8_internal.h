/* v8_internal.h - the raw snapshot as v8.c reads it, for v8_model.c. */
#ifndef LF_V8_INTERNAL_H
#define LF_V8_INTERNAL_H

#include <stdint.h>

#include "../base/error.h"
#include "../model/snapshot.h"
#include "../model/strtab.h"

#define V8_MAX_FIELDS 16
#define V8_MAX_TYPES 32
/* The reader notes where every V8_ROW_STEP-th edge row starts (v8_lazy.c),
 * and every V8_ROW_STEP-th node row (the names of a few nodes read back:
 * v8_values.c). */
#define V8_ROW_STEP 64

/* Node and edge types, by name (the file lists its own order). */
enum {
    V8N_HIDDEN, V8N_ARRAY, V8N_STRING, V8N_OBJECT, V8N_CODE, V8N_CLOSURE, V8N_REGEXP,
    V8N_NUMBER, V8N_NATIVE, V8N_SYNTHETIC, V8N_CONS_STRING, V8N_SLICED_STRING, V8N_SYMBOL,
    V8N_BIGINT, V8N_OBJECT_SHAPE, V8N_OTHER
};
enum {
    V8E_CONTEXT, V8E_ELEMENT, V8E_PROPERTY, V8E_INTERNAL, V8E_HIDDEN, V8E_SHORTCUT, V8E_WEAK,
    V8E_OTHER
};

/* The table's string 0 is "": the file's strings follow it. */
#define V8_STRING_BASE 1u

typedef struct v8_raw {
    uint32_t node_count;
    uint64_t edge_count;
    /* node space (ordinals) */
    /* One byte a node: the file's type index (bits 0-4: the file lists at
     * most V8_MAX_TYPES types) and DevTools' DOMLinkState (bits 5-6);
     * v8_node_kind gives the V8N_* kind. */
    uint8_t *node_type;
    uint32_t *node_name;       /* string index */
    uint32_t *node_id;         /* V8's ids are 32-bit */
    uint64_t *node_size;
    lf_edge_offsets_mut edge_offset; /* node_count + 1: edge counts, then offsets */
    /* edge space */
    /* One word an edge: its V8E_* kind in the top bits, its name (a file
     * string index: property, internal, context... edges) below, or
     * V8_NAME_FAR for a name too big for those bits, read back from the
     * file then (v8_edge_name). Element and hidden edges' indices matter to
     * output only, which reads them back (v8_lazy.c). */
    uint32_t *edge_word;
    uint32_t *edge_target;     /* node ordinal */
    uint32_t edge_name_max;    /* no edge looks up a string past it (v8.c: array_job) */
    uint64_t *edge_row_at;     /* edge / V8_ROW_STEP -> file offset of that row's first value */
    uint64_t *node_row_at;     /* node / V8_ROW_STEP -> the same for nodes */
    /* For the names read back: the mapped file and the edge rows' layout. */
    const uint8_t *file;
    uint64_t file_size;
    unsigned edge_fields, edge_name_field;
    uint32_t name_cut;         /* a cut snapshot's placeholder for names past it; else UINT32_MAX */
    /* The file's strings, in its order and not interned (V8 writes each
     * once): file string k is table string V8_STRING_BASE + k. Strings the
     * model adds are interned; lf_strtab_canonical makes equal names one
     * class where that matters. */
    lf_strtab strings;
    uint32_t string_count;     /* the file's */
    char *type_names[32];      /* node type names from meta, "(type)" classes */
    unsigned type_count;
    uint8_t type_kind[V8_MAX_TYPES]; /* the file's node type index -> V8N_* */
    int have_detached;         /* the nodes have the detachedness field */
    uint32_t root_ordinal;
    /* Allocation tracking (v8_trace.c): node -> trace node id, NULL unless
     * the header announces trace functions and nodes have the field. */
    uint32_t *node_trace;
    struct v8_trace *trace;
    struct v8_places *places;  /* "locations" as read (v8_places.c) */
} v8_raw;

/* Where node v's edges begin and end (edge space), once counts are offsets. */
static inline uint64_t v8_edges_begin(const v8_raw *raw, uint32_t v)
{
    return lf_edge_offsets_get(&raw->edge_offset, v);
}

static inline uint64_t v8_edges_end(const v8_raw *raw, uint32_t v)
{
    return lf_edge_offsets_get(&raw->edge_offset, (uint64_t)v + 1);
}

#define V8_NODE_TYPE_MASK 31u
#define V8_NODE_DOM_SHIFT 5
static inline uint8_t v8_node_kind(const v8_raw *raw, uint32_t v)
{
    return raw->type_kind[raw->node_type[v] & V8_NODE_TYPE_MASK];
}
static inline unsigned v8_node_type_index(const v8_raw *raw, uint32_t v)
{
    return raw->node_type[v] & V8_NODE_TYPE_MASK;
}
static inline unsigned v8_node_dom_state(const v8_raw *raw, uint32_t v)
{
    return raw->node_type[v] >> V8_NODE_DOM_SHIFT;
}

#define V8_EDGE_KIND_SHIFT 29
#define V8_NAME_FAR ((1u << V8_EDGE_KIND_SHIFT) - 1)
_Static_assert(V8E_OTHER < 1u << (32 - V8_EDGE_KIND_SHIFT), "edge kinds fit above the name bits");
static inline uint8_t v8_edge_kind(const v8_raw *raw, uint64_t e)
{
    return (uint8_t)(raw->edge_word[e] >> V8_EDGE_KIND_SHIFT);
}
/* v8_lazy.c: the name of edge e read back from the file (its word says V8_NAME_FAR). */
uint32_t v8_edge_name_far(const v8_raw *raw, uint64_t e);
/* Edge e's name: a file string index (not for element and hidden edges). */
static inline uint32_t v8_edge_name(const v8_raw *raw, uint64_t e)
{
    uint32_t name = raw->edge_word[e] & V8_NAME_FAR;
    return name != V8_NAME_FAR ? name : v8_edge_name_far(raw, e);
}

/* The table index of the first of the file's strings with these bytes, or -1
 * (a scan: for the few names the model looks for). */
int64_t v8_file_string(const v8_raw *raw, const char *s, size_t len);
/* v8_lazy.c: edge kinds and labels decoded from the mapped file on demand. */
typedef struct v8_lazy {
    lf_lazy_fields lazy;        /* what the snapshot calls */
    const uint8_t *data;        /* the file, mapped as long as the snapshot */
    uint64_t size;
    const uint64_t *row_at;     /* edge / V8_ROW_STEP -> offset of that row */
    const uint32_t *object_id;  /* node -> id, owned by the snapshot */
    unsigned fields, type_field, name_field, type_count;
    uint8_t type_kind[V8_MAX_TYPES]; /* the file's edge type -> V8E_* */
    uint32_t string_count;      /* the file's strings that were read */
    uint32_t missing_name;      /* label of names past them (a cut file) */
    /* The nodes array, for the names of a few nodes (v8_values.c). */
    uint64_t nodes_at;          /* offset of its key: the numbers follow */
    const uint64_t *node_row_at; /* node / V8_ROW_STEP -> offset of that row (0: not read) */
    unsigned node_fields, node_type_field, node_name_field, node_type_count;
    uint8_t node_type_kind[V8_MAX_TYPES]; /* the file's node type -> V8N_* */
} v8_lazy;
/* Whether f is this decoder's (f->ctx is then a v8_lazy). */
int v8_lazy_is(const lf_lazy_fields *f);
void v8_lazy_init(v8_lazy *l);
/* The next number at or after *p in a checked numbers array; *p moves past it. */
uint64_t v8_next_number(const uint8_t *d, uint64_t end, uint64_t *p);
void v8_lazy_edge_range(const v8_lazy *l, uint64_t first, uint64_t end, uint8_t *kind, uint32_t *label);
/* Edge rows read back from the file: start at the noted row at or before
 * `first` and read row after row (value[] gets the row's fields). */
typedef struct v8_row_cursor {
    uint64_t row, at;
} v8_row_cursor;
static inline v8_row_cursor v8_rows_from(const v8_lazy *l, uint64_t first)
{
    uint64_t row = first & ~(uint64_t)(V8_ROW_STEP - 1);
    return (v8_row_cursor){row, l->row_at[row / V8_ROW_STEP]};
}
static inline void v8_rows_next(const v8_lazy *l, v8_row_cursor *c, uint64_t *value)
{
    for (unsigned f = 0; f < l->fields; f++)
        value[f] = v8_next_number(l->data, l->size, &c->at);
    c->row++;
}

/* v8_trace.c: allocation stacks (snapshots written with allocation
 * tracking): the trace tree and its function infos, read as they come and
 * resolved into sites once the strings are known. */
enum { V8T_SKIP, V8T_ID, V8T_INFO, V8T_CHILDREN, V8T_NAME, V8T_SCRIPT, V8T_LINE, V8T_COLUMN };
typedef struct v8_trace_node {
    uint32_t id;          /* the file's trace node id */
    uint32_t info;        /* function info index, as written (checked when resolved) */
    uint32_t parent;      /* trace node row + 1; 0: a top-level node (V8's root, not a frame) */
    uint64_t info_at;     /* byte offset of the function index, for messages */
} v8_trace_node;
typedef struct v8_trace {
    unsigned info_fields, node_fields;              /* from snapshot.meta; 0: not given */
    uint8_t info_kind[V8_MAX_FIELDS], node_kind[V8_MAX_FIELDS];
    uint32_t *info;       /* 4 per function: name, script (file strings), line, column */
    size_t info_count, info_cap;
    uint64_t infos_at;
    v8_trace_node *node;  /* in file order: a parent before its children */
    size_t node_count, node_cap;
    int have_infos, have_tree;
} v8_trace;
void v8_trace_free(v8_trace *t);
/* The kind of field i of trace_function_info_fields / trace_node_fields. */
void v8_trace_info_field(v8_trace *t, unsigned i, const char *name, size_t len);
void v8_trace_node_field(v8_trace *t, unsigned i, const char *name, size_t len);
/* The arrays "trace_function_infos" and "trace_tree", j at their values. */
struct lf_json;
int v8_trace_read_infos(struct lf_json *j, v8_trace *t);
int v8_trace_read_tree(struct lf_json *j, v8_trace *t);
/* Sites for out from the trace data; raw->node_trace becomes out's
 * object_site. file_strings: the file's strings read; cut: the index of the
 * "(name cut off)" placeholder for names past them, or UINT32_MAX. */
int v8_trace_sites(v8_raw *raw, uint32_t file_strings, uint32_t cut, struct lf_snapshot *out, lf_error *err);

/* v8_places.c: "locations", the places closures' functions were defined
 * at, read as they come (after the nodes: the node count and width check
 * every entry) and named once the edges are known. */
enum { V8L_SKIP, V8L_OBJECT, V8L_SCRIPT, V8L_LINE, V8L_COLUMN };
typedef struct v8_loc {
    uint32_t node;        /* ordinal, checked */
    uint32_t script_id, line, column; /* a node's first entry in the file wins */
} v8_loc;
typedef struct v8_places {
    unsigned fields;      /* from snapshot.meta.location_fields; 0: not given */
    uint8_t kind[V8_MAX_FIELDS];
    v8_loc *loc;
    size_t count, cap;
    int have;
    uint8_t *located;     /* node -> bit: an object with an entry (its constructor's place) */
} v8_places;
void v8_places_free(v8_places *p);
void v8_places_field(v8_places *p, unsigned i, const char *name, size_t len);
/* After the nodes (their types choose the entries kept: closures'). */
int v8_places_read(struct lf_json *j, v8_places *p, const v8_raw *raw, unsigned node_fields);
/* The places by node (lf_place: names are table strings), after
 * rebase_node_names and before class names replace the node names; NULL and
 * 0 when there are none. */
int v8_places_resolve(v8_raw *raw, v8_places *p, lf_place **out, uint32_t *count, lf_error *err);

/* v8_clock.c: the order of snapshots of one process. V8 numbers a heap
 * object when its profiler first meets it, so the largest heap-object id
 * grows from one snapshot to the next; native and synthetic nodes have ids
 * of their own (hashes, fixed numbers) and are left out. */
lf_clock v8_clock_of(const v8_raw *raw);
/* What a scan of the nodes array needs, from a snapshot's first bytes: where
 * the values start, the row's width, which fields are the id and the type,
 * and which type numbers are heap objects (bit t). v8.c. */
typedef struct v8_nodes_layout {
    uint64_t values_at;
    unsigned fields, id_field, type_field;
    uint32_t heap_types;
} v8_nodes_layout;
/* 0, or -1 with err set (err->truncated: the head ends too early). */
int v8_probe_nodes(const uint8_t *head, uint64_t len, v8_nodes_layout *out, lf_error *err);

/* v8_model.c: DevTools' semantics on a raw snapshot, into a snapshot. */
struct lf_snapshot;
int v8_build_snapshot(v8_raw *raw, unsigned threads, struct lf_snapshot *out, lf_error *err);
/* v8_interfaces.c: plain objects named by shape ("{a, b}"), in class_string. */
int v8_infer_interfaces(v8_raw *raw, uint32_t *class_string, lf_error *err);

#endif
