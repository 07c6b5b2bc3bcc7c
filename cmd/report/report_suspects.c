/* report_suspects.c - the page's leak suspects (core/analysis/suspects.h): per
 * finding its kind, object and class, what it retains, where its memory
 * piles up and what piles up there, the growth rate for a series, and the
 * shortest path from a GC root to the accumulation point with each hop's
 * field. */
#include <stdlib.h>
#include <string.h>

#include "../../core/model/edge_batch.h"
#include "../../core/analysis/suspects.h"
#include "../cli/dom_roots.h"
#include "report.h"

static const char *kind_name(lf_suspect_kind k)
{
    return k == LF_SUSPECT_GROWTH ? "growth" : k == LF_SUSPECT_OBJECT ? "object" : "class";
}

/* One object: {"label", "id", "retained"}. */
static void write_object(FILE *f, const lf_snapshot *s, uint32_t v)
{
    fputs("{\"label\":", f);
    report_json_cut(f, lf_snapshot_object_label(s, v), REPORT_TREE_LABEL_MAX);
    fputs(",\"id\":", f);
    report_json_id(f, s, v);
    fprintf(f, ",\"retained\":%llu}", (unsigned long long)lf_snapshot_retained(s, v));
}

static void write_accumulation(FILE *f, const lf_snapshot *s, const lf_accumulation *a)
{
    if (a->point >= s->object_count) {
        fputs("null", f);
        return;
    }
    fputs("{\"point\":", f);
    write_object(f, s, a->point);
    fputs(",\"class\":", f);
    if (a->cls == LF_NODE_NONE)
        fputs("null", f);
    else
        report_json_label(f, lf_snapshot_class_name(s, a->cls));
    fprintf(f, ",\"count\":%llu,\"bytes\":%llu%s", (unsigned long long)a->count, (unsigned long long)a->bytes,
            a->entries == LF_ACC_ENTRIES    ? ",\"entries\":true"
            : a->entries == LF_ACC_ELEMENTS ? ",\"elements\":true"
                                            : "");
    if (a->others)
        fprintf(f, ",\"others\":%u", a->others);
    fputc('}', f);
}

/* A path longer than this keeps its first PATH_HEAD hops and its last ones,
 * with one hop that says how many were left out: a linked list of a million
 * nodes must not make the page large. */
enum { PATH_MAX_HOPS = 40, PATH_HEAD = 5 };

/* Hop k: [label, id, retained, field]; the first hop's field is the root
 * that names it, the others' the edge from the hop before (answer a). */
static void write_hop(FILE *f, const lf_snapshot *s, dom_roots *roots, const lf_suspect *x, uint32_t k,
                      const lf_edge_answer *a)
{
    char text[4200];
    size_t len = 0, p = 0;
    if (k == 0) {
        len = dom_roots_text(roots, x->path[0], LF_NODE_NONE, text, sizeof text);
    } else if (a->flags & LF_HOP_FOUND) {
        if (a->flags & LF_HOP_WEAK)
            p = (size_t)snprintf(text, sizeof text, "(weak) ");
        len = p + lf_snapshot_label_text(s, a->kind, a->label, text + p, sizeof text - p);
    }
    putc('[', f);
    report_json_cut(f, lf_snapshot_object_label(s, x->path[k]), REPORT_TREE_LABEL_MAX);
    putc(',', f);
    report_json_id(f, s, x->path[k]);
    fprintf(f, ",%llu,", (unsigned long long)lf_snapshot_retained(s, x->path[k]));
    report_json_cut(f, (lf_str){text, len < sizeof text ? len : sizeof text - 1}, REPORT_TREE_LABEL_MAX);
    putc(']', f);
}

/* The hops of x's path, the middle of a long one left out; 0 or -1 (memory). */
static int write_path(FILE *f, const lf_snapshot *s, dom_roots *roots, const lf_suspect *x)
{
    if (!x->path) {
        fputs("null", f);
        return 0;
    }
    uint32_t n = x->path_len, skip_from = n, skip_to = n;
    if (n > PATH_MAX_HOPS) {
        skip_from = PATH_HEAD;
        skip_to = n - (PATH_MAX_HOPS - PATH_HEAD);
    }
    lf_edge_question *q = malloc(((size_t)n + 1) * sizeof *q);
    lf_edge_answer *a = malloc(((size_t)n + 1) * sizeof *a);
    int rc = -1;
    if (q && a) {
        for (uint32_t k = 1; k < n; k++)
            q[k - 1] = (lf_edge_question){x->path[k - 1], x->path[k]};
        rc = n > 1 ? lf_edge_batch_answer(s, q, n - 1, a) : 0;
    }
    for (uint32_t k = 0; !rc && k < n; k++) {
        fputs(k ? ",\n" : "[\n", f);
        if (k == skip_from) {
            fprintf(f, "[\"\\u2026 %u more hops\",null,null,\"\"]", skip_to - skip_from);
            k = skip_to - 1;
            continue;
        }
        write_hop(f, s, roots, x, k, k ? &a[k - 1] : NULL);
    }
    if (!rc)
        fputs(n ? "]" : "[]", f);
    free(q);
    free(a);
    return rc;
}

