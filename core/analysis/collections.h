/* collections.h - collections as users see them (DESIGN 13): which objects
 * are a collection's structure, and the owner that an object's growth
 * belongs to.
 *
 * In the dominator tree a hashed collection is its container, a backing
 * array and bucket chains in which each entry is dominated by the entry
 * before it; a tree map's entries sit at the depth of their tree. Those
 * positions say nothing a user can act on, so:
 *  - structure: an object held (as dominator-tree child) by another one of
 *    its own class (the links of a chain or a tree), a reference array that
 *    no root holds directly (a backing store: elementData, table, V8's
 *    "(array)"), or an entry class (a nested class whose simple name ends in
 *    Node, Entry, Index or TreeBin: HashMap$Node, TreeMap$Entry,
 *    ConcurrentSkipListMap$Index...). The general shape, a chain of one
 *    class below an array, is caught by the first two rules, so collections
 *    nobody listed (Jython's dict, Guava, Scala) fold the same way;
 *  - its container: the nearest dominator that is not structure;
 *  - what a collection holds, the entries' keys, values and everything
 *    below them, is inside that container until another container is met.
 * The owner above an object (lf_collections.up) is then the container it is
 * inside, else its dominator: growth, holders and owners are told at that
 * level, never at a bucket. */
#ifndef LF_COLLECTIONS_H
#define LF_COLLECTIONS_H

#include "../base/prefetch.h"
#include "../model/snapshot.h"

enum {
    LF_COLL_STRUCTURE = 1, /* part of a collection's structure */
    LF_COLL_INSIDE = 2,    /* held, at any depth, by a collection: up is its container */
};

typedef struct lf_collections {
    uint32_t *up;          /* node -> the owner above it; LF_NODE_NONE at the top */
    uint8_t *flags;        /* node -> LF_COLL_* (and bits of the build's own) */
} lf_collections;

/* For an analysed snapshot, with its dominator-tree preorder (order:
 * count nodes, a node's dominator before it, as lf_owner_signatures gives
 * it) and, when not NULL, the owner signatures (sig, by node) with the
 * chains' signatures that lf_owner_signatures found (chains, a Judy1 set
 * the build takes and frees, NULL for none): then every node whose
 * signature is a chain's (a link shares its head's) is structure, the heads
 * of chains and the single entries of buckets that have no chain too (an
 * OCaml Hashtbl's bucket cells, which no class names). V8's collections go
 * by their classes: not there. Returns 0 or -1 (memory). */
int lf_collections_build(lf_collections *c, const lf_snapshot *s, const uint32_t *order, size_t count,
                         const uint64_t *sig, void *chains);
void lf_collections_free(lf_collections *c);

/* The same one node at a time, for a pass over the preorder that reads each
 * node's place as it goes (trend's counts): begin (then c's arrays exist,
 * nothing placed), place every node of order[0..count) in that order (a
 * node's place is set when it returns; its dominator's must be), end. */
typedef struct lf_collections_builder {
    lf_collections *c;
    const lf_snapshot *s;
    const uint64_t *sig;
    uint16_t *kind;          /* class -> its kind bits */
    void *chains;            /* Judy1: the chains' signatures */
    uint64_t last_sig;       /* the last signature asked about, and its answer */
    int asked, last_in;
} lf_collections_builder;
/* sig and chains as for lf_collections_build; the builder takes chains
 * (lf_collections_end frees it), whether begin succeeds or not. c NULL:
 * nothing is stored, places are only asked for (lf_collections_place_below). */
int lf_collections_begin(lf_collections_builder *b, lf_collections *c, const lf_snapshot *s, const uint64_t *sig,
                         void *chains);
