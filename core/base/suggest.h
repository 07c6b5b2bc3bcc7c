/* suggest.h - "did you mean": the closest of some names to a mistyped one. */
#ifndef LF_SUGGEST_H
#define LF_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

/* Edit distance (insertions, deletions, substitutions, adjacent swaps)
 * between a and b, or max + 1 when it is larger than max. */
size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen, size_t max);
/* How far a mistyped name may be from a suggestion: a third of its length,
 * at least 1 and at most 4. */
size_t suggest_max_distance(size_t len);

/* The closest few of the names offered, nearest first (ties: the first
 * offered). Each name is the caller's number (a class, a name's index). */
enum { SUGGEST_KEEP = 3 };
typedef struct suggest_best {
    size_t count;
    size_t distance[SUGGEST_KEEP];
    uint64_t name[SUGGEST_KEEP];
} suggest_best;
/* Keeps name when it is among the closest so far (distance from
 * suggest_distance; past the bound it is left out by the caller). */
void suggest_offer(suggest_best *b, uint64_t name, size_t distance);

/* The one nearest name, offered one by one: within suggest_max_distance
 * of the mistyped want, the bound tightening as nearer ones come (an
 * option, a command, a field, a function). */
typedef struct suggest_nearest {
    const char *want;
    size_t want_len;
    size_t bound; /* a name must be nearer than this; 0 once one is equal */
    char *near;   /* the nearest so far, terminated: "" while none */
    size_t size;
} suggest_nearest;
void suggest_nearest_init(suggest_nearest *n, const char *want, size_t want_len, char *near, size_t size);
/* Keeps name[0..len) when it is nearer than all before and fits near. */
void suggest_nearest_offer(suggest_nearest *n, const char *name, size_t len);

#endif
