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
 * it) and, when not NULL, the owner signatures (sig, by node): then every
 * node whose signature is a chain's (a link shares its head's) is
 * structure, the heads of chains and the single entries of buckets that
 * have no chain too (an OCaml Hashtbl's bucket cells, which no class names).
 * V8's collections go by their classes: not there. Returns 0 or -1 (memory). */
int lf_collections_build(lf_collections *c, const lf_snapshot *s, const uint32_t *order, size_t count,
                         const uint64_t *sig);
void lf_collections_free(lf_collections *c);

/* Whether node v is a collection's backing store: a reference array that a
 * JDK class holds (elementData, table) or a V8 internal array (a Map's
 * table, an Array's elements), as its dominator. */
int lf_is_backing_store(const lf_snapshot *s, uint32_t v);

/* Whether node v is a V8 object used as a dictionary: a plain Object whose
 * properties V8 keeps in a hash table (its self size, which includes that
 * table, is at least 24 bytes per property, and it has 8 or more). Its
 * property names are keys: entries of one collection, not fields. Scans
 * v's edges: ask once per node. */
int lf_is_v8_dictionary(const lf_snapshot *s, uint32_t v);

/* Whether node v and its dominator d are objects of one class (by name,
 * so the same class of two loaders counts too): a link of a chain. */
int lf_same_class_as_dominator(const lf_snapshot *s, uint32_t v, uint32_t d);

#endif
