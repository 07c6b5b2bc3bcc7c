/* snapshot.h - the snapshot model every reader produces and every command reads.
 *
 * Struct of arrays over node numbers (see graph/graph.h). Arrays either point
 * into a memory-mapped leakfind file or into memory the snapshot owns.
 * Index spaces: "node" (objects), "edge", "class", "string", "root".
 */
#ifndef LF_SNAPSHOT_H
#define LF_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "../../graph/graph.h"
#include "../../graph/sizes.h"
#include "../base/error.h"

typedef enum lf_source_format {
    LF_FORMAT_UNKNOWN = 0,
    LF_FORMAT_TEXT = 1,      /* leakfind text graph */
    LF_FORMAT_LFS = 2,       /* leakfind snapshot */
    LF_FORMAT_HPROF = 3,
    LF_FORMAT_V8 = 4,
    LF_FORMAT_GCDUMP = 5,    /* .NET heap dump (docs/DOTNET.md) */
    LF_FORMAT_MEMTRACE = 6,  /* Memtrace allocation trace: no snapshot, read by core/memtrace (docs/MEMTRACE.md) */
} lf_source_format;

/* How an edge's label is to be read. */
typedef enum lf_edge_kind {
    LF_EDGE_KIND_NONE = 0,     /* no label */
    LF_EDGE_KIND_FIELD = 1,    /* label: field name (string index) */
    LF_EDGE_KIND_ELEMENT = 2,  /* label: array index */
    LF_EDGE_KIND_INTERNAL = 3, /* label: a name for a VM link, e.g. "<class>" (string index) */
    LF_EDGE_KIND_COUNT
} lf_edge_kind;

enum {
    LF_SNAP_IDS_STABLE = 1u << 0, /* object ids identify one object across snapshots */
    LF_SNAP_IDS_AT = 1u << 1,     /* print ids as @N (V8) rather than 0x hex */
    LF_SNAP_IDS_SORTED = 1u << 2, /* object ids increase with the node number */
    /* Objects no root reaches are each their own top-level entry holding only
     * themselves (Chrome DevTools' rule for V8), not left out as garbage. */
    LF_SNAP_UNREACHED_ALONE = 1u << 3,
    /* Objects of size 0 are left out of per-class counts, as DevTools'
     * Summary and Comparison views leave them out (V8: arrays whose size
     * went to their owner). */
    LF_SNAP_EMPTY_UNCOUNTED = 1u << 4,
    /* Read from a dump that was cut off (--partial): stats.cut_at says where. */
    LF_SNAP_PARTIAL = 1u << 5,
    /* The dump names no fields (.gcdump): where a field would be shown, say
     * that the format has none rather than show an empty column. */
    LF_SNAP_NO_FIELD_NAMES = 1u << 6,
};

struct lf_snapshot;

/* Fields a reader may leave out of memory (object_id, edge_kind and
 * edge_label NULL) and decode on demand from the dump it keeps mapped: on a
 * JVM dump they are a third of the snapshot and only output reads them. */
typedef struct lf_lazy_fields {
    const void *ctx;
    uint64_t (*object_id)(const void *ctx, uint32_t node);
    /* Kinds and labels of node's edges from its first up to (not including)
     * edge `end`, into kind[0..] and label[0..]. */
    void (*node_edges)(const void *ctx, const struct lf_snapshot *s, uint32_t node, uint64_t end,
                       uint8_t *kind, uint32_t *label);
    /* Optional: kinds and labels of any edges [first, end), for a reader
     * that can start anywhere (V8); single edges and whole snapshots are
     * then decoded through it. */
    void (*edge_range)(const void *ctx, uint64_t first, uint64_t end, uint8_t *kind, uint32_t *label);
    /* Optional: the source's own types of edges [first, end) (see
     * lf_snapshot.edge_type), for a reader that keeps them in the dump. */
    void (*edge_types)(const void *ctx, uint64_t first, uint64_t end, uint8_t *type);
} lf_lazy_fields;

typedef struct lf_root {
    uint32_t node;      /* node space */
    uint32_t kind;      /* string index: "static field", "thread", "JNI global", ... */
    uint32_t name;      /* string index: what the root is called, may be "" */
    uint32_t reserved;
} lf_root;

/* One call of an allocation stack (DESIGN 10). Strings are snapshot strings. */
typedef struct lf_frame {
    uint32_t function;  /* string: the function's name, "" when unknown */
    uint32_t file;      /* string: its script or source file, "" when unknown */
    uint32_t line;      /* 1-based; 0: unknown */
    uint32_t column;    /* 1-based; 0: unknown */
} lf_frame;

