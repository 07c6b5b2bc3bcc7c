/* v8_string_text.h - a V8 string's text as leakfind can know it: a plain
 * string's is its node's name (V8 cuts names at 1,024 characters); a
 * concatenated string's is its parts', "first" then "second", joined. A
 * sliced string's is not known (the snapshot has no offset into its parent). */
#ifndef LF_V8_STRING_TEXT_H
#define LF_V8_STRING_TEXT_H

#include "../model/snapshot.h"

/* What kind of string class cls is: 0 none, 1 "(string)", 2 "(concatenated string)". */
int lf_v8_string_kind(const lf_snapshot *s, uint32_t cls);
/* node's text as UTF-8, up to cap - 1 bytes into buf (NUL-terminated, cut at
 * a character boundary); *full gets the whole text's bytes (as far as the
 * walk went: a concatenation of more than 4,096 parts stops there). Returns
 * the bytes written; 0 and *full 0 for a node with no known text. */
size_t lf_v8_string_text(const lf_snapshot *s, uint32_t node, char *buf, size_t cap, uint64_t *full);
/* The texts of the plain strings node[0 .. n) (their names, which the
 * snapshot keeps), in one pass over the dump's node rows where asking one
 * node at a time parses up to 64 rows each. 0 or -1 with err (memory). */
int lf_v8_plain_texts(const lf_snapshot *s, const uint32_t *node, size_t n, lf_str *text, lf_error *err);
/* The bytes of text that fit in room, cut at a character boundary (what
 * lf_v8_string_text keeps of a part). */
size_t lf_v8_text_prefix(lf_str text, size_t room);

#endif
