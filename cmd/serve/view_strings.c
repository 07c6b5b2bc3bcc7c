/* view_strings.c - /api/strings: texts held by two or more string objects,
 * most wasted first (MAT's duplicate strings, `leakfind strings`), a page
 * at a time; each row names one copy (the group's lowest node) for the
 * page's link to it. A dump that keeps no texts (an .lfs, a cache, an
 * OCaml snapshot, a .gcdump) answers no rows and a note why. The groups
 * are found once per snapshot (serve_calltree.c). */
#include <string.h>

#include "../report/report.h"
#include "serve.h"

enum { TEXT_CHARS = 200 };

static void write_text(FILE *f, const lf_snapshot *s, uint32_t node)
{
    char buf[4 * TEXT_CHARS + 48];
    uint64_t chars;
    size_t len = lf_string_text(s, node, TEXT_CHARS, buf, 4 * TEXT_CHARS + 1, &chars);
    if (chars > TEXT_CHARS) {
        int n = snprintf(buf + len, sizeof buf - len, " [... %llu more chars]",
                         (unsigned long long)(chars - TEXT_CHARS));
        len += n > 0 && (size_t)n < sizeof buf - len ? (size_t)n : 0;
    }
    serve_json_str(f, buf, len);
}

static void write_group(FILE *f, const lf_snapshot *s, const lf_string_set *set, const lf_dup_group *g)
{
    uint32_t node = set->str[g->first].node;
    fputs("{\"text\":", f);
    write_text(f, s, node);
    fprintf(f, ",\"count\":%u,\"bytes\":%llu,\"wasted\":%llu,\"chars\":%llu,\"id\":", g->copies,
            (unsigned long long)g->bytes, (unsigned long long)g->wasted, (unsigned long long)set->str[g->first].chars);
    report_json_id(f, s, node);
    fputs(",\"owner\":", f);
    if (g->owner_class == UINT32_MAX) {
        fputs("\"(root)\"", f);
    } else {
        lf_str name = lf_snapshot_class_name(s, g->owner_class);
        serve_json_str(f, name.ptr, name.len);
    }
    fputs("}", f);
}

/* Why a dump has no texts, as `leakfind strings` says it. */
static const char *no_texts(const lf_snapshot *s)
{
    if (s->source_format == LF_FORMAT_GCDUMP)
        return "this dump keeps no string texts: a .gcdump records each string's size, not its characters";
    return "this dump keeps no string texts: duplicate strings need the HPROF dump or the V8 snapshot itself "
           "(not an .lfs, a cache or an OCaml snapshot)";
}

int serve_view_strings(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint64_t from, count;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_page(rq, &from, &count, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    if (!lf_strings_readable(s)) {
        fputs("{\"rows\":[],\"total\":0,\"note\":", out);
        serve_json_cstr(out, no_texts(s));
        fputs("}\n", out);
        return 0;
    }
    if (serve_need_strings(site, snap, fail))
        return -1;
    const lf_string_set *set = &snap->strings;
    fprintf(out, "{\"from\":%llu,\"rows\":[", (unsigned long long)from);
    for (uint64_t i = from; i < set->group_count && i < from + count; i++) {
        fputs(i > from ? ",\n" : "\n", out);
        write_group(out, s, set, &set->group[i]);
    }
    fprintf(out, "],\"total\":%llu}\n", (unsigned long long)set->group_count);
    return 0;
}
