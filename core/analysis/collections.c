/* collections.c - collection structure and the owners above objects; see
 * collections.h. */
#include "collections.h"

#include <Judy.h>
#include <string.h>

#include "../base/bigmem.h"
#include "class_kinds.h"

/* a bucket's chain is a few cells (Hashtbl resizes at 2 per bucket): a
 * longer chain of 3-field blocks is a program's own list */
enum { OCAML_CHAIN_MAX = 64 };
/* flags[] bits of the build's own: a V8 dictionary, asked once */
enum { NODE_DICTIONARY = 0x40, NODE_ASKED = 0x80 };

/* Whether a node of kind k, dominated by one of kind dk, is a backing
 * store: a reference array in a runtime collection (in V8, any internal
 * array), a runtime collection's inner object that holds its array (.NET's
 * Tables), or an untyped OCaml Hashtbl's bucket array. */
static int store_kinds(const lf_snapshot *s, uint16_t k, uint16_t dk)
{
    return ((k & (CLASS_ARRAY | CLASS_INNER)) && ((dk & CLASS_RUNTIME) || s->source_format == LF_FORMAT_V8)) ||
           ((k & CLASS_BLOCK_POW2) && (dk & CLASS_BLOCK4));
}

int lf_is_backing_store(const lf_snapshot *s, uint32_t v)
{
    uint32_t d = s->idom[v];
    if (d >= s->object_count || s->object_class[v] >= s->class_count || s->object_class[d] >= s->class_count)
        return 0;
    return store_kinds(s, lf_class_kind(s, s->object_class[v]), lf_class_kind(s, s->object_class[d]));
}

/* Whether v, a 3-field block, is a cell of an untyped OCaml Hashtbl: its
 * chain of 3-field dominators starts in a bucket array. The walk up
 * compares class ids only: add_links asks it of every link. */
static int ocaml_cell(const lf_snapshot *s, uint32_t v)
{
    const uint32_t cls = s->object_class[v];
    for (int step = 0; step < OCAML_CHAIN_MAX; step++) {
        uint32_t d = s->idom[v];
        if (d >= s->object_count)
            return 0;
        if (s->object_class[d] != cls)
            return s->object_class[d] < s->class_count &&
                   (lf_class_kind(s, s->object_class[d]) & CLASS_BLOCK_POW2) && lf_is_backing_store(s, d);
        v = d;
    }
    return 0;
}

/* The target of v's strong element [index] that v dominates (an OCaml
 * block's field); LF_NODE_NONE when none. */
static uint32_t owned_element(const lf_snapshot *s, uint32_t v, const uint8_t *kind, const uint32_t *label,
                              uint32_t index)
{
    uint64_t first = lf_snapshot_edges_begin(s, v), end = lf_snapshot_edges_end(s, v);
    for (uint64_t e = first; e < end; e++) {
        uint32_t w = s->edge_target[e];
        if (kind[e - first] == LF_EDGE_KIND_ELEMENT && label[e - first] == index && !lf_edge_is_weak(w) &&
            s->idom[lf_edge_node(w)] == v)
            return lf_edge_node(w);
    }
    return LF_NODE_NONE;
}

/* The target of v's strong field named one of names[0..n) that v
 * dominates; LF_NODE_NONE when none. kind and label: v's edges' own. */
static uint32_t owned_field(const lf_snapshot *s, uint32_t v, const uint8_t *kind, const uint32_t *label,
                            const char *const *names, int n)
{
    uint64_t first = lf_snapshot_edges_begin(s, v), end = lf_snapshot_edges_end(s, v);
    for (uint64_t e = first; e < end; e++) {
        uint32_t w = s->edge_target[e];
        if (kind[e - first] != LF_EDGE_KIND_FIELD || lf_edge_is_weak(w) || s->idom[lf_edge_node(w)] != v)
            continue;
        lf_str name = lf_snapshot_string(s, label[e - first]);
        for (int i = 0; i < n; i++)
            if (lf_name_is(name, names[i]))
                return lf_edge_node(w);
    }
    return LF_NODE_NONE;
}

/* What kind of entry node v is (collections.h: LF_ENTRY_*); *runtime: of
 * the runtime's own collections. One class_kind a question. */
