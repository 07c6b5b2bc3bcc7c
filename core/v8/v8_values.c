/* v8_values.c - see v8_values.h. */
#include "v8_values.h"

#include <stdlib.h>

#include "v8_internal.h"

_Static_assert((int)LF_V8N_OTHER == (int)V8N_OTHER && (int)LF_V8N_CLOSURE == (int)V8N_CLOSURE && (int)LF_V8N_NUMBER == (int)V8N_NUMBER &&
                   (int)LF_V8N_SLICED_STRING == (int)V8N_SLICED_STRING,
               "node types mirror v8_internal.h");
_Static_assert((int)LF_V8E_OTHER == (int)V8E_OTHER && (int)LF_V8E_CONTEXT == (int)V8E_CONTEXT && (int)LF_V8E_WEAK == (int)V8E_WEAK,
               "edge types mirror v8_internal.h");

const struct v8_lazy *lf_v8_lazy(const lf_snapshot *s)
{
    if (!s->lazy || s->format != LF_FORMAT_V8 || !v8_lazy_is(s->lazy))
        return NULL;
    return s->lazy->ctx;
}

typedef struct asked {
    uint32_t node;
    size_t at;
} asked;

static int by_node(const void *a, const void *b)
{
    uint32_t x = ((const asked *)a)->node, y = ((const asked *)b)->node;
    return x < y ? -1 : x > y;
}

int lf_v8_node_names(const v8_lazy *l, const lf_snapshot *s, const uint32_t *node, size_t n, uint32_t *name,
                     uint8_t *type, lf_error *err)
{
    if (n == 0)
        return 0;
    asked *ask = malloc(n * sizeof *ask);
    if (!ask)
        return lf_fail_nomem(err, "reading node names");
    for (size_t i = 0; i < n; i++) {
        ask[i] = (asked){node[i], i};
        name[i] = 0;
        type[i] = V8N_OTHER;
    }
    qsort(ask, n, sizeof *ask, by_node);
    uint64_t p = l->nodes_at, value[V8_MAX_FIELDS];
    size_t next = 0;
    for (uint32_t row = 0; row < s->object_count && next < n; row++) {
        /* a node asked for far ahead: from the noted row before it */
        uint64_t noted = ask[next].node / V8_ROW_STEP;
        if (ask[next].node >= row + V8_ROW_STEP && l->node_row_at && l->node_row_at[noted]) {
            row = (uint32_t)(noted * V8_ROW_STEP);
            p = l->node_row_at[noted];
        }
        for (unsigned f = 0; f < l->node_fields; f++)
            value[f] = v8_next_number(l->data, l->size, &p);
        for (; next < n && ask[next].node == row; next++) {
            uint64_t t = value[l->node_type_field], k = value[l->node_name_field];
            type[ask[next].at] = t < l->node_type_count ? l->node_type_kind[t] : V8N_OTHER;
            name[ask[next].at] = k < l->string_count ? V8_STRING_BASE + (uint32_t)k : l->missing_name;
        }
    }
    free(ask);
    return 0;
}

void lf_v8_edge_types(const v8_lazy *l, uint64_t first, uint64_t end, uint8_t *type)
{
    uint64_t value[V8_MAX_FIELDS];
    for (v8_row_cursor c = v8_rows_from(l, first); c.row < end;) {
        uint64_t row = c.row;
        v8_rows_next(l, &c, value);
        if (row >= first) {
            uint64_t t = value[l->type_field];
            type[row - first] = t < l->type_count ? l->type_kind[t] : V8E_OTHER;
        }
    }
}

const char *lf_v8_edge_type_name(uint8_t type)
{
    static const char *const names[] = {"context", "element", "property", "internal",
                                        "hidden", "shortcut", "weak", "other"};
    return names[type < V8E_OTHER ? type : V8E_OTHER];
}

const char *lf_v8_node_type_name(uint8_t type)
{
    static const char *const names[] = {"hidden", "array", "string", "object", "code", "closure",
                                        "regexp", "number", "native", "synthetic", "concatenated string",
                                        "sliced string", "symbol", "bigint", "object shape", "other"};
    return names[type < V8N_OTHER ? type : V8N_OTHER];
}
