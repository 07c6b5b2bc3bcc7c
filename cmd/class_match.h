/* class_match.h - the classes a user's NAME means (path --class): the full
 * name (java.util.ArrayList), the simple name without its package
 * (ArrayList, HashMap$Node), or a glob over either (*Listener, java.util.*). */
#ifndef LF_CLASS_MATCH_H
#define LF_CLASS_MATCH_H

#include <stdint.h>

#include "../core/model/snapshot.h"

/* class -> 1 when it matches, in a new array the caller frees (NULL: out of
 * memory); *matched: how many matched. */
uint8_t *class_match(const lf_snapshot *s, const char *pattern, uint32_t *matched);
/* "did you mean": up to three class names closest to pattern, comma
 * separated, into buf ("" when none is close). */
void class_suggest(const lf_snapshot *s, const char *pattern, char *buf, size_t size);

#endif
