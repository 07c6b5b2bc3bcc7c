/* shapes.h - the shapes of typed values, read from the names file's shape
 * lines (written by leakfind-ocaml-names, shapes.ml; format in shapes.c).
 * Plain C with no OCaml header: the fuzz target builds it alone. */
#ifndef LF_OCAML_SHAPES_H
#define LF_OCAML_SHAPES_H

#include <stddef.h>
#include <stdint.h>

enum {
    AGENT_SHAPE_NONE,
    AGENT_SHAPE_BLOCK,  /* alternatives by tag and size (records, variants) */
    AGENT_SHAPE_ARRAY,  /* tag 0, any size, every field elem; or a float array */
    AGENT_SHAPE_FLOATS, /* a record of floats */
    AGENT_SHAPE_LAZY,   /* Lazy_tag, Forward_tag to elem, or elem itself */
    AGENT_SHAPE_EXT     /* an exception: named by its constructor's name */
};
typedef struct agent_shape {
    uint8_t kind;
    uint8_t vague; /* its type has unknown parts ("_ ref"): a firm type may relabel */
    uint32_t label, elem, alt_first, alt_count;
} agent_shape;
typedef struct agent_alt {
    uint32_t tag, size, label, field_first;
} agent_alt;

/* One line of the names file that starts with '#' (modified in place). */
void agent_shapes_add_line(char *line);
/* Shape id's description, or NULL when id names none. */
const agent_shape *agent_shape_get(uint32_t id);
/* The alternative of a block shape that a block of this tag and size is. */
const agent_alt *agent_shape_alt(const agent_shape *s, uint32_t tag, uint64_t size);
/* The shape of field i (below a->size) of a block of that alternative (0:
 * not followed). */
uint32_t agent_alt_field(const agent_alt *a, uint64_t i);
const char *agent_shape_label(uint32_t label_index);
size_t agent_shape_label_count(void);
/* Forgets every shape (the fuzz target, between inputs). */
void agent_shapes_reset(void);

#endif