void lf_collections_place(lf_collections_builder *b, uint32_t v);
/* A node's place: the owner above it (lf_collections.up) and its flags. */
typedef struct lf_coll_place {
    uint32_t up;
    uint8_t flags;  /* LF_COLL_*, and bits of the builder's own */
} lf_coll_place;
/* The place of v below its dominator d (not the super-root), whose place is
 * *dp: what lf_collections_place stores, for a walk down the dominator tree
 * that keeps its path's places itself. up is d or dp->up. Asking whether d
 * is a V8 dictionary marks *dp, for d's other children. */
lf_coll_place lf_collections_place_below(lf_collections_builder *b, uint32_t v, uint32_t d, lf_coll_place *dp);
/* How many nodes of a preorder ahead a pass asks for a node's words: far
 * enough for a miss to memory to come back before the node's turn. */
enum { LF_PREFETCH_AHEAD = 16 };
/* Asks the caches for what placing v will read of v's own (a preorder
 * reaches the nodes all over the arrays): call it some nodes ahead. */
LF_PREFETCH_HELPER void lf_collections_prefetch(const lf_collections_builder *b, uint32_t v)
{
    __builtin_prefetch(&b->s->idom[v]);
    __builtin_prefetch(&b->s->object_class[v]);
    __builtin_prefetch(&b->c->flags[v], 1);
    __builtin_prefetch(&b->c->up[v], 1);
    if (b->chains)
        __builtin_prefetch(&b->sig[v]);
}
void lf_collections_end(lf_collections_builder *b);

/* Whether node v is a collection's backing store: a reference array that a
 * runtime collection holds as its dominator (a JDK class's elementData or
 * table, .NET's List<T>._items, an OCaml Hashtbl's bucket array, typed or
 * not) or a V8 internal array (a Map's table, an Array's elements). */
int lf_is_backing_store(const lf_snapshot *s, uint32_t v);

/* What a map's entry v holds for the program (DESIGN 13: a map grows by
 * its values, never by HashMap$Node): its value ("value", "val"; a
 * linked list's "item"; an OCaml bucket cell's data, field [1]) when v
 * alone holds it, else its key (field [0] of an OCaml cell) (a set's
 * element: a HashSet's values are one shared object), else LF_NODE_NONE
 * (not an entry, or it holds neither alone). Decodes v's edges: ask once
 * per entry. */
uint32_t lf_entry_content(const lf_snapshot *s, uint32_t v);
/* What kind of entry node v is: none; a JVM entry, whose fields say what
 * it holds; an OCaml Hashtbl's bucket cell {key; data; next}; a typed
 * OCaml list's cell {head; tail}. A chain's link below its head is the
 * head's kind: lf_entry_content_of takes it, not asking again. */
enum { LF_ENTRY_NONE, LF_ENTRY_FIELDS, LF_ENTRY_BUCKET, LF_ENTRY_LIST };
int lf_entry_shape(const lf_snapshot *s, uint32_t v);
uint32_t lf_entry_content_of(const lf_snapshot *s, uint32_t v, int shape);
/* Whether node v is a map's entry (HashMap$Node, TreeMap$Entry, ...: a
 * JVM class whose simple name ends in Node or Entry). */
int lf_is_map_entry(const lf_snapshot *s, uint32_t v);
/* Whether node v is an entry of the runtime's own collections (a JDK
 * HashMap$Node, TreeMap$Entry): it belongs to the collection above it,
 * where a program's own linked list is its own collection. */
int lf_is_runtime_entry(const lf_snapshot *s, uint32_t v);
/* Whether node v is a bucket cell {key; data; next} of an OCaml Hashtbl:
 * "... Hashtbl.bucketlist" in a typed snapshot; untyped, a 3-field block
 * whose chain starts in a Hashtbl's bucket array (at most 64 cells up). */
int lf_is_ocaml_bucket_cell(const lf_snapshot *s, uint32_t v);

/* Whether node v is a V8 object used as a dictionary: a plain Object whose
 * properties V8 keeps in a hash table (its self size, which includes that
 * table, is at least 24 bytes per property, and it has 8 or more). Its
 * property names are keys: entries of one collection, not fields. Scans
 * v's edges: ask once per node. */
