/* inspect_v8.c - `inspect` on a V8 snapshot: an object's properties and
 * elements by their edge names and V8's edge types, strings and numbers by
 * the text V8 gives them as node names, and a closure's context: the
 * variables it captured (core/v8/v8_values.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/v8/v8_values.h"
#include "../cli/cli.h"
#include "inspect_rows.h"

static int is_text(uint8_t type)
{
    return type == LF_V8N_STRING || type == LF_V8N_CONS_STRING || type == LF_V8N_SLICED_STRING;
}

/* The value cell of a node: a string's text (cut at max_string characters)
 * or a number's; 0 for any other node. */
static size_t name_cell(const inspect_ctx *c, uint32_t name, uint8_t type)
{
    if (!is_text(type) && type != LF_V8N_NUMBER)
        return 0;
    lf_str text = lf_snapshot_string(c->s, name);
    size_t keep = 0;
    uint64_t chars = 0, cut = 0;
    for (size_t i = 0; i < text.len; i++)
        if (((unsigned char)text.ptr[i] & 0xc0) != 0x80 && chars++ >= c->max_string) {
            cut++;
        } else if (!cut) {
            keep = i + 1;
        }
    return cli_escape_text(text.ptr, keep, cut, c->cell, c->cell_cap);
}

/* With exposeNumericValues, a number node is named "smi number" or "heap
 * number" and holds its value as the name of a string its internal edge
 * "value" leads to: such numbers take that name (one more pass for all). */
static int number_values(const inspect_ctx *c, const struct v8_lazy *l, const uint32_t *target, uint64_t count,
                         uint32_t *name, const uint8_t *type)
{
    const lf_snapshot *s = c->s;
    uint32_t *value = calloc(count + 1, sizeof *value), *value_name = calloc(count + 1, sizeof *value_name);
    uint64_t *at = malloc((count + 1) * sizeof *at);
    uint8_t *value_type = malloc(count + 1);
    size_t asked = 0;
    char label[64];
    lf_error err = {0};
    int rc = value && value_name && at && value_type ? EXIT_OK : EXIT_SYSTEM;
    for (uint64_t i = 0; i < count && rc == EXIT_OK; i++) {
        if (type[i] != LF_V8N_NUMBER)
            continue;
        for (uint64_t e = lf_snapshot_edges_begin(s, target[i]); e < lf_snapshot_edges_end(s, target[i]); e++)
            if (lf_snapshot_edge_label(s, e, label, sizeof label) == 5 && memcmp(label, "value", 5) == 0) {
                value[asked] = lf_edge_node(s->edge_target[e]);
                at[asked++] = i;
                break;
            }
    }
    if (rc == EXIT_OK && lf_v8_node_names(l, s, value, asked, value_name, value_type, &err))
        rc = EXIT_SYSTEM;
    for (size_t k = 0; k < asked && rc == EXIT_OK; k++)
        if (value_type[k] == LF_V8N_STRING)
            name[at[k]] = value_name[k];
    free(value), free(value_name), free(at), free(value_type);
    return rc;
}

/* The edges of node (section "context" for a closure's context), and the
 * node a closure's internal edge "context" leads to in *context. */
static int edge_rows(const inspect_ctx *c, const struct v8_lazy *l, uint32_t node, const char *section,
                     uint32_t *context)
{
    const lf_snapshot *s = c->s;
    uint64_t first = lf_snapshot_edges_begin(s, node), count = lf_snapshot_edges_end(s, node) - first, elements = 0;
    uint8_t *type = malloc(count + 1), *target_type = malloc(count + 1);
    uint32_t *target = malloc((count + 1) * sizeof *target), *name = malloc((count + 1) * sizeof *name);
    lf_error err = {0};
    if (!type || !target_type || !target || !name) {
        free(type), free(target_type), free(target), free(name);
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    for (uint64_t i = 0; i < count; i++)
        target[i] = lf_edge_node(s->edge_target[first + i]);
    lf_v8_edge_types(l, first, first + count, type);
    int rc = lf_v8_node_names(l, s, target, count, name, target_type, &err) ? EXIT_SYSTEM : EXIT_OK;
    if (rc == EXIT_OK)
        rc = number_values(c, l, target, count, name, target_type);
    char label[4096];
    for (uint64_t i = 0; i < count && rc == EXIT_OK; i++) {
        uint8_t kind;
        uint32_t raw;
        lf_snapshot_edge_info(s, first + i, &kind, &raw);
        int element = type[i] == LF_V8E_ELEMENT || type[i] == LF_V8E_HIDDEN;
        if (element && elements++ >= c->elements)
            continue;
        size_t n = lf_snapshot_label_text(s, kind, raw, label, sizeof label);
        if (type[i] == LF_V8E_INTERNAL && n == 7 && memcmp(label, "context", 7) == 0)
            *context = target[i];
        size_t v = name_cell(c, name[i], target_type[i]);
        inspect_cells(c, element ? "element" : section, element ? raw : UINT64_MAX, label, n,
                      lf_v8_edge_type_name(type[i]), v ? c->cell : NULL, v);
        inspect_object(c, target[i]);
        out_row_end(c->w);
    }
    if (rc == EXIT_OK && elements > c->elements) {
        snprintf(label, sizeof label, "%llu more elements (--elements N or --all)",
                 (unsigned long long)(elements - c->elements));
        inspect_note(c, label);
    }
    if (rc != EXIT_OK)
        cli_message("error", "out of memory");
    free(type), free(target_type), free(target), free(name);
    return rc;
}

int inspect_v8_values(const inspect_ctx *c, uint32_t node, const char *path)
{
    (void)path;
    const struct v8_lazy *l = lf_v8_lazy(c->s);
    if (!l) {
        inspect_note(c, "values are read from the snapshot itself: a cached or converted analysis has none");
        return inspect_plain_edges(c, node);
    }
    uint32_t name, context = LF_NODE_NONE, ignored = LF_NODE_NONE;
    uint8_t type;
    lf_error err = {0};
    if (lf_v8_node_names(l, c->s, &node, 1, &name, &type, &err)) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    int rc = edge_rows(c, l, node, "field", &context);
    if (rc == EXIT_OK && type == LF_V8N_CLOSURE && context != LF_NODE_NONE)
        rc = edge_rows(c, l, context, "context", &ignored);
    return rc;
}

size_t inspect_v8_text(const inspect_ctx *c, uint32_t node, char *out, size_t size, const char **kind)
{
    const struct v8_lazy *l = lf_v8_lazy(c->s);
    uint32_t name;
    uint8_t type;
    lf_error err = {0};
    *kind = NULL;
    if (!l || lf_v8_node_names(l, c->s, &node, 1, &name, &type, &err))
        return 0;
    *kind = lf_v8_node_type_name(type);
    if (number_values(c, l, &node, 1, &name, &type) != EXIT_OK)
        return 0;
    size_t n = name_cell(c, name, type);
    if (n >= size)
        n = size - 1;
    memcpy(out, c->cell, n);
    return n;
}
