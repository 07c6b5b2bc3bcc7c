/* shapes.c - the shapes of typed values, read from the names file's
 * "#shape" and "#alt" lines (written by leakfind-ocaml-names, shapes.ml):
 *
 *   #shape ID block LABEL           then its alternatives, one per line:
 *   #alt TAG SIZE LABEL F1 F2 ...   a block of that tag and size, its fields'
 *                                   shapes (0: not followed)
 *   #shape ID array LABEL ELEM      tag 0 of any size, or a float array
 *   #shape ID floats LABEL          a record of floats (Double_array_tag)
 *   #shape ID lazy LABEL ELEM       a lazy value: Lazy_tag, Forward_tag, or
 *                                   the value itself once forced
 *   #shape ID ext                   an exception or extensible variant
 *
 * Columns are TAB-separated. The file is the program's own, but a line that
 * does not parse is skipped, and an id past the table or never defined is
 * shape 0: the blocks keep their untyped labels. */
#include "shapes.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/base/vec.h"

#define MAX_SHAPE_ID 1000000u
#define MAX_FIELDS 100000u

static agent_shape *shape;   /* by id; kind 0 = none */
static size_t shape_cap;     /* ids below shape_cap */
static agent_alt *alt;
static size_t alt_count, alt_cap;
static uint32_t *field;
static size_t field_count, field_cap;
static char **label;
static size_t label_count, label_cap;
static uint32_t last_shape; /* the shape "#alt" lines add to */

/* Splits line at tabs into at most max columns; returns how many. */
static size_t columns(char *line, char **col, size_t max)
{
    size_t n = 0;
    line[strcspn(line, "\n")] = 0;
    while (n < max) {
        col[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab)
            break;
        *tab = 0;
        line = tab + 1;
    }
    return n;
}

static int parse_u32(const char *s, uint32_t limit, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v > limit)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static int add_label(const char *text, uint32_t *out)
{
    if (lf_vec_reserve((void **)&label, &label_cap, label_count + 1, sizeof *label))
        return -1;
    char *copy = strdup(text);
    if (!copy)
        return -1;
    label[label_count] = copy;
    *out = (uint32_t)label_count++;
    return 0;
}

static agent_shape *shape_slot(uint32_t id)
{
    if (id == 0 || id >= MAX_SHAPE_ID)
        return NULL;
    if (id >= shape_cap) {
        size_t cap = shape_cap;
        if (lf_vec_reserve((void **)&shape, &cap, (size_t)id + 1, sizeof *shape))
            return NULL;
        memset(shape + shape_cap, 0, (cap - shape_cap) * sizeof *shape);
        shape_cap = cap;
    }
    return &shape[id];
}

/* Whether a type as printed has an unknown part: a "_" standing alone
 * ("_ ref", "(_, int) Hashtbl.t"), not inside a name ("request_log"). */
static int is_vague(const char *type)
{
    for (const char *p = type; (p = strchr(p, '_')) != NULL; p++) {
        int starts = p == type || p[-1] == ' ' || p[-1] == '(';
        int ends = !p[1] || p[1] == ' ' || p[1] == ',' || p[1] == ')';
        if (starts && ends)
            return 1;
    }
    return 0;
}

static void add_shape(char **col, size_t n)
{
    uint32_t id, elem = 0;
    last_shape = 0;
    if (n < 3 || parse_u32(col[1], MAX_SHAPE_ID, &id))
        return;
    agent_shape s = {0};
    if (!strcmp(col[2], "ext")) {
        s.kind = AGENT_SHAPE_EXT;
    } else if (n >= 4) {
        if (!strcmp(col[2], "block"))
            s.kind = AGENT_SHAPE_BLOCK;
        else if (!strcmp(col[2], "floats"))
            s.kind = AGENT_SHAPE_FLOATS;
        else if (!strcmp(col[2], "array") && n >= 5 && !parse_u32(col[4], MAX_SHAPE_ID, &elem))
            s.kind = AGENT_SHAPE_ARRAY;
        else if (!strcmp(col[2], "lazy") && n >= 5 && !parse_u32(col[4], MAX_SHAPE_ID, &elem))
            s.kind = AGENT_SHAPE_LAZY;
        if (s.kind && add_label(col[3], &s.label))
            return;
        s.vague = (uint8_t)is_vague(col[3]);
    }
    agent_shape *slot = s.kind ? shape_slot(id) : NULL;
    if (!slot)
        return;
    s.elem = elem;
    s.alt_first = (uint32_t)alt_count;
    *slot = s;
    last_shape = id;
}

static void add_alt(char **col, size_t n)
{
    uint32_t tag, size;
    if (!last_shape || n < 5 || parse_u32(col[1], 255, &tag) || parse_u32(col[2], MAX_FIELDS, &size))
        return;
    agent_shape *s = &shape[last_shape];
    if (s->kind != AGENT_SHAPE_BLOCK || s->alt_first + s->alt_count != alt_count ||
        lf_vec_reserve((void **)&alt, &alt_cap, alt_count + 1, sizeof *alt) ||
        lf_vec_reserve((void **)&field, &field_cap, field_count + size, sizeof *field))
        return;
    agent_alt a = {tag, size, 0, (uint32_t)field_count};
    char *p = col[4];
    for (uint32_t i = 0; i < size; i++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v >= MAX_SHAPE_ID)
            return;
        field[field_count + i] = (uint32_t)v;
        p = end;
    }
    if (add_label(col[3], &a.label))
        return;
    field_count += size;
    alt[alt_count++] = a;
    s->alt_count++;
}

void agent_shapes_add_line(char *line)
{
    char *col[6];
    if (!strncmp(line, "#shape\t", 7))
        add_shape(col, columns(line, col, 5));
    else if (!strncmp(line, "#alt\t", 5))
        add_alt(col, columns(line, col, 5));
}

const agent_shape *agent_shape_get(uint32_t id)
{
    if (id == 0 || id >= shape_cap || !shape[id].kind)
        return NULL;
    return &shape[id];
}

const agent_alt *agent_shape_alt(const agent_shape *s, uint32_t tag, uint64_t size)
{
    for (uint32_t i = 0; i < s->alt_count; i++) {
        const agent_alt *a = &alt[s->alt_first + i];
        if (a->tag == tag && a->size == size)
            return a;
    }
    return NULL;
}

uint32_t agent_alt_field(const agent_alt *a, uint64_t i)
{
    return field[a->field_first + i];
}

const char *agent_shape_label(uint32_t label_index)
{
    return label_index < label_count ? label[label_index] : "";
}

size_t agent_shape_label_count(void)
{
    return label_count;
}

void agent_shapes_reset(void)
{
    for (size_t i = 0; i < label_count; i++)
        free(label[i]);
    free(label);
    free(shape);
    free(alt);
    free(field);
    label = NULL;
    shape = NULL;
    alt = NULL;
    field = NULL;
    label_count = label_cap = shape_cap = alt_count = alt_cap = field_count = field_cap = 0;
    last_shape = 0;
}