/* An allocation stack, as a node of the call tree: its innermost frame and
 * the site of the rest of the stack (its caller). Site 0 is "no site": the
 * object's allocation was not recorded. A caller is always a smaller site
 * number, so walking callers ends. */
typedef struct lf_site {
    uint32_t frame;     /* frame space */
    uint32_t caller;    /* site space; 0: this frame is the outermost */
} lf_site;

#define LF_SITE_NONE 0u

/* Where in the source an object was defined (V8's "locations": a
 * closure's function). Strings are snapshot strings; line and
 * column are 0-based as V8 writes them (shown 1-based, as DevTools does). */
/* Stored as is in an .lfs (PLAC): five u32, no padding. */
typedef struct lf_place {
    uint32_t node;      /* node space */
    uint32_t name;      /* string: the function's name, "" when anonymous */
    uint32_t script;    /* string: its script's name, or "script <id>" when unknown */
    uint32_t line;
    uint32_t column;
} lf_place;
_Static_assert(sizeof(lf_place) == 20, "lf_place is PLAC's entry");

/* A string object's text, kept in the snapshot where the dump cannot be
 * read again (a .NET core through the .NET agent: FORMAT 1.6's STXT).
 * Stored as is in an .lfs: four u32, no padding. */
typedef struct lf_object_text {
    uint32_t node;      /* node space */
    uint32_t text;      /* string: the text as UTF-8, at most its first 1,024 characters */
    uint32_t chars;     /* characters of the whole text (UTF-16 units for .NET) */
    uint32_t reserved;  /* 0 */
} lf_object_text;
_Static_assert(sizeof(lf_object_text) == 16, "lf_object_text is STXT's entry");

typedef struct lf_snapshot_stats {
    uint64_t dangling_edges;   /* edges naming an id with no object */
    uint64_t dangling_roots;   /* roots naming an id with no object */
    uint64_t warnings;         /* other recoverable oddities */
    /* LF_SNAP_PARTIAL: the byte offset (in the uncompressed dump) where the
     * part that was read ends, and how many more bytes the record cut there
     * declared (0: not known). A cut gzip stream adds its own cut below. */
    uint64_t cut_at;
    uint64_t cut_missing;
    uint64_t gzip_cut_at;      /* compressed offset where a cut gzip stream ends, 0: none */
    /* Edges that carry LF_EDGE_WEAK although the dump does not call them
     * weak: V8's self edges, shortcuts, WeakMap table -> value edges and
     * edges into the page from outside it, which DevTools' rules leave out
     * of retention. The other weak edges are weak by the dump's own word. */
    uint64_t non_owning_edges;
    /* Where the dangling edges come from (HPROF): the objects holding them,
     * the one holding the most (node + 1; 0: none) and its count, and how
     * many the VM always writes (HotSpot: elements of an object array a JNI
     * global holds), which are no sign of a damaged dump. */
    uint64_t dangling_holders;
    uint64_t dangling_top_holder;
    uint64_t dangling_top_count;
    uint64_t dangling_expected;
} lf_snapshot_stats;

/* When a dump was taken, to put a series of them in order (DESIGN 15):
 * a wall clock where the format has one, else a count that only grows
 * within one process (V8 numbers heap objects as its profiler first meets
 * them). Two clocks compare only when of the same kind. */
typedef enum lf_clock_kind {
    LF_CLOCK_NONE = 0,    /* the dump does not say (text graphs, older .lfs) */
    LF_CLOCK_WALL_MS = 1, /* milliseconds since 1970 (HPROF header, .gcdump, .lfs) */
    LF_CLOCK_V8_IDS = 2,  /* the largest id of a heap object (V8) */
} lf_clock_kind;

typedef struct lf_clock {
    lf_clock_kind kind;
    uint64_t value;
} lf_clock;

/* What a cached analysis was made from (cache.h): all zero when not a cache. */
typedef struct lf_source_key {
    uint64_t size;       /* bytes of the dump */
    uint64_t mtime_ns;   /* its modification time */
    uint64_t hash;       /* XXH3 of its first and last MiB */
    uint64_t options;    /* read options and the cache generation */
} lf_source_key;

