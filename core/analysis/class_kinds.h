/* class_kinds.h - what a class's name says about collections: an entry
 * class, a reference array, a runtime collection's own class, and the
 * shapes OCaml and .NET give theirs (docs/COLLECTIONS.md, the rules).
 * Internal to core/analysis (collections.c). */
#ifndef LF_CLASS_KINDS_H
#define LF_CLASS_KINDS_H

#include <stdint.h>
#include <string.h>

#include "../model/snapshot.h"

/* Per class: an entry class (structure wherever it is not a top owner), a
 * reference array (structure when a runtime collection or another structure
 * holds it), a runtime collection's class (java.*, System.Collections.*,
 * OCaml's Hashtbl), one of V8's generic names; the untyped OCaml blocks
 * that a Hashtbl is made of, known by where they are (ocaml_kind); an
 * object inside a runtime collection that holds its store (.NET's
 * ConcurrentDictionary Tables: dotnet_kind); an array of a .NET
 * collection's entry structs (`Entry<K,V>[]`), each slot a key and a value
 * inline, whose references are no elements one by one; a JVM map that keeps
 * its keys and values side by side in one array, no entry objects
 * (`IdentityHashMap`). */
enum {
    CLASS_ENTRY = 1, CLASS_ARRAY = 2, CLASS_RUNTIME = 4, CLASS_GENERIC = 8, CLASS_JS_ARRAY = 16,
    CLASS_BLOCK3 = 32, CLASS_BLOCK4 = 64, CLASS_BLOCK_POW2 = 128, CLASS_INNER = 256, CLASS_STRUCT_ENTRIES = 512,
    CLASS_PAIRED_TABLE = 1024
};

/* Class cls's kind bits (CLASS_*), from its name and the snapshot's format. */
uint16_t lf_class_kind(const lf_snapshot *s, uint32_t cls);
/* Whether name is one of V8's generic names ("Object", "(array)", ...):
 * one of them holding another is nesting, not a chain. */
int lf_is_generic_v8_name(const lf_snapshot *s, lf_str name);
/* Whether class cls is V8's own machinery, never a program's value: an
 * internal array, an object shape, code, "(system)", "system / Context". An
 * Array's children of these are no elements of it. */
int lf_is_v8_machinery(const lf_snapshot *s, uint32_t cls);

static inline int lf_name_ends_with(lf_str s, const char *tail)
{
    size_t n = strlen(tail);
    return s.len >= n && memcmp(s.ptr + s.len - n, tail, n) == 0;
}

static inline int lf_name_is(lf_str s, const char *text)
{
    return s.len == strlen(text) && memcmp(s.ptr, text, s.len) == 0;
}

static inline int lf_name_starts_with(lf_str s, const char *head)
{
    size_t n = strlen(head);
    return s.len >= n && memcmp(s.ptr, head, n) == 0;
}

#endif
