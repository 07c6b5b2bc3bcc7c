/* view_threads.c - /api/threads: each thread, largest retained first, with
 * its frames that hold locals, innermost first (MAT's thread overview,
 * `leakfind threads`): a frame's function, file and line read from its
 * label, "frame N: Class.method (File.java:LINE)", and what its locals
 * retain. A dump that keeps no stacks (V8, .NET) answers no rows and a
 * note. The set is small (threads and their frames): found per request. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/threads.h"
#include "../report/report.h"
#include "serve.h"

/* A frame label's parts: "frame N: FUNCTION (FILE:LINE...)"; a label of
 * another shape is all function. */
static void write_frame(FILE *f, const lf_snapshot *s, const lf_stack_frame *fr)
{
    char label[1024];
    size_t len = lf_thread_frame_label(s, fr, label, sizeof label);
    const char *fn = label, *end = label + len;
    const char *colon = memchr(label, ':', len);
    if (len > 6 && memcmp(label, "frame ", 6) == 0 && colon && colon + 2 <= end)
        fn = colon + 2;
    const char *open = NULL, *file = NULL, *file_end = NULL;
    unsigned long line = 0;
    for (const char *p = end - 1; len && p > fn && end[-1] == ')' && !open; p--)
        open = p[-1] == ' ' && p[0] == '(' ? p : NULL;
    if (open) {
        file = open + 1, file_end = end - 1;
        for (const char *p = file; p < file_end; p++)
            if (*p == ':' && p + 1 < file_end && p[1] >= '0' && p[1] <= '9') {
                line = strtoul(p + 1, NULL, 10);
                file_end = p;
                break;
            }
    }
    fputs("{\"function\":", f);
    serve_json_str(f, fn, (size_t)((open ? open - 1 : end) - fn));
    fputs(",\"file\":", f);
    serve_json_str(f, file ? file : "", file ? (size_t)(file_end - file) : 0);
    fprintf(f, ",\"line\":%lu,\"number\":%u,\"retained\":%llu,\"locals\":%u}", line, fr->number,
            (unsigned long long)fr->retained, fr->local_count);
}

static void write_thread(FILE *f, const lf_snapshot *s, const lf_thread_set *set, const lf_thread *t)
{
    lf_str name = lf_snapshot_string(s, t->name);
    fputs("{\"id\":", f);
    report_json_id(f, s, t->node); /* null: an OCaml thread has no object */
    fputs(",\"name\":", f);
    serve_json_str(f, name.ptr, t->name_len < name.len ? t->name_len : name.len);
    fprintf(f, ",\"retained\":%llu,\"frames\":[", (unsigned long long)t->retained);
    for (uint32_t i = 0; i < t->frame_count; i++) {
        fputs(i ? ",\n" : "\n", f);
        write_frame(f, s, &set->frame[t->first_frame + i]);
    }
    fputs("]}", f);
}

int serve_view_threads(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    lf_thread_set set;
    lf_error err;
    if (lf_threads_find(s, &set, &err))
        return serve_failf(fail, 500, "listing threads: %.400s", err.reason);
    fputs("{\"rows\":[", out);
    for (uint32_t i = 0; i < set.count; i++) {
        fputs(i ? ",\n" : "\n", out);
        write_thread(out, s, &set, &set.thread[i]);
    }
    fputs("]", out);
    if (set.count == 0) {
        fputs(",\"note\":", out);
        serve_json_cstr(out, s->source_format == LF_FORMAT_V8 || s->source_format == LF_FORMAT_GCDUMP
                                 ? "this dump keeps no threads: V8 and .NET dumps record no stacks"
                                 : "this dump has no threads with stacks");
    }
    fputs("}\n", out);
    lf_threads_free(&set);
    return 0;
}
