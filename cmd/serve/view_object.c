/* view_object.c - one object: /api/object its values as `inspect` shows
 * them (fields, statics, elements, a closure's context, a collection's
 * entries) and where it was allocated; /api/referrers who points at it, a
 * page of holders at a time; /api/paths its shortest path from a GC root,
 * through weak references only when asked (MAT's "exclude weak/soft
 * references" unticked), or up to 10 paths no two of which share an
 * object (`path --all`). */
#include <stdlib.h>
#include <string.h>

#include "../../core/model/edge_batch.h"
#include "../inspect/inspect_rows.h"
#include "serve.h"

enum { MAX_CHARS = 100000, MAX_DISJOINT = 10, PATH_SHOWN = 100 };

/* JSON Lines (one object a line) as the items of an array. */
static void write_lines_as_array(FILE *f, const char *lines, size_t len)
{
    fputc('[', f);
    int first = 1;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(lines + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - lines) : len;
        if (end > at) {
            fputs(first ? "\n" : ",\n", f);
            fwrite(lines + at, 1, end - at, f);
            first = 0;
        }
        at = end + 1;
    }
    fputc(']', f);
}

/* The inspect rows of node, as an array. 0, or -1 with fail set. */
static int write_inspect_rows(FILE *f, const serve_snapshot *snap, uint32_t node, uint64_t elements, uint64_t chars,
                              serve_fail *fail)
{
    inspect_ctx c = {NULL, &snap->s, chars, elements, NULL, 0, NULL, 0};
    c.text_cap = 4 * chars + 8;
    c.cell_cap = 4 * c.text_cap + 64;
    c.text = malloc(c.text_cap);
    c.cell = malloc(c.cell_cap);
    char *lines = NULL;
    size_t len = 0;
    FILE *mem = c.text && c.cell ? open_memstream(&lines, &len) : NULL;
    int rc = mem ? 0 : -1;
    if (mem) {
        c.w = out_begin(mem, OUT_JSON, inspect_columns, INSPECT_COLUMNS);
        rc = inspect_header_rows(&c, node) || inspect_value_rows(&c, node, snap->path) ? -1 : 0;
        out_end(c.w);
        rc = fclose(mem) || rc ? -1 : 0;
    }
    if (rc == 0)
        write_lines_as_array(f, lines, len);
    free(lines), free(c.text), free(c.cell);
    return rc ? serve_failf(fail, 500, "could not read the object's values (out of memory, or a damaged dump)") : 0;
}

/* Where it was allocated, innermost frame first; nothing when not recorded. */
static void write_site(FILE *f, const lf_snapshot *s, uint32_t node)
{
    if (!s->object_site || s->object_site[node] == LF_SITE_NONE || s->object_site[node] >= s->site_count)
        return;
    fputs(",\"site\":[", f);
    /* a caller is always a smaller site number: the walk ends */
    for (uint32_t site = s->object_site[node], k = 0; site != LF_SITE_NONE && site < s->site_count;
         site = s->site[site].caller < site ? s->site[site].caller : LF_SITE_NONE, k++) {
        const lf_frame *fr = s->site[site].frame < s->frame_count ? &s->frame[s->site[site].frame] : NULL;
        if (!fr)
            break;
        lf_str fn = lf_snapshot_string(s, fr->function), file = lf_snapshot_string(s, fr->file);
        fputs(k ? ",{\"function\":" : "{\"function\":", f);
        serve_json_str(f, fn.ptr, fn.len);
        fputs(",\"file\":", f);
        serve_json_str(f, file.ptr, file.len);
        fprintf(f, ",\"line\":%u,\"column\":%u}", fr->line, fr->column);
    }
    fputs("]", f);
}