static int entry_shape(const lf_snapshot *s, uint32_t v, int *runtime)
{
    *runtime = 0;
    if (v >= s->object_count || s->object_class[v] >= s->class_count || s->source_format == LF_FORMAT_V8)
        return LF_ENTRY_NONE;
    uint16_t k = lf_class_kind(s, s->object_class[v]);
    if (k & CLASS_BLOCK3)
        return (*runtime = ocaml_cell(s, v)) ? LF_ENTRY_BUCKET : LF_ENTRY_NONE;
    if (!(k & CLASS_ENTRY))
        return LF_ENTRY_NONE;
    *runtime = (k & CLASS_RUNTIME) != 0;
    if (s->source_format == LF_FORMAT_HPROF || !(k & CLASS_RUNTIME))
        return LF_ENTRY_FIELDS;
    lf_str name = lf_snapshot_class_name(s, s->object_class[v]);
    return lf_name_ends_with(name, "Hashtbl.bucketlist") ? LF_ENTRY_BUCKET
           : lf_name_ends_with(name, " list")            ? LF_ENTRY_LIST
                                                 : LF_ENTRY_FIELDS;
}

int lf_entry_shape(const lf_snapshot *s, uint32_t v)
{
    int runtime;
    return entry_shape(s, v, &runtime);
}

int lf_is_map_entry(const lf_snapshot *s, uint32_t v)
{
    return lf_entry_shape(s, v) != LF_ENTRY_NONE;
}

int lf_is_runtime_entry(const lf_snapshot *s, uint32_t v)
{
    int runtime;
    return entry_shape(s, v, &runtime) != LF_ENTRY_NONE && runtime;
}

int lf_is_ocaml_bucket_cell(const lf_snapshot *s, uint32_t v)
{
    return lf_entry_shape(s, v) == LF_ENTRY_BUCKET;
}

/* Of what entry v dominates, the child not of v's class (not the next
 * entry) that retains most: what it holds when its references have no
 * names (a .gcdump's), so its value rather than its key, mostly. */
static uint32_t largest_other(const lf_snapshot *s, uint32_t v)
{
    for (uint32_t i = s->domtree_offset[v]; i < s->domtree_offset[v + 1]; i++)
        if (!lf_same_class_as_dominator(s, s->domtree_child[i], v))
            return s->domtree_child[i]; /* children come largest first */
    return LF_NODE_NONE;
}

uint32_t lf_entry_content_of(const lf_snapshot *s, uint32_t v, int shape)
{
    enum { MAX_FIELDS = 16 }; /* an entry has a handful: hash, key, value, next, links */
    static const char *const value[] = {"value", "val", "item", "_value", "_item"}, *const key[] = {"key", "_key"};
    if (shape == LF_ENTRY_NONE)
        return LF_NODE_NONE;
    uint64_t edges = lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v);
    if (edges == 0 || edges > MAX_FIELDS)
        return LF_NODE_NONE;
    uint8_t kind[MAX_FIELDS];
    uint32_t label[MAX_FIELDS];
    lf_snapshot_node_edge_infos(s, v, kind, label);
    if (shape == LF_ENTRY_BUCKET) { /* {key; data; next}: its data, else its key */
        uint32_t data = owned_element(s, v, kind, label, 1);
        return data != LF_NODE_NONE ? data : owned_element(s, v, kind, label, 0);
    }
    if (shape == LF_ENTRY_LIST) /* {head; tail} */
        return owned_element(s, v, kind, label, 0);
    uint32_t held = owned_field(s, v, kind, label, value, 5);
    if (held == LF_NODE_NONE)
        held = owned_field(s, v, kind, label, key, 2);
    return held != LF_NODE_NONE || kind[0] != LF_EDGE_KIND_NONE ? held : largest_other(s, v);
}

uint32_t lf_entry_content(const lf_snapshot *s, uint32_t v)
{
    return lf_entry_content_of(s, v, lf_entry_shape(s, v));
}

int lf_is_v8_dictionary(const lf_snapshot *s, uint32_t v)
{
    enum { MIN_PROPERTIES = 8, BYTES_PER_ENTRY = 24 };
    if (s->source_format != LF_FORMAT_V8 || v >= s->object_count || s->object_class[v] >= s->class_count)
        return 0;
    lf_str name = lf_snapshot_class_name(s, s->object_class[v]);
    uint64_t self = lf_snapshot_shallow(s, v);
    if (!lf_name_is(name, "Object") || self < MIN_PROPERTIES * BYTES_PER_ENTRY)
        return 0;
    uint64_t properties = 0;
    for (uint64_t e = lf_snapshot_edges_begin(s, v); e < lf_snapshot_edges_end(s, v); e++) {
        uint8_t kind;
        uint32_t label;
        lf_snapshot_edge_info(s, e, &kind, &label);
        properties += kind == LF_EDGE_KIND_FIELD;
    }
    return properties >= MIN_PROPERTIES && self >= properties * BYTES_PER_ENTRY;
}