static void write_trend_name(FILE *f, const lf_trend *t, uint32_t name)
{
    const lf_strtab *n = &t->names;
    report_json_label(f, (lf_str){n->bytes + n->offset[name], n->offset[name + 1] - n->offset[name]});
}

/* A growth finding's numbers: all its classes' objects per unit of workload
 * (rate, bytesRate), their gain and counts per snapshot, the holder as
 * `trend` names it, and each class that grows under it. */
static void write_growth(FILE *f, const lf_trend *t, const lf_suspect *x)
{
    fputs(",\"rate\":", f);
    report_json_real(f, x->rate);
    fputs(",\"bytesRate\":", f);
    report_json_real(f, x->bytes_rate);
    fprintf(f, ",\"gain\":%lld,\"counts\":[", (long long)x->gain);
    for (uint32_t i = 0; x->counts && i < t->series; i++)
        fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)x->counts[i]);
    fputs("],\"holder\":", f);
    char text[4096];
    size_t len = x->holder_row >= 0 ? lf_trend_holder_name(&t->holders, (size_t)x->holder_row, text, sizeof text) : 0;
    report_json_label(f, (lf_str){text, len < sizeof text ? len : sizeof text - 1});
    fputs(",\"grows\":[", f);
    for (uint32_t k = 0; k < x->grows_count; k++) {
        fputs(k ? ",{\"class\":" : "{\"class\":", f);
        write_trend_name(f, t, x->grows[k].name);
        fputs(",\"rate\":", f);
        report_json_real(f, x->grows[k].rate);
        fputs(",\"bytesRate\":", f);
        report_json_real(f, x->grows[k].bytes_rate);
        putc('}', f);
    }
    putc(']', f);
    /* held only through Gc.finalise registrations: the page says so */
    fputs(x->finaliser_held ? ",\"heldBy\":\"finaliser\"" : ",\"heldBy\":null", f);
}

static int write_one(FILE *f, const lf_snapshot *s, const lf_trend *t, dom_roots *roots, const lf_suspect *x)
{
    int growth = x->kind == LF_SUSPECT_GROWTH;
    fprintf(f, "{\"kind\":\"%s\",\"class\":", kind_name(x->kind));
    if (growth)
        write_trend_name(f, t, x->name);
    else if (x->cls != LF_NODE_NONE)
        report_json_label(f, lf_snapshot_class_name(s, x->cls));
    else
        fputs("null", f);
    fputs(",\"object\":", f);
    if (x->node < s->object_count)
        write_object(f, s, x->node);
    else
        fputs("null", f);
    fprintf(f, ",\"instances\":%llu,\"retained\":%llu,\"accumulation\":", (unsigned long long)x->instances,
            (unsigned long long)x->retained);
    if (x->node < s->object_count)
        write_accumulation(f, s, &x->acc);
    else
        fputs("null", f);
    if (growth)
        write_growth(f, t, x);
    fputs(",\"path\":", f);
    int rc = write_path(f, s, roots, x);
    putc('}', f);
    return rc;
}

int report_write_suspects(FILE *f, const lf_snapshot *s, const lf_trend *t, const struct lf_suspect_list *list,
                          double threshold)
{
    dom_roots roots;
    dom_roots_init(&roots, s);
    fprintf(f, "{\"threshold\":");
    report_json_real(f, threshold);
    fprintf(f, ",\"heap\":%llu,", (unsigned long long)s->reachable_shallow);
    const char *aside = lf_suspects_set_aside(s);
    if (aside)
        fprintf(f, "\"aside\":\"%s\",", aside); /* plain text: nothing to escape */
    fputs("\"items\":[", f);
    int rc = 0;
    for (size_t i = 0, shown = 0; i < list->count && !rc; i++) {
        if (list->item[i].minor) /* not worth a look (suspects.h): the page leaves them out */
            continue;
        fputs(shown++ ? ",\n" : "\n", f);
        rc = write_one(f, s, t, &roots, &list->item[i]);
    }
    fputs("]}", f);
    if (!rc && dom_roots_failed(&roots))
        rc = -1;
    dom_roots_free(&roots);
    return rc;
}
