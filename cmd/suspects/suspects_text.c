/* suspects_text.c - see suspects_text.h. */
#include "suspects_text.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/base/name_cut.h"
#include "../cli/count_text.h"
#include "../cli/output.h"
#include "../cli/out_text.h"
#include "paragraph.h"

#define PATH_TEXT 8192

static lf_str trend_name(const lf_trend *t, uint32_t name)
{
    return (lf_str){t->names.bytes + t->names.offset[name], t->names.offset[name + 1] - t->names.offset[name]};
}

/* Bytes per unit: "80 B", "4.5 B", "1.2 KiB". */
static void rate_bytes(char *buf, size_t size, double v)
{
    if (v >= 1024)
        out_format_bytes(buf, size, (uint64_t)(v + 0.5));
    else
        snprintf(buf, size, v >= 10 || v == 0 ? "%.0f B" : "%.1f B", v);
}

/* An object's id as the other outputs show it: 0x hex, or @N (V8). */
static void id_text(const lf_snapshot *s, uint32_t node, char *buf, size_t size)
{
    snprintf(buf, size, (s->flags & LF_SNAP_IDS_AT) ? "@%llu" : "0x%llx",
             (unsigned long long)lf_snapshot_object_id(s, node));
}

/* "600 x LeakedSession at java.util.ArrayList 0xfd5bf8b0", or for a map's
 * entries "3,000 entries -> Session at java.util.HashMap 0xfd5bf538" ("->
 * byte[] and 2 other classes" when its values differ; a list of mixed
 * classes "300 elements -> Listeners$A and 2 other classes"): what piles
 * up at the accumulation point; 0 when nothing does. */
