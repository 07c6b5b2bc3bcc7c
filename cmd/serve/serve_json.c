/* serve_json.c - the pieces of JSON every view of `leakfind serve` writes. */
#include <ctype.h>
#include <string.h>

#include "../../core/analysis/dup_strings.h"
#include "../../core/base/bsearch.h"
#include "../../core/model/root_text.h"
#include "../cli/output.h"
#include "../cli/string_preview.h"
#include "../report/report.h"
#include "serve.h"

void serve_json_str(FILE *f, const char *s, size_t len)
{
    out_write_json_string(f, s, len);
}

void serve_json_cstr(FILE *f, const char *s)
{
    out_write_json_string(f, s, strlen(s));
}

/* A string object's first characters, or nothing. */
static void write_preview(FILE *f, const lf_snapshot *s, uint32_t node)
{
    char text[4 * CLI_PREVIEW_CHARS + 8], cell[4 * sizeof text + 48];
    size_t len;
    uint64_t chars;
    if (!lf_string_preview(s, node, CLI_PREVIEW_CHARS, text, sizeof text, &len, &chars))
        return;
    uint64_t cut = chars > CLI_PREVIEW_CHARS ? chars - CLI_PREVIEW_CHARS : 0;
    fputs(",\"preview\":", f);
    serve_json_str(f, cell, cli_escape_text(text, len, cut, cell, sizeof cell));
}

void serve_json_object(FILE *f, const lf_snapshot *s, uint32_t node)
{
    fputs("{\"id\":", f);
    report_json_id(f, s, node);
    lf_str label = lf_snapshot_object_label(s, node);
    fputs(",\"label\":", f);
    serve_json_str(f, label.ptr, label.len);
    fprintf(f, ",\"cls\":%u,\"shallow\":%llu", s->object_class[node],
            (unsigned long long)lf_snapshot_shallow(s, node));
    if (lf_snapshot_has_retained(s))
        fprintf(f, ",\"retained\":%llu", (unsigned long long)lf_snapshot_retained(s, node));
    if (s->domtree_offset) {
        uint32_t children = s->domtree_offset[node + 1] - s->domtree_offset[node];
        fprintf(f, ",\"children\":%u", children);
    }
    const lf_place *p = lf_snapshot_place(s, node);
    if (p) {
        char place[1200];
        lf_str fn = lf_snapshot_string(s, p->name), script = lf_snapshot_string(s, p->script);
        int n = snprintf(place, sizeof place, "%.*s @ %.*s:%u:%u", fn.len ? (int)(fn.len > 500 ? 500 : fn.len) : 11,
                         fn.len ? fn.ptr : "(anonymous)", (int)(script.len > 600 ? 600 : script.len), script.ptr,
                         p->line + 1, p->column + 1);
        fputs(",\"place\":", f);
        serve_json_str(f, place, n < 0 ? 0 : (size_t)n < sizeof place ? (size_t)n : sizeof place - 1);
    }
    write_preview(f, s, node);
    fputc('}', f);
}

int serve_matches(lf_str text, const char *filter)
{
    size_t n = filter ? strlen(filter) : 0;
    if (n == 0)
        return 1;
    for (size_t i = 0; i + n <= text.len; i++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)text.ptr[i + k]) == tolower((unsigned char)filter[k]))
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

void serve_json_root_of(FILE *f, const serve_snapshot *snap, uint32_t node)
{
    const lf_snapshot *s = &snap->s;
    uint64_t at = lf_lower_bound_u64(snap->root_index, s->root_count, (uint64_t)node << 32);
    if (at >= s->root_count || snap->root_index[at] >> 32 != node)
        return;
    char text[1024];
    size_t n = lf_root_text(s, (uint32_t)snap->root_index[at], text, sizeof text);
    fputs(",\"root\":", f);
    serve_json_str(f, text, n);
}
