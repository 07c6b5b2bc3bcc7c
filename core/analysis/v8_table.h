/* v8_table.h - the entries of a V8 Map or Set, from its `table`.
 *
 * A Map's or Set's table (an OrderedHashMap, "(array)" in a snapshot) holds
 * its entries in insertion order: a Map entry's key and value in slots k and
 * k + 1 (and a chain slot, no edge), a Set's member alone. A small integer
 * is no node (V8 writes no edge for it): such a key or value is
 * LF_NODE_NONE. `inspect` lists the entries, `suspects` counts them
 * (docs/COLLECTIONS.md). */
#ifndef LF_V8_TABLE_H
#define LF_V8_TABLE_H

#include <stdint.h>

#include "../model/snapshot.h"

typedef struct lf_v8_table_walk {
    const lf_snapshot *s;
    uint64_t edge, end;   /* the table's next edge, its end */
    int keys_only;        /* a Set */
    int key_remainder;    /* a key's slot number mod 3; -1: none seen with its value */
} lf_v8_table_walk;

/* The table of node when it is a V8 Map, WeakMap, Set or WeakSet (keys_only
 * set for a set), else LF_NODE_NONE. */
uint32_t lf_v8_collection_table(const lf_snapshot *s, uint32_t node, int *keys_only);
void lf_v8_table_begin(lf_v8_table_walk *w, const lf_snapshot *s, uint32_t table, int keys_only);
/* The next entry's key and value (value LF_NODE_NONE in a set); 0 at the
 * end. */
int lf_v8_table_next(lf_v8_table_walk *w, uint32_t *key, uint32_t *value);

#endif
