/* inspect_rows.c - see inspect_rows.h: the cells every section shares and
 * the rows of formats without values (.lfs, text graphs), the header rows
 * and the values by format. */
#include "inspect_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/v8/v8_values.h"
#include "../cli/cli.h"
#include "../cli/string_preview.h"

const out_column inspect_columns[INSPECT_COLUMNS] = {
    {"section", OUT_STR, LF_CUT_END, OUT_NORMAL},
    {"index", OUT_U64, LF_CUT_END, OUT_SECONDARY},
    {"name", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"kind", OUT_STR, LF_CUT_PATH, OUT_SECONDARY},
    {"value", OUT_STR, LF_CUT_END, OUT_KEY},
    {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
    {"class", OUT_STR, LF_CUT_CLASS, OUT_NORMAL},
    {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"location", OUT_STR_SOMETIMES, LF_CUT_END, OUT_NORMAL},
};

void inspect_cells(const inspect_ctx *c, const char *section, uint64_t index, const char *name, size_t name_len,
                   const char *kind, const char *value, size_t value_len)
{
    out_cstr(c->w, section);
    if (index == UINT64_MAX)
        out_null(c->w);
    else
        out_u64(c->w, index);
    if (name)
        out_str(c->w, name, name_len);
    else
        out_null(c->w);
    if (kind)
        out_cstr(c->w, kind);
    else
        out_null(c->w);
    if (value)
        out_str(c->w, value, value_len);
    else
        out_null(c->w);
}

void inspect_object(const inspect_ctx *c, uint32_t node)
{
    const lf_snapshot *s = c->s;
    if (node >= s->object_count) {
        for (int i = 0; i < 5; i++)
            out_null(c->w);
        return;
    }
    cli_write_id(c->w, s, node);
    lf_str label = lf_snapshot_object_label(s, node);
    out_str(c->w, label.ptr, label.len);
    out_bytes(c->w, lf_snapshot_shallow(s, node));
    if (lf_snapshot_has_retained(s) && s->idom && s->idom[node] != LF_NODE_NONE)
        out_bytes(c->w, lf_snapshot_retained(s, node));
    else
        out_null(c->w);
    cli_write_place(c->w, s, node, INSPECT_COLUMNS - 1);
}

void inspect_note(const inspect_ctx *c, const char *text)
{
    inspect_cells(c, "note", UINT64_MAX, NULL, 0, NULL, text, strlen(text));
    inspect_object(c, LF_NODE_NONE);
    out_row_end(c->w);
}

static const char *kind_name(uint8_t kind)
{
    switch (kind) {
    case LF_EDGE_KIND_FIELD: return "field";
    case LF_EDGE_KIND_ELEMENT: return "element";
    case LF_EDGE_KIND_INTERNAL: return "internal";
    default: return NULL;
    }
}

/* What the kind cell says of edge e: the source's own edge type when the
 * snapshot kept it (a file converted from V8 says "property" where V8 did),
 * else weak or the lf kind. */
static const char *edge_kind_cell(const lf_snapshot *s, uint64_t e, uint8_t kind)
{
    uint8_t type;
    if (s->source_format == LF_FORMAT_V8 && lf_snapshot_edge_types(s, e, e + 1, &type))
        return lf_v8_edge_type_name(type);
    return lf_edge_is_weak(s->edge_target[e]) ? "weak" : kind_name(kind);
}

int inspect_plain_edges(const inspect_ctx *c, uint32_t node)
{
    const lf_snapshot *s = c->s;
    inspect_note(c, (s->flags & LF_SNAP_NO_FIELD_NAMES)
                        ? "a .gcdump records references only: no field names, no values"
                    : s->text_count ? "this file keeps references and strings' texts, no other values"
                                    : "this format has references only, no values");
    uint64_t first = lf_snapshot_edges_begin(s, node), last = lf_snapshot_edges_end(s, node), shown = 0;
    char label[4096], text[CLI_PREVIEW_CELL];
    size_t text_len = 0;
    for (uint64_t e = first; e < last; e++) {
        uint8_t kind;
        uint32_t raw;
        lf_snapshot_edge_info(s, e, &kind, &raw);
        if (kind == LF_EDGE_KIND_ELEMENT && shown++ >= c->elements)
            continue;
        size_t n = lf_snapshot_label_text(s, kind, raw, label, sizeof label);
        const char *k = edge_kind_cell(s, e, kind);
        /* a kept text (a .NET core's strings) as its referrer's value */
        int has_text = s->text_count && cli_string_preview_text(s, lf_edge_node(s->edge_target[e]), text, &text_len);
        inspect_cells(c, kind == LF_EDGE_KIND_ELEMENT ? "element" : "edge",
                      kind == LF_EDGE_KIND_ELEMENT ? raw : UINT64_MAX, label, n, k, has_text ? text : NULL,
                      has_text ? text_len : 0);
        inspect_object(c, lf_edge_node(s->edge_target[e]));
        out_row_end(c->w);
    }
    if (shown > c->elements) {
        snprintf(label, sizeof label, "%llu more elements (--elements N or --all)",
                 (unsigned long long)(shown - c->elements));
        inspect_note(c, label);
    }
    return EXIT_OK;
}

/* The object row and its dominator's; -1 when out of memory. */
int inspect_header_rows(const inspect_ctx *c, uint32_t node)
{
    const lf_snapshot *s = c->s;
    char *text = malloc(c->cell_cap);
    const char *kind = NULL;
    size_t n = 0;
    if (!text)
        return -1; /* an object row without its value would pass for complete */
    if (s->format == LF_FORMAT_HPROF)
        n = inspect_hprof_text(c, node, text, c->cell_cap, &kind);
    else if (s->format == LF_FORMAT_V8)
        n = inspect_v8_text(c, node, text, c->cell_cap, &kind);
    inspect_cells(c, "object", UINT64_MAX, NULL, 0, kind, n ? text : NULL, n);
    inspect_object(c, node);
    out_row_end(c->w);
    free(text);
    uint32_t idom = s->idom ? s->idom[node] : LF_NODE_NONE;
    const char *what = idom == LF_NODE_SUPER ? "none: held by GC roots alone"
                       : idom == LF_NODE_NONE ? "none: unreachable" : NULL;
    inspect_cells(c, "dominator", UINT64_MAX, NULL, 0, what, NULL, 0);
    inspect_object(c, idom < s->object_count ? idom : LF_NODE_NONE);
    out_row_end(c->w);
    return 0;
}

int inspect_value_rows(const inspect_ctx *c, uint32_t node, const char *path)
{
    int rc = c->s->format == LF_FORMAT_HPROF ? inspect_hprof_values(c, node, path)
             : c->s->format == LF_FORMAT_V8  ? inspect_v8_values(c, node, path)
                                             : inspect_plain_edges(c, node);
    if (rc == 0 && c->s->format == LF_FORMAT_HPROF)
        rc = inspect_collection(c, node);
    else if (rc == 0 && c->s->format == LF_FORMAT_V8)
        rc = inspect_v8_collection(c, node);
    else if (rc == 0)
        rc = inspect_dotnet_collection(c, node);
    return rc;
}
