/* suggest.h - "did you mean": the closest of some names to a mistyped one. */
#ifndef LF_SUGGEST_H
#define LF_SUGGEST_H

#include <stddef.h>

/* Edit distance (insertions, deletions, substitutions, adjacent swaps)
 * between a and b, or max + 1 when it is larger than max. */
size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen, size_t max);
/* How far a mistyped name may be from a suggestion: a third of its length,
 * at least 1 and at most 4. */
size_t suggest_max_distance(size_t len);

#endif
