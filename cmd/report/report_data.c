/* report_data.c - the page's tables: what `info`, `classes` and
 * `roots --by-kind` show. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/input/open.h"
#include "../../core/analysis/dup_strings.h"
#include "../../core/analysis/root_reach.h"
#include "../../core/analysis/roots.h"
#include "report.h"

#define UNREACHABLE_CLASSES 5

static const lf_class_totals *sort_totals;

static int by_retained(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t rx = sort_totals->retained[x], ry = sort_totals->retained[y];
    if (rx != ry)
        return rx > ry ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int by_unreachable(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t bx = sort_totals->unreachable_shallow[x], by = sort_totals->unreachable_shallow[y];
    if (bx != by)
        return bx > by ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The classes with any objects (unreachable: with unreachable objects),
 * sorted; NULL when out of memory. */
static uint32_t *ranked(const lf_snapshot *s, const lf_class_totals *t, int unreachable, uint32_t *count)
{
    uint32_t *order = malloc(((size_t)s->class_count + 1) * sizeof *order);
    if (!order)
        return NULL;
    uint32_t n = 0;
    for (uint32_t c = 0; c < s->class_count; c++)
        if (unreachable ? t->unreachable_count[c] != 0 : t->count[c] != 0)
            order[n++] = c;
    sort_totals = t;
    qsort(order, n, sizeof *order, unreachable ? by_unreachable : by_retained);
    *count = n;
    return order;
}

static void write_unreachable(FILE *f, const lf_snapshot *s, const lf_class_totals *t, const uint32_t *order,
                              uint32_t n)
{
    fputs("\"unreachableClasses\":[", f);
    for (uint32_t i = 0; i < n && i < UNREACHABLE_CLASSES; i++) {
        fputs(i ? ",{\"class\":" : "{\"class\":", f);
        report_json_label(f, lf_snapshot_class_name(s, order[i]));
        fprintf(f, ",\"count\":%llu,\"bytes\":%llu}", (unsigned long long)t->unreachable_count[order[i]],
                (unsigned long long)t->unreachable_shallow[order[i]]);
    }
    putc(']', f);
}

int report_write_info(FILE *f, const lf_snapshot *s, const lf_class_totals *t)
{
    uint64_t shallow = 0, unreachable = 0, unreachable_bytes = 0;
    for (uint32_t v = 0; v < s->object_count; v++)
        shallow += lf_snapshot_shallow(s, v);
    for (uint32_t c = 0; c < s->class_count; c++) {
        unreachable += t->unreachable_count[c];
        unreachable_bytes += t->unreachable_shallow[c];
    }
    fprintf(f, "{\"format\":\"%s\",\"objects\":%u,\"references\":%llu,\"roots\":%u,\"classes\":%u,"
            "\"shallowBytes\":%llu,\"reachableObjects\":%u,\"reachableBytes\":%llu,"
            "\"unreachableObjects\":%llu,\"unreachableBytes\":%llu,",
            lf_format_name(s->source_format), s->object_count, (unsigned long long)s->edge_count, s->root_count,
            s->class_count, (unsigned long long)shallow, s->reachable_count,
            (unsigned long long)s->reachable_shallow, (unsigned long long)unreachable,
            (unsigned long long)unreachable_bytes);
    uint32_t n = 0;
    uint32_t *order = ranked(s, t, 1, &n);
    if (order)
        write_unreachable(f, s, t, order, n);
    putc('}', f);
    free(order);
    return order ? 0 : -1;
}

int report_write_classes(FILE *f, const lf_snapshot *s, const lf_class_totals *t, uint32_t classes)
{
    uint32_t n = 0;
    uint32_t *order = ranked(s, t, 0, &n);
    if (order) {
        fprintf(f, "{\"total\":%u,\"rows\":[", n);
        for (uint32_t i = 0; i < n && i < classes; i++) {
            uint32_t c = order[i];
            fputs(i ? ",\n[" : "\n[", f);
            report_json_label(f, lf_snapshot_class_name(s, c));
            fprintf(f, ",%llu,%llu,%llu]", (unsigned long long)t->count[c], (unsigned long long)t->shallow[c],
                    (unsigned long long)t->retained[c]);
        }
        fputs("]}", f);
    }
    free(order);
    return order ? 0 : -1;
}