int serve_view_object(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint32_t node;
    uint64_t elements, chars;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_node(snap, rq, "id", 0, &node, fail) ||
        serve_arg_count(rq, "elements", 100, SERVE_PAGE_MAX, &elements, fail) ||
        serve_arg_count(rq, "chars", 1000, MAX_CHARS, &chars, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    fputs("{\"object\":", out);
    serve_json_object(out, s, node);
    serve_json_root_of(out, snap, node);
    fprintf(out, ",\"reachable\":%s,\"fieldNames\":%s", s->idom[node] != LF_NODE_NONE ? "true" : "false",
            s->flags & LF_SNAP_NO_FIELD_NAMES ? "false" : "true");
    write_site(out, s, node);
    fputs(",\"rows\":", out);
    if (write_inspect_rows(out, snap, node, elements, chars, fail))
        return -1;
    fputs("}\n", out);
    return 0;
}

/* A page of the distinct objects with an edge to node; the field of each
 * (a strong edge when it has one). */
int serve_view_referrers(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint32_t node;
    uint64_t from, count;
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_node(snap, rq, "id", 0, &node, fail) ||
        serve_arg_page(rq, &from, &count, fail) ||
        serve_need_reverse(snap, fail))
        return -1;
    const lf_snapshot *s = &snap->s;
    const lf_reverse *rev = &snap->rev;
    lf_edge_question *q = malloc((count + 1) * sizeof *q);
    lf_edge_answer *a = malloc((count + 1) * sizeof *a);
    uint64_t holders = 0;
    size_t asked = 0;
    uint32_t last = LF_NODE_NONE;
    for (uint64_t i = lf_reverse_begin(rev, node); q && a && i < lf_reverse_end(rev, node); i++) {
        uint32_t v = lf_edge_node(rev->source[i]);
        if (v == last)
            continue;
        last = v;
        if (holders++ >= from && asked < count)
            q[asked++] = (lf_edge_question){v, node};
    }
    if (!q || !a || lf_edge_batch_answer(s, q, asked, a)) {
        free(q), free(a);
        return serve_failf(fail, 500, "out of memory");
    }
    fprintf(out, "{\"from\":%llu,\"total\":%llu,\"rows\":[", (unsigned long long)from, (unsigned long long)holders);
    for (size_t k = 0; k < asked; k++) {
        char label[1024];
        size_t n = a[k].flags & LF_HOP_FOUND ? lf_snapshot_label_text(s, a[k].kind, a[k].label, label, sizeof label) : 0;
        fputs(k ? ",\n{\"object\":" : "\n{\"object\":", out);
        serve_json_object(out, s, q[k].from);
        fputs(",\"field\":", out);
        serve_json_str(out, label, n);
        fprintf(out, ",\"weak\":%s}", a[k].flags & LF_HOP_WEAK ? "true" : "false");
    }
    fputs("]}\n", out);
    free(q), free(a);
    return 0;
}

/* One path, root object first: each hop with the field holding it. A path
 * longer than PATH_SHOWN hops (down a million-node linked list) shows its
 * two ends and, between them, {"elided": N}: the page needs where it starts
 * and where it ends, not 140 MB of links. */
static int write_path(FILE *f, const serve_snapshot *snap, const uint32_t *hops, int64_t len)
{
    const lf_snapshot *s = &snap->s;
    int64_t head = len > PATH_SHOWN ? PATH_SHOWN / 2 : len, tail_from = len > PATH_SHOWN ? len - PATH_SHOWN / 2 : len;
    lf_edge_question *q = malloc((PATH_SHOWN + 1) * sizeof *q);
    lf_edge_answer *a = malloc((PATH_SHOWN + 1) * sizeof *a);
    size_t asked = 0;
    for (int64_t k = 1; q && a && k < len; k++)
        if (k < head || k >= tail_from)
            q[asked++] = (lf_edge_question){hops[k - 1], hops[k]};
    if (!q || !a || lf_edge_batch_answer(s, q, asked, a)) {
        free(q), free(a);
        return -1;
    }
    fputs("[", f);
    for (int64_t k = 0, answer = 0; k < len; k++) {
        if (k == head && k < tail_from) {
            fprintf(f, ",\n{\"elided\":%lld}", (long long)(tail_from - head));
            k = tail_from - 1;
            continue;
        }
        fputs(k ? ",\n{\"object\":" : "\n{\"object\":", f);
        serve_json_object(f, s, hops[k]);
        if (k == 0) {
            serve_json_root_of(f, snap, hops[0]);
        } else {
            char label[1024];
            lf_edge_answer x = a[answer++];
            size_t n = x.flags & LF_HOP_FOUND ? lf_snapshot_label_text(s, x.kind, x.label, label, sizeof label) : 0;
            fputs(",\"field\":", f);
            serve_json_str(f, label, n);
            fprintf(f, ",\"weak\":%s", x.flags & LF_HOP_WEAK ? "true" : "false");
        }
        fputs("}", f);
    }
    fputs("]", f);
    free(q), free(a);
    return 0;
}

