/* class_match.h - the classes a user's NAME means (path --class, path
 * --exclude CLASS.FIELD): the full name (java.util.ArrayList), a simple name
 * that ends the full one after a '.' or '$' (ArrayList, StageListener for
 * acme.Pipeline$StageListener, Pipeline$StageListener; as Eclipse MAT's class
 * filter; .NET's Outer+Inner ends at '+' too), a generic name with or without
 * its namespaces (List<CartLine>, Dictionary<int, Shop.CartLine>: generic_name.h),
 * or a glob over the full name or the part after its last '.' or
 * '$' (*Listener, java.util.*). A full name wins over simple ones; a simple
 * name that several classes end with is ambiguous; a glob means every class
 * it matches. */
#ifndef LF_CLASS_MATCH_H
#define LF_CLASS_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/model/snapshot.h"

/* class -> 1 when it matches the first len bytes of pattern, in a new array
 * the caller frees (NULL: out of memory); *matched: how many classes
 * matched, *names: how many different names they have (classes of several
 * loaders share one), *simple: 1 when they matched by simple name. */
uint8_t *class_match(const lf_snapshot *s, const char *pattern, size_t len, uint32_t *matched, uint32_t *names,
                     int *simple);
/* "did you mean": up to three class names closest to pattern, comma
 * separated, into buf ("" when none is close). */
void class_suggest(const lf_snapshot *s, const char *pattern, size_t len, char *buf, size_t size);

/* Why a simple name matched is no answer: "OPTION 'NAME' is the simple
 * name of N classes: a.X, b.X; give the full name, or a glob ('*NAME')
 * for all of them", into buf. */
void class_ambiguity(const lf_snapshot *s, const char *option, const char *pattern, size_t len,
                     const uint8_t *match, uint32_t names, char *buf, size_t size);
/* class -> 1 when its whole name matches the POSIX extended regular
 * expression pattern[0 .. len) (Eclipse MAT writes class patterns as
 * regular expressions in quotes): *match, a new array the caller frees,
 * and *matched. 0; 1 when pattern is no regular expression (why: regerror's
 * words); -1 out of memory. */
int class_match_regex(const lf_snapshot *s, const char *pattern, size_t len, uint8_t **match, uint32_t *matched,
                      char *why, size_t size);

/* The classes `option` names for a command, with the messages: a simple
 * name several classes end with is an error that lists them (EXIT_USAGE); no
 * class is an error with the closest names (EXIT_USAGE). *match is the
 * class_match array (freed by the caller) when EXIT_OK. */
int class_choose(const lf_snapshot *s, const char *option, const char *pattern, size_t len, uint8_t **match,
                 uint32_t *matched);

#endif