int lf_is_reference_array(const lf_snapshot *s, uint32_t v)
{
    if (v >= s->object_count || s->object_class[v] >= s->class_count)
        return 0;
    uint16_t k = lf_class_kind(s, s->object_class[v]);
    /* an untyped OCaml Hashtbl's bucket array is one by where it is */
    return (k & (CLASS_ARRAY | CLASS_JS_ARRAY)) || ((k & CLASS_BLOCK_POW2) && lf_is_backing_store(s, v));
}

/* A JDK collection that holds its entries itself, not through an array: a
 * TreeMap its root, a LinkedHashMap or a LinkedList entries linked to each
 * other from both ends (each dominated by the collection). Not an entry
 * holding the next one: that is structure. */
static int holds_entries(const lf_snapshot *s, uint32_t v)
{
    uint32_t cls = s->object_class[v];
    if (cls >= s->class_count || (lf_class_kind(s, cls) & (CLASS_RUNTIME | CLASS_ENTRY)) != CLASS_RUNTIME)
        return 0;
    for (uint32_t i = s->domtree_offset[v]; i < s->domtree_offset[v + 1]; i++) {
        uint32_t c = s->object_class[s->domtree_child[i]];
        if (c < s->class_count && (lf_class_kind(s, c) & CLASS_ENTRY))
            return 1;
    }
    return 0;
}

/* The link of x's class that x dominates, or LF_NODE_NONE. */
static uint32_t next_link(const lf_snapshot *s, uint32_t x)
{
    for (uint32_t i = s->domtree_offset[x]; i < s->domtree_offset[x + 1]; i++)
        if (lf_same_class_as_dominator(s, s->domtree_child[i], x))
            return s->domtree_child[i];
    return LF_NODE_NONE;
}

/* The head of a chain of its own class, CHAIN_MIN links long or more (a
 * program's linked list, OCaml's list cells): the tree showed its first
 * three links nested, one a level, and nothing of its length. A shorter
 * one (a logger and its parent) stays as it is. */
enum { CHAIN_MIN = 8 };
static int heads_chain(const lf_snapshot *s, uint32_t v)
{
    if (lf_same_class_as_dominator(s, v, s->idom[v]))
        return 0;
    uint32_t x = v, links = 0;
    while (links < CHAIN_MIN && (x = next_link(s, x)) != LF_NODE_NONE)
        links++;
    return links >= CHAIN_MIN;
}

int lf_holds_members(const lf_snapshot *s, uint32_t v)
{
    return lf_is_reference_array(s, v) || lf_is_v8_dictionary(s, v) || holds_entries(s, v) || heads_chain(s, v);
}

int lf_is_structure(const lf_snapshot *s, uint32_t v)
{
    uint32_t d = s->idom[v];
    if (d >= s->object_count || s->object_class[v] >= s->class_count)
        return 0;
    uint16_t k = lf_class_kind(s, s->object_class[v]);
    return lf_is_backing_store(s, v) || (k & CLASS_ENTRY) || ((k & CLASS_BLOCK3) && ocaml_cell(s, v)) ||
           lf_same_class_as_dominator(s, v, d);
}

int lf_same_class_as_dominator(const lf_snapshot *s, uint32_t v, uint32_t d)
{
    return d < s->object_count && lf_same_class(s, s->object_class[v], s->object_class[d]);
}

int lf_same_class(const lf_snapshot *s, uint32_t cv, uint32_t cd)
{
    if (cv != cd && (cv >= s->class_count || cd >= s->class_count || s->class_name[cv] != s->class_name[cd]))
        return 0;
    /* asked for every object: only V8's names need reading */
    return s->source_format != LF_FORMAT_V8 || !lf_is_generic_v8_name(s, lf_snapshot_class_name(s, cv));
}

/* Whether d, whose flags are *dflags, is a V8 dictionary: asked once, the
 * answer kept in *dflags. Only V8 has dictionaries: elsewhere d's flags stay
 * as its own placing wrote them. */
static int dictionary(const lf_snapshot *s, uint32_t d, uint8_t *dflags)
{
    if (s->source_format != LF_FORMAT_V8)
        return 0;
    if (!(*dflags & NODE_ASKED))
        *dflags |= NODE_ASKED | (lf_is_v8_dictionary(s, d) ? NODE_DICTIONARY : 0);
    return (*dflags & NODE_DICTIONARY) != 0;
}

void lf_collections_free(lf_collections *c)
{
    lf_big_free(c->up);
    lf_big_free(c->flags);
    c->up = NULL;
    c->flags = NULL;
}

static int in_chain(Pvoid_t chains, const uint64_t *sig, uint32_t v)
{
    int set = 0;
    if (chains)
        J1T(set, chains, (Word_t)sig[v]);
    return set;
}

