/* dotnet_entries.h - the entries of a .NET Dictionary<K,V> or HashSet<T>,
 * from the array of entry structs it keeps them in.
 *
 * A Dictionary keeps each entry inline in one array ("Entry<K,V>[]" in a
 * .gcdump, "System.Collections.Generic.Dictionary<K,V>+Entry[]" from the
 * .NET agent): the array references an entry's key and then its value, as
 * the struct lays out its references, and nothing for a key or value that
 * is a value type or null. A .gcdump names no reference, so an entry is
 * told from the next by its key's class, K from the array's name: a
 * target of class K starts an entry, the next target not of class K is its
 * value. When a value may be of class K too (V is K, System.Object or an
 * interface), targets go two by two: a null value, which has no edge,
 * would shift them, a rarer case than a string in a Dictionary<string,
 * object>. A HashSet's
 * member is an entry alone. `suspects` counts the entries
 * (docs/COLLECTIONS.md). */
#ifndef LF_DOTNET_ENTRIES_H
#define LF_DOTNET_ENTRIES_H

#include <stdint.h>

#include "../model/snapshot.h"

typedef struct lf_dotnet_entries_walk {
    const lf_snapshot *s;
    uint64_t edge, end;       /* the array's next edge, its end */
    lf_str key_class;         /* K; empty when the keys are values (no edge) */
    lf_str key_type, value_type; /* K and V as the array's name gives them (V empty in a set) */
    int key_is_value, value_is_value; /* K, V a value type: never an edge */
    int keys_only;            /* a HashSet<T>: every target is a member */
    int two_by_two;           /* V may be of K's class (V is K, object, an interface): targets in pairs */
} lf_dotnet_entries_walk;

/* Begins the walk over array's entries when its class is a Dictionary's or
 * HashSet's entry array whose keys can be told: K a value type (every
 * target a value), or K the class of some target. 0 when begun, -1 when
 * not (another array, or keys of an interface or base class, which no
 * target's class names). */
int lf_dotnet_entries_begin(lf_dotnet_entries_walk *w, const lf_snapshot *s, uint32_t array);
/* The next entry's key and value, either LF_NODE_NONE (no edge); 0 at the
 * end. */
int lf_dotnet_entries_next(lf_dotnet_entries_walk *w, uint32_t *key, uint32_t *value);

#endif