/* The searches, under the snapshot's lock (their work arrays are shared):
 * the shortest path, then with all, more that avoid the objects of the
 * earlier ones (a root holding the target directly is used up). The
 * number of paths, or -1 (memory). */
static int write_paths(FILE *f, serve_snapshot *snap, uint32_t node, unsigned flags, int all, uint32_t *hops)
{
    uint32_t blocked[MAX_DISJOINT * 64];
    unsigned nblocked = 0, written = 0;
    int rc = 0;
    fputs("[", f);
    pthread_mutex_lock(&snap->path_lock);
    int64_t len = lf_shortest_root_path(&snap->ps, node, flags, NULL, NULL, hops);
    for (unsigned number = 1; len > 0 && rc == 0; number++) {
        fputs(number > 1 ? "," : "", f);
        rc = write_path(f, snap, hops, len);
        written++;
        if (!all || number == MAX_DISJOINT || len == 1)
            break;
        for (int64_t k = 0; k + 1 < len && nblocked < sizeof blocked / sizeof blocked[0]; k++) {
            snap->ps.blocked[hops[k]] = len == 2 ? 2 : 1;
            blocked[nblocked++] = hops[k];
        }
        len = lf_shortest_root_path(&snap->ps, node, flags, NULL, NULL, hops);
    }
    for (unsigned k = 0; k < nblocked; k++)
        snap->ps.blocked[blocked[k]] = 0;
    pthread_mutex_unlock(&snap->path_lock);
    fputs("]", f);
    return rc ? -1 : (int)written;
}

int serve_view_paths(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint32_t node;
    if (serve_arg_text(rq, "cls")) /* a class's largest instances, merged */
        return serve_paths_merged(site, rq, out, fail);
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_node(snap, rq, "id", 0, &node, fail) ||
        serve_need_reverse(snap, fail))
        return -1;
    const char *weak_arg = serve_arg_text(rq, "weak");
    int weak = weak_arg && strcmp(weak_arg, "0") != 0;
    int all = serve_arg_text(rq, "all") != NULL && strcmp(serve_arg_text(rq, "all"), "0") != 0;
    uint32_t *hops = malloc(((size_t)snap->s.object_count + 1) * sizeof *hops);
    if (!hops)
        return serve_failf(fail, 500, "out of memory");
    /* strong references only, unless asked; with none, the weak path is
     * shown and said to be one (it does not keep the object alive) */
    fprintf(out, "{\"followWeak\":%s,\"strong\":", weak ? "true" : "false");
    int rc = write_paths(out, snap, node, weak ? LF_PATH_FOLLOW_WEAK : 0, all, hops);
    if (rc == 0 && !weak) {
        fputs(",\"weakOnly\":", out);
        rc = write_paths(out, snap, node, LF_PATH_FOLLOW_WEAK, 0, hops);
    }
    fputs("}\n", out);
    free(hops);
    return rc < 0 ? serve_failf(fail, 500, "out of memory") : 0;
}