static size_t where_text(const suspects_text *x, const lf_suspect *f, char *buf, size_t size)
{
    const lf_snapshot *s = x->s;
    if (f->node == LF_NODE_NONE || f->acc.count == 0 || f->acc.cls == LF_NODE_NONE)
        return 0;
    char count[32], bytes[32];
    cli_count_text(count, sizeof count, f->acc.count);
    out_format_bytes(bytes, sizeof bytes, f->acc.bytes);
    lf_str cls = lf_snapshot_class_name(s, f->acc.cls), at = lf_snapshot_object_label(s, f->acc.point);
    char id[32];
    id_text(s, f->acc.point, id, sizeof id);
    /* a map or a list of mixed values: named by the class its members retain most by */
    char others[48] = "";
    if (f->acc.entries != LF_ACC_CHILDREN && f->acc.others)
        snprintf(others, sizeof others, " and %u other class%s", f->acc.others, f->acc.others > 1 ? "es" : "");
    const char *counts = f->acc.entries == LF_ACC_ENTRIES ? " entries -> "
                         : others[0]                       ? " elements -> "
                                                           : " x ";
    int n = snprintf(buf, size, "%s%s%.*s%s (%s) at %.*s %s", count, counts, (int)cls.len, cls.ptr, others, bytes,
                     (int)at.len, at.ptr, id);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* bytes as a share of the snapshot's reachable heap, in percent */
static double heap_pct(const suspects_text *x, uint64_t bytes)
{
    double heap = x->s->reachable_shallow ? (double)x->s->reachable_shallow : 1.0;
    return 100.0 * (double)bytes / heap;
}

/* What a growth finding's holder retains, with its share of the heap: "1.1
 * MiB, 64.15% of the heap" (the size finding the holder would have been
 * tells its story no more: suspects.h). None for the GC roots. */
static void retains(out_buf *b, const suspects_text *x, const lf_suspect *f, char *text)
{
    if (f->node == LF_NODE_NONE || f->retained == 0)
        return;
    char bytes[32];
    out_format_bytes(bytes, sizeof bytes, f->retained);
    int n = snprintf(text, PATH_TEXT, "%s, %.2f%% of the heap", bytes, heap_pct(x, f->retained));
    para_labelled(b, "retains", text, n > 0 ? (size_t)n : 0, x->width, PARA_TEXT);
}

/* A growth finding: what leaks and how fast, then held by, what the holder
 * retains, the counts and the other classes, and where it piles up. */
static void growth(out_buf *b, const suspects_text *x, const lf_suspect *f, char *text, size_t headline_at)
{
    const lf_trend *t = x->t;
    lf_str lead = trend_name(t, f->name);
    char bytes[32], line[1024];
    rate_bytes(bytes, sizeof bytes, f->bytes_rate);
    snprintf(line, sizeof line, "%.*s grows by %.2f per %s (%s per %s%s)", (int)lead.len, lead.ptr, f->rate,
             x->unit, bytes, strcmp(x->unit, "snapshot") ? "unit" : "snapshot", f->grows_count > 1 ? " in all" : "");
    para_wrapped(b, line, strlen(line), x->width, headline_at, headline_at, PARA_TEXT);
    out_buf_put(b, "\n", 1);
    size_t len = lf_suspect_path_text(x->s, f, text, PATH_TEXT);
    para_labelled(b, "held by", len ? text : "(GC roots)", len ? len : 10, x->width, PARA_PATH);
    retains(b, x, f, text);
    size_t at = 0;
    for (uint32_t i = 0; i < t->series && at + 32 < PATH_TEXT; i++)
        at += (size_t)cli_count_text(text + at, PATH_TEXT - at, f->counts[i]),
            at += (size_t)snprintf(text + at, PATH_TEXT - at, "%s", i + 1 < t->series ? ", " : "");
    at += (size_t)snprintf(text + at, PATH_TEXT - at, " %.*s, oldest first", (int)lead.len, lead.ptr);
    for (uint32_t k = 1; k < f->grows_count && at + 64 < PATH_TEXT; k++) {
        lf_str other = trend_name(t, f->grows[k].name);
        int n = snprintf(text + at, PATH_TEXT - at, "%s%.*s %+.2f", k == 1 ? "; with it " : ", ",
                         other.len > 1000 ? 1000 : (int)other.len, other.ptr, f->grows[k].rate);
        at += n > 0 ? (size_t)n : 0;
    }
    para_labelled(b, "objects", text, at < PATH_TEXT ? at : PATH_TEXT - 1, x->width, PARA_TEXT);
    if (f->finaliser_held)
        para_labelled(b, "note", "held only by its Gc.finalise registrations (finaliser roots)", 60, x->width, PARA_TEXT);
}

/* A size finding: the object or the class, what it retains, its path. */
static void size_finding(out_buf *b, const suspects_text *x, const lf_suspect *f, char *text, size_t headline_at)
{
    const lf_snapshot *s = x->s;
    char bytes[32], count[32], line[1400];
    out_format_bytes(bytes, sizeof bytes, f->retained);
    lf_str cls = lf_snapshot_class_name(s, f->cls), label = lf_snapshot_object_label(s, f->node);
    char idtext[32];
    id_text(s, f->node, idtext, sizeof idtext);
    if (f->kind == LF_SUSPECT_CLASS) {
        cli_count_text(count, sizeof count, f->instances);
        snprintf(line, sizeof line, "%s %.*s retain %s, %.2f%% of the heap (the largest %s)", count,
                 cls.len > 1000 ? 1000 : (int)cls.len, cls.ptr, bytes, heap_pct(x, f->retained), idtext);
    } else {
        snprintf(line, sizeof line, "%.*s %s retains %s, %.2f%% of the heap", label.len > 1000 ? 1000 : (int)label.len,
                 label.ptr, idtext, bytes, heap_pct(x, f->retained));
    }
    para_wrapped(b, line, strlen(line), x->width, headline_at, headline_at, PARA_TEXT);
    out_buf_put(b, "\n", 1);
    size_t len = lf_suspect_path_text(s, f, text, PATH_TEXT);
    if (len)
        para_labelled(b, "path", text, len, x->width, PARA_PATH);
}

int suspects_write_text(FILE *f, const suspects_text *x, const lf_suspect_list *list)
{
    out_buf b = {0};
    char *text = malloc(PATH_TEXT);
    if (!text)
        return -1;
    size_t shown = 0;
    for (size_t k = 0; k < list->count; k++) {
        const lf_suspect *s = &list->item[k];
        if (s->minor)
            continue;
        /* the headline's continuations under its text, after "12. " */
        size_t headline_at = para_number(&b, shown++);
        if (s->kind == LF_SUSPECT_GROWTH)
            growth(&b, x, s, text, headline_at);
        else
            size_finding(&b, x, s, text, headline_at);
        size_t len = where_text(x, s, text, PATH_TEXT);
        if (len)
            para_labelled(&b, s->kind == LF_SUSPECT_GROWTH ? "piles up" : "where", text, len, x->width, PARA_TEXT);
    }
    free(text);
    return para_write(&b, f);
}