int lf_is_v8_dictionary(const lf_snapshot *s, uint32_t v);

/* Whether node v is an array of references (a JVM X[], V8's "(array)" or
 * a JavaScript Array): its children are what views group by class. */
int lf_is_reference_array(const lf_snapshot *s, uint32_t v);

/* Whether the views (the `dominators` tree, the report's tree) show what
 * node v holds as a collection's members (lf_collection_members_of), by
 * class: v is an array of references, a V8 object used as a dictionary, a
 * JDK collection whose entries are its own children (TreeMap,
 * LinkedHashMap, LinkedList), or the head of a chain of 8 or more links of
 * its own class (a program's linked list). Scans v's edges or children:
 * ask once per node. */
int lf_holds_members(const lf_snapshot *s, uint32_t v);

/* Whether node v is part of a collection's structure as far as v alone
 * tells: a backing store, an entry class, or of its dominator's class. */
int lf_is_structure(const lf_snapshot *s, uint32_t v);

/* What a collection holds (the views below a list's elementData, a map's
 * table, a JavaScript Array): looking through its structure (entries,
 * bucket chains, tree bins), the payload, the entries' keys and values,
 * largest retained first (ties: node), and the structure's own objects by
 * class (count, shallow; retained = shallow), largest first. */
typedef struct lf_class_group {
    uint32_t cls;             /* class space: one class of the group's name */
    int structure;            /* 1: the collection's own entries or links */
    uint64_t count, shallow, retained;
} lf_class_group;

typedef struct lf_collection_members {
    uint32_t *payload;
    size_t payload_count, payload_cap;
    lf_class_group *group;    /* the structure's classes, then (lf_group_payload) the payload's */
    size_t group_count, group_cap;
} lf_collection_members;

int lf_collection_members_of(const lf_snapshot *s, uint32_t store, lf_collection_members *out);
/* The same below the dominator-tree children nodes[0..count) of a store
 * (those a view did not show one by one); with through = 0 the nodes are
 * the payload as they are (a node that is no collection). */
int lf_collection_members_below(const lf_snapshot *s, const uint32_t *nodes, size_t count, int through,
                                lf_collection_members *out);
/* The same looking through the structure, the payload in no particular
 * order: for a caller that only groups it (lf_group_payload), which need
 * not sort a holder's millions of members. */
int lf_collection_members_unordered(const lf_snapshot *s, const uint32_t *nodes, size_t count,
                                    lf_collection_members *out);
/* How many of m's payload, largest first, a view shows one by one: of the
 * first top (0: no limit) that retain at least min each, those of a class
 * that all pass, and those that stand out of a class that has a row of its
 * own ("N x Class": the others), retaining twice the mean of the others of
 * its class or more;
 * moved to the front in their order. A class is not shown both ways: 300
 * listeners of 1,072 bytes each, on a heap small enough that each passed
 * min, read as ten rows of listeners and their buffers, then "290 x
 * Listener". Both views take the same prefix, so their groups (the rest,
 * lf_group_payload) count the same. */
size_t lf_collection_shown(const lf_snapshot *s, lf_collection_members *m, uint64_t top, uint64_t min);
/* Appends groups by class name of payload[from..] (what the views do not
 * show one by one) to out->group and sorts all groups, largest retained
 * first. Returns 0 or -1 (memory). */
int lf_group_payload(const lf_snapshot *s, lf_collection_members *out, size_t from);
void lf_collection_members_free(lf_collection_members *m);

/* Whether node v and its dominator d are objects of one class (by name,
 * so the same class of two loaders counts too): a link of a chain. */
int lf_same_class_as_dominator(const lf_snapshot *s, uint32_t v, uint32_t d);
/* The same by the two objects' classes cv and cd (object_class values):
 * for a walk that carries the dominator's class down with it. */
int lf_same_class(const lf_snapshot *s, uint32_t cv, uint32_t cd);

#endif
