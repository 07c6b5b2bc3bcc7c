/* v8_values.h - what a V8 snapshot says of a few objects, read back from
 * the file the snapshot keeps mapped (v8_lazy.c): a node's name (a string's
 * text, a heap number's value, a function's name) and its type, and the
 * dump's own type of each edge (property, element, context, internal, ...),
 * which the snapshot model folds into fewer kinds. */
#ifndef LF_V8_VALUES_H
#define LF_V8_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"
#include "../model/snapshot.h"

struct v8_lazy;

/* Node types, in V8's own terms. */
enum {
    LF_V8N_HIDDEN, LF_V8N_ARRAY, LF_V8N_STRING, LF_V8N_OBJECT, LF_V8N_CODE, LF_V8N_CLOSURE, LF_V8N_REGEXP,
    LF_V8N_NUMBER, LF_V8N_NATIVE, LF_V8N_SYNTHETIC, LF_V8N_CONS_STRING, LF_V8N_SLICED_STRING, LF_V8N_SYMBOL,
    LF_V8N_BIGINT, LF_V8N_OBJECT_SHAPE, LF_V8N_OTHER
};
/* Edge types. */
enum {
    LF_V8E_CONTEXT, LF_V8E_ELEMENT, LF_V8E_PROPERTY, LF_V8E_INTERNAL, LF_V8E_HIDDEN, LF_V8E_SHORTCUT,
    LF_V8E_WEAK, LF_V8E_OTHER
};

/* The V8 reader's decoder when s was read from a V8 snapshot that is still
 * mapped (not a cached analysis or a converted file); else NULL. */
const struct v8_lazy *lf_v8_lazy(const lf_snapshot *s);

/* For nodes node[0..n) (node space, any order, repeats allowed): the string
 * index of each one's name (a snapshot string) and its type LF_V8N_*, in
 * one pass over the nodes array up to the last one asked for. Returns 0 or
 * -1 with err set (memory). */
int lf_v8_node_names(const struct v8_lazy *l, const lf_snapshot *s, const uint32_t *node, size_t n,
                     uint32_t *name, uint8_t *type, lf_error *err);
/* The types (LF_V8E_*) of edges [first, end). */
void lf_v8_edge_types(const struct v8_lazy *l, uint64_t first, uint64_t end, uint8_t *type);
const char *lf_v8_edge_type_name(uint8_t type);
const char *lf_v8_node_type_name(uint8_t type);

#endif