typedef struct lf_snapshot {
    lf_source_format format;          /* the file that was read */
    lf_source_format source_format;   /* what produced the graph (a converted file keeps it) */
    uint32_t flags;                   /* LF_SNAP_* */
    uint32_t object_count;
    uint64_t edge_count;
    uint32_t class_count;
    uint32_t root_count;
    uint32_t string_count;

    const uint64_t *object_id;        /* node -> id in the source; NULL: see lazy */
    const uint32_t *object_class;     /* node -> class */
    lf_sizes object_shallow;          /* node -> bytes: read with lf_snapshot_shallow */
    lf_edge_offsets edge_offset;      /* node -> first edge; object_count+1 entries */
    const uint32_t *edge_target;      /* edge -> node | LF_EDGE_WEAK */
    const uint32_t *edge_label;       /* edge -> string index or element index; NULL: lazy */
    const uint8_t *edge_kind;         /* edge -> lf_edge_kind; NULL: lazy */
    const lf_lazy_fields *lazy;       /* set when any of the three above is NULL */
    /* edge -> the source's own edge type, finer than edge_kind (V8:
     * LF_V8E_*, "property" or "weak" where edge_kind says field). NULL when
     * the reader keeps none in memory: read through lf_snapshot_edge_types. */
    const uint8_t *edge_type;
    const uint32_t *class_name;       /* class -> string index */
    /* class -> node of the class loader that defined it, LF_NODE_NONE for
     * the bootstrap loader (or one not in the dump); NULL when the format
     * has no loaders (V8, text graphs). Same-named classes of two loaders
     * are two classes. */
    const uint32_t *class_loader;
    const lf_root *root;              /* root -> lf_root */
    const uint64_t *string_offset;    /* string -> start in string_bytes; string_count+1 */
    const char *string_bytes;

    /* Names of particular objects, shown in place of their class: a class
     * object is "class com.acme.Foo" (its class is java.lang.Class). Sorted by
     * node, strictly increasing. */
    uint32_t named_count;
    const uint32_t *named_node;
    const uint32_t *named_string;

    /* Source places (lf_place), sorted by node, strictly increasing; 0
     * and NULL when the dump has none. */
    uint32_t place_count;
    const lf_place *place;

    /* String objects' texts (lf_object_text), sorted by node, strictly
     * increasing; 0 and NULL when the snapshot keeps none (it reads them
     * from the dump, or has none). */
    uint32_t text_count;
    const lf_object_text *text;

    /* Allocation sites (DESIGN 10): object_site is NULL when the dump has
     * none. frame_count and site_count include entry 0 (unused / no site). */
    uint32_t frame_count;
    uint32_t site_count;
    const lf_frame *frame;            /* frame -> lf_frame */
    const lf_site *site;              /* site -> lf_site */
    const uint32_t *object_site;      /* node -> site (LF_SITE_NONE: not recorded) */
    /* Sampled allocations (OCaml's Gc.Memprof): the samples that fell in
     * each object, NULL when every allocation was recorded. */
    const uint32_t *object_samples;
    double sample_rate;               /* samples per word allocated, 0: not sampled */

    /* Analysis, present when computed or stored in the file (else NULL). */
    const uint32_t *idom;             /* node -> node, LF_NODE_SUPER, LF_NODE_NONE */
    lf_sizes retained;                /* node -> bytes: lf_snapshot_retained; narrow NULL: absent */
    const uint32_t *domtree_offset;   /* slot -> first child; object_count+2 entries */
    const uint32_t *domtree_child;    /* dominator-tree children, largest first */
    uint32_t reachable_count;
    uint64_t reachable_shallow;
    unsigned analysis_flags;          /* LF_DOM_* the analysis was made with */
    /* class -> what analysis derives from its name (class_kinds.c), kept
     * as asked, from any thread: 0 not asked yet. NULL: derived at each
     * question. Views ask it of millions of objects of a few classes. */
    uint16_t *class_kind_memo;
    uint32_t class_kind_memo_count;

    lf_snapshot_stats stats;
    lf_source_key source_key;
    lf_clock clock;                   /* when the dump was taken, if it says */
    /* A sentence from the reader about the dump as a whole that a user
     * should see ("10,000,000 nodes, dotnet-gcdump's limit: ..."), "" when
     * none; not kept in an .lfs. */
    char reader_note[200];

    /* Ownership. */
    void *map;
    size_t map_size;
    void *owned[48];
    unsigned owned_count;
} lf_snapshot;

typedef struct lf_str {
    const char *ptr;
    size_t len;
} lf_str;

/* A string by index; an out-of-range index (from a corrupt file) gives "?". */
lf_str lf_snapshot_string(const lf_snapshot *s, uint32_t index);
lf_str lf_snapshot_class_name(const lf_snapshot *s, uint32_t class_index);
lf_graph lf_snapshot_graph(const lf_snapshot *s);
/* Takes ownership of p (freed with the snapshot). Returns p, or NULL if full. */
void *lf_snapshot_own(lf_snapshot *s, void *p);
void lf_snapshot_free(lf_snapshot *s);