/* The root kinds as `roots --by-kind` has them: what each kind keeps alive
 * as a whole (only) beside the sum over its roots, then what kinds share. */
int report_write_root_kinds(FILE *f, const lf_snapshot *s)
{
    lf_error err;
    lf_root_row *rows = NULL;
    lf_root_kind_total *kind = NULL;
    lf_kind_reach *reach = NULL, shared = {0, 0};
    int64_t count = lf_root_rows(s, &rows, &err);
    int64_t kinds = count < 0 ? -1 : lf_root_kind_totals(s, rows, (uint64_t)count, &kind, &err);
    if (kinds >= 0) {
        reach = malloc(((size_t)kinds + 1) * sizeof *reach);
        if (!reach || lf_root_kind_reach(s, rows, (uint64_t)count, kind, (size_t)kinds, reach, &shared, &err))
            kinds = -1;
    }
    if (kinds >= 0) {
        putc('[', f);
        for (int64_t i = 0; i < kinds; i++) {
            lf_root_row r = {0, kind[i].kind, 0, 0};
            fputs(i ? ",\n{\"kind\":" : "\n{\"kind\":", f);
            report_json_label(f, lf_root_row_kind(s, &r));
            fprintf(f, ",\"roots\":%llu,\"objects\":%llu,\"retained\":%llu,\"only\":%llu,\"onlyObjects\":%llu}",
                    (unsigned long long)kind[i].roots, (unsigned long long)kind[i].objects,
                    (unsigned long long)kind[i].retained, (unsigned long long)reach[i].bytes,
                    (unsigned long long)reach[i].objects);
        }
        if (shared.objects)
            fprintf(f, "%s{\"kind\":\"(several kinds)\",\"roots\":0,\"objects\":0,\"retained\":0,"
                    "\"only\":%llu,\"onlyObjects\":%llu,\"shared\":true}", kinds ? ",\n" : "\n",
                    (unsigned long long)shared.bytes, (unsigned long long)shared.objects);
        putc(']', f);
    }
    free(rows);
    free(kind);
    free(reach);
    return kinds < 0 ? -1 : 0;
}

/* Duplicate strings as `leakfind strings` lists them, the first `rows`, or
 * null where the dump keeps no texts (an .lfs, an OCaml snapshot). */
int report_write_strings(FILE *f, const lf_snapshot *s, unsigned threads, uint64_t rows)
{
    if (!lf_strings_readable(s)) {
        fputs("null", f);
        return 0;
    }
    lf_string_set set;
    lf_error err;
    if (lf_strings_find(s, threads, &set, &err))
        return -1;
    putc('[', f);
    for (uint64_t i = 0; i < set.group_count && i < rows; i++) {
        const lf_dup_group *g = &set.group[i];
        const lf_string_obj *first = &set.str[g->first];
        char text[4 * 60 + 8];
        uint64_t chars;
        size_t len = lf_string_text(s, first->node, 60, text, sizeof text - 4, &chars);
        if (chars > 60) {
            memcpy(text + len, "...", 3);
            len += 3;
        }
        fprintf(f, "%s{\"copies\":%u,\"wasted\":%llu,\"bytes\":%llu,\"length\":%llu,\"owner\":", i ? ",\n" : "\n",
                g->copies, (unsigned long long)g->wasted, (unsigned long long)g->bytes,
                (unsigned long long)first->chars);
        report_json_label(f, g->owner_class == UINT32_MAX ? (lf_str){"(root)", 6}
                                                          : lf_snapshot_class_name(s, g->owner_class));
        fputs(",\"text\":", f);
        report_json_label(f, (lf_str){text, len});
        putc('}', f);
    }
    putc(']', f);
    lf_strings_free(&set);
    return 0;
}
