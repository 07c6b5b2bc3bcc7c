/* strtab.h - a string table that interns: equal byte strings get one index.
 * Index 0 is always the empty string. Lookup hashes with XXH3.
 *
 * A reader whose strings are unique already (V8 writes each once) may append
 * them without hashing: a lookup then finds only the strings that were
 * interned or made canonical, and lf_strtab_canonical hashes one appended
 * string on demand, for the few places where equal strings must be one. */
#ifndef LF_STRTAB_H
#define LF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct lf_strtab {
    char *bytes;
    uint64_t bytes_len, bytes_cap;
    uint64_t *offset;          /* string index -> start; count+1 entries */
    uint64_t *hash;            /* string index -> XXH3 of its bytes */
    uint32_t count, cap;
    uint32_t *slot;            /* open addressing: string index + 1, 0 = empty */
    uint32_t slot_mask;
    uint32_t hashed;           /* strings in a slot */
} lf_strtab;

int lf_strtab_init(lf_strtab *t);
void lf_strtab_free(lf_strtab *t);
/* Returns the string's index, or -1 when out of memory (or over 2^32-2 strings). */
int64_t lf_strtab_intern(lf_strtab *t, const char *s, size_t len);
/* Appends s as a new string without looking for an equal one; its index, or -1. */
int64_t lf_strtab_append(lf_strtab *t, const char *s, size_t len);
/* Room for bytes of string text in all, so that appending up to that
 * moves nothing (a reader that knows its strings' total). -1: out of memory. */
int lf_strtab_reserve_bytes(lf_strtab *t, uint64_t bytes);
/* The index of the first string entered for lookups with the bytes of
 * string i: i itself (entered now) when there is none. -1: out of memory. */
int64_t lf_strtab_canonical(lf_strtab *t, uint32_t i);
/* Returns the index of s, or -1 when s was never interned or made canonical. */
int64_t lf_strtab_find(const lf_strtab *t, const char *s, size_t len);

#endif
