/* paired_table.h - the entries of a JVM map that keeps no entry objects:
 * its table holds each key at an even index and its value at the next
 * (java.util.IdentityHashMap, ImmutableCollections$MapN: Map.of with more
 * than two entries; clojure.lang.PersistentArrayMap).
 *
 * HPROF gives every element edge its index, so a key and its value are
 * paired by index: the edge of index 2i is the key of entry i, the edge of
 * 2i + 1 its value; a null key or value has no edge, and never shifts the
 * next entry (unlike a .NET Dictionary's array, whose references carry no
 * index: dotnet_entries.h). `suspects` counts the entries
 * (docs/COLLECTIONS.md). */
#ifndef LF_PAIRED_TABLE_H
#define LF_PAIRED_TABLE_H

#include <stdint.h>

#include "../model/snapshot.h"

typedef struct lf_paired_table_walk {
    const lf_snapshot *s;
    uint32_t count, next;     /* the array's element edges, the next one to read */
    uint32_t *index;          /* per element edge: its element index */
    uint64_t *edge;           /* per element edge: the edge (edge space) */
} lf_paired_table_walk;

/* Begins the walk over array's entries when array is the table of a map
 * of keys and values side by side (its dominator of such a class) and its
 * edges carry element indices. 0 when begun (lf_paired_table_end frees
 * it), 1 when array is no such table, -1 out of memory. */
int lf_paired_table_begin(lf_paired_table_walk *w, const lf_snapshot *s, uint32_t array);
/* The next entry's key and value, either LF_NODE_NONE (null); 0 at the
 * end. */
int lf_paired_table_next(lf_paired_table_walk *w, uint32_t *key, uint32_t *value);
void lf_paired_table_end(lf_paired_table_walk *w);

#endif