/* Finds the node of an object id; LF_NODE_NONE if absent. A binary search
 * when ids are sorted, else a linear scan: for user queries, not for
 * resolving references. */
uint32_t lf_snapshot_find_id(const lf_snapshot *s, uint64_t id);
uint64_t lf_snapshot_object_id(const lf_snapshot *s, uint32_t node);
/* An edge's kind (lf_edge_kind) and raw label (string or element index).
 * Returns 0, or -1 when there was no memory to decode it (kind NONE). */
int lf_snapshot_edge_info(const lf_snapshot *s, uint64_t edge, uint8_t *kind, uint32_t *label);
/* Kinds and labels of all of node's edges into kind[0..] and label[0..]
 * (room for lf_snapshot_edges_end - lf_snapshot_edges_begin): one decoding
 * for the lot where single lf_snapshot_edge_info calls would each start
 * over. */
void lf_snapshot_node_edge_infos(const lf_snapshot *s, uint32_t node, uint8_t *kind, uint32_t *label);
/* The source's types of edges [first, end) into type[0..]; 0 when the
 * snapshot has none (only V8 snapshots and files converted from them do). */
int lf_snapshot_edge_types(const lf_snapshot *s, uint64_t first, uint64_t end, uint8_t *type);
/* Decodes every lazily kept field into new arrays the caller frees (NULL for
 * a field that is in memory already), for writers that need them all.
 * Returns 0 or -1 (memory). */
int lf_snapshot_decode_lazy(const lf_snapshot *s, uint64_t **ids, uint8_t **kinds, uint32_t **labels);


/* Where node's edges begin and end (edge space). */
static inline uint64_t lf_snapshot_edges_begin(const lf_snapshot *s, uint32_t node)
{
    return lf_edge_offset_at(s->edge_offset, node);
}

static inline uint64_t lf_snapshot_edges_end(const lf_snapshot *s, uint32_t node)
{
    return lf_edge_offset_at(s->edge_offset, (uint64_t)node + 1);
}

/* An object's own bytes, and the bytes it retains (needs the analysis). */
static inline uint64_t lf_snapshot_shallow(const lf_snapshot *s, uint32_t node)
{
    return lf_sizes_get(&s->object_shallow, node);
}

static inline uint64_t lf_snapshot_retained(const lf_snapshot *s, uint32_t node)
{
    return lf_sizes_get(&s->retained, node);
}

static inline int lf_snapshot_has_retained(const lf_snapshot *s)
{
    return s->retained.narrow != NULL;
}

/* Whether an object counts in per-class statistics (see LF_SNAP_EMPTY_UNCOUNTED). */
static inline int lf_snapshot_counted(const lf_snapshot *s, uint32_t node)
{
    /* a zero narrow value is a zero size: no table lookup */
    return !(s->flags & LF_SNAP_EMPTY_UNCOUNTED) || s->object_shallow.narrow[node] != 0;
}

/* What to call an object for people: its own name when it has one ("class
 * com.acme.Foo"), else its class's name. */
lf_str lf_snapshot_object_label(const lf_snapshot *s, uint32_t node);
/* The index of node among the named objects, UINT32_MAX when it has no name. */
uint32_t lf_snapshot_named_index(const lf_snapshot *s, uint32_t node);

/* node's source place, NULL when it has none (a binary search). */
const lf_place *lf_snapshot_place(const lf_snapshot *s, uint32_t node);
/* node's kept text (lf_object_text), NULL when it has none (a binary search). */
const lf_object_text *lf_snapshot_object_text(const lf_snapshot *s, uint32_t node);

/* The edge from `from` to `to`, a strong one if there is one; UINT64_MAX if none. */
uint64_t lf_snapshot_find_edge(const lf_snapshot *s, uint32_t from, uint32_t to);
/* The object whose edge list holds edge (binary search over the offsets:
 * an object without edges begins where the next one does). */
uint32_t lf_snapshot_edge_source(const lf_snapshot *s, uint64_t edge);
/* An edge's label for people: "next", "[3]", "<class>"; "" when it has none. */
size_t lf_snapshot_edge_label(const lf_snapshot *s, uint64_t edge, char *buf, size_t size);
/* The same from an edge's kind and label (lf_snapshot_edge_info). */
size_t lf_snapshot_label_text(const lf_snapshot *s, uint8_t kind, uint32_t label, char *buf, size_t size);
#endif