/* Whether sig[v] is a chain's, remembering the last answer: the nodes
 * asked about come in runs of one signature (the entries of one array). */
static int in_chain_memo(lf_collections_builder *b, uint32_t v)
{
    if (!b->chains)
        return 0;
    uint64_t g = b->sig[v];
    if (b->asked && b->last_sig == g)
        return b->last_in;
    b->asked = 1;
    b->last_sig = g;
    b->last_in = in_chain(b->chains, b->sig, v);
    return b->last_in;
}

int lf_collections_begin(lf_collections_builder *b, lf_collections *c, const lf_snapshot *s, const uint64_t *sig,
                         void *chains)
{
    const uint32_t n = s->object_count;
    memset(b, 0, sizeof *b);
    b->c = c;
    b->s = s;
    b->sig = sig;
    b->chains = sig ? chains : NULL; /* a chain is known by its signature */
    if (!sig) {
        Word_t freed;
        J1FA(freed, chains);
        (void)freed;
    }
    b->kind = lf_big_malloc(((size_t)s->class_count + 1) * sizeof *b->kind);
    if (c) {
        c->up = lf_big_malloc(((size_t)n + 1) * sizeof *c->up);
        c->flags = lf_big_calloc((size_t)n + 1, 1);
    }
    if (!b->kind || (c && (!c->up || !c->flags))) {
        lf_collections_end(b);
        if (c)
            lf_collections_free(c);
        return -1;
    }
    for (uint32_t k = 0; k < s->class_count; k++)
        b->kind[k] = lf_class_kind(s, k);
    return 0;
}

lf_coll_place lf_collections_place_below(lf_collections_builder *b, uint32_t v, uint32_t d, lf_coll_place *dp)
{
    const lf_snapshot *s = b->s;
    uint32_t cls = s->object_class[v], dcls = s->object_class[d];
    uint16_t k = cls < s->class_count ? b->kind[cls] : 0, dk = dcls < s->class_count ? b->kind[dcls] : 0;
    /* an array in a field of the program's own class is the program's
     * collection; in a runtime collection (elementData, table, a Hashtbl's
     * data), in V8, or in another structure, it is a backing store */
    int store = store_kinds(s, k, dk) || ((k & CLASS_ARRAY) && (dp->flags & LF_COLL_STRUCTURE));
    int structure = store || (k & CLASS_ENTRY) || lf_same_class_as_dominator(s, v, d) || in_chain_memo(b, v);
    if (structure)
        return (lf_coll_place){dp->flags & LF_COLL_STRUCTURE ? dp->up : d, LF_COLL_STRUCTURE | LF_COLL_INSIDE};
    /* an element of the program's own array or dictionary: it holds it */
    if (((dk & (CLASS_ARRAY | CLASS_JS_ARRAY)) && s->idom[d] != LF_NODE_SUPER) || dictionary(s, d, &dp->flags))
        return (lf_coll_place){d, LF_COLL_INSIDE};
    /* an entry's key or value, or anything below one: the structure's container */
    if (dp->flags & LF_COLL_INSIDE)
        return (lf_coll_place){dp->up, LF_COLL_INSIDE};
    return (lf_coll_place){d, 0};
}

void lf_collections_place(lf_collections_builder *b, uint32_t v)
{
    lf_collections *c = b->c;
    uint32_t d = b->s->idom[v];
    if (d >= b->s->object_count) {
        c->up[v] = LF_NODE_NONE;
        return;
    }
    lf_coll_place dp = {c->up[d], c->flags[d]};
    lf_coll_place p = lf_collections_place_below(b, v, d, &dp);
    if (dp.flags != c->flags[d]) /* V8's dictionary mark, kept for d's other children */
        c->flags[d] = dp.flags;
    c->flags[v] |= p.flags;
    c->up[v] = p.up;
}

void lf_collections_end(lf_collections_builder *b)
{
    Word_t freed;
    J1FA(freed, b->chains);
    (void)freed;
    lf_big_free(b->kind);
    b->kind = NULL;
}

int lf_collections_build(lf_collections *c, const lf_snapshot *s, const uint32_t *order, size_t count,
                         const uint64_t *sig, void *chains)
{
    lf_collections_builder b;
    if (lf_collections_begin(&b, c, s, sig, chains))
        return -1;
    for (size_t i = 0; i < count; i++) { /* preorder: the dominator first */
        if (i + LF_PREFETCH_AHEAD < count)
            lf_collections_prefetch(&b, order[i + LF_PREFETCH_AHEAD]);
        lf_collections_place(&b, order[i]);
    }
    lf_collections_end(&b);
    return 0;
}
