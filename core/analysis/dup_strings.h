/* dup_strings.h - strings with the same text, and the largest strings
 * (`leakfind strings`, issue 37): MAT's duplicate strings, for JVM dumps
 * (java.lang.String, its text read from the dump: Latin-1 and UTF-16
 * values alike) and V8 snapshots (string nodes, whose text V8 writes as the
 * node's name, cut at 1,024 characters, and concatenated strings, their
 * parts joined: v8_string_text.h).
 * and .NET cores (System.String, the texts the .NET agent kept in the
 * .lfs: FORMAT 1.6's STXT, the first 1,024 characters of each).
 * Otherwise needs the dump itself, still mapped: an .lfs converted from
 * a JVM or V8 dump keeps no texts. */
#ifndef LF_DUP_STRINGS_H
#define LF_DUP_STRINGS_H

#include "../model/snapshot.h"

typedef struct lf_string_obj {
    uint32_t node;       /* node space */
    uint64_t key;        /* equal keys: equal texts (a 64-bit hash of the text; 0: none known) */
    uint64_t chars;      /* characters of the text */
} lf_string_obj;

typedef struct lf_dup_group {
    uint32_t first;      /* index into the strings: the group's lowest node */
    uint32_t copies;
    uint64_t bytes;      /* retained bytes of every copy */
    uint64_t wasted;     /* bytes less the largest copy's: what one shared copy would save */
    uint32_t owner_class;   /* the class holding most copies (their dominators'); UINT32_MAX: the roots */
    uint32_t owner_copies;  /* copies it holds */
} lf_dup_group;

typedef struct lf_string_set {
    lf_string_obj *str;     /* every string object, sorted by key then node */
    uint64_t count;
    lf_dup_group *group;    /* texts with two or more copies, most wasted first */
    uint64_t group_count;
} lf_string_set;

/* Whether s has string texts to read (a mapped HPROF or V8 snapshot). */
int lf_strings_readable(const lf_snapshot *s);
/* The string objects of an analysed s and their duplicate groups, their
 * texts read on two threads when threads > 1. 0, or -1 with err set
 * (memory, a damaged record). */
int lf_strings_find(const lf_snapshot *s, unsigned threads, lf_string_set *out, lf_error *err);
void lf_strings_free(lf_string_set *set);

/* Up to max_chars characters of node's text as UTF-8 into buf (size >=
 * 4 * max_chars + 1); *chars gets the text's full length. Returns the bytes
 * written, or 0 when node has no text to show. */
size_t lf_string_text(const lf_snapshot *s, uint32_t node, uint64_t max_chars, char *buf, size_t size,
                      uint64_t *chars);

/* A string object's text, for a short preview: 1 when node is a string
 * whose text is known (java.lang.String; V8's plain and concatenated
 * strings, not its sliced ones), with up to max_chars characters of it in
 * buf as lf_string_text writes them, *len their bytes and *chars the whole
 * text's characters (an empty string: 1, *len 0); 0 for any other object. */
int lf_string_preview(const lf_snapshot *s, uint32_t node, uint64_t max_chars, char *buf, size_t size,
                      size_t *len, uint64_t *chars);

#endif
