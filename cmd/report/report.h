/* report.h - the parts of `leakfind report` (cmd_report.c): each gathers one
 * section of the page's data and writes it as JSON into the page. */
#ifndef LF_REPORT_H
#define LF_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../../core/model/snapshot.h"
#include "../../core/analysis/trend.h"

/* Labels longer than this are cut (at a UTF-8 boundary) so that no class
 * name makes the file large. */
enum { REPORT_LABEL_MAX = 300, REPORT_TREE_LABEL_MAX = 160 };

/* A JSON string that is also safe inside <script>: '<', '>' and '&' are
 * escaped, so "</script>" or "<!--" in a class name cannot end the block. */
void report_json_str(FILE *f, const char *s, size_t len);
/* The same, cut at REPORT_LABEL_MAX (report_json_cut: max) bytes. */
void report_json_label(FILE *f, lf_str label);
void report_json_cut(FILE *f, lf_str label, size_t max);
/* A finite double (NaN and infinities become null). */
void report_json_real(FILE *f, double v);
/* node's id as the commands print it ("0x1f", "@12"), a JSON string. */
void report_json_id(FILE *f, const lf_snapshot *s, uint32_t node);

/* "info", "classes" and "rootKinds": what info, classes and roots --by-kind
 * show (classes: the `classes` largest by retained), the first two from
 * the class totals the caller computed once (0.24 s a pass on a 30M-object
 * dump). 0 or -1 (memory). */
int report_write_info(FILE *f, const lf_snapshot *s, const lf_class_totals *totals);
int report_write_classes(FILE *f, const lf_snapshot *s, const lf_class_totals *totals, uint32_t classes);
int report_write_root_kinds(FILE *f, const lf_snapshot *s);
/* Duplicate strings (`leakfind strings`), the first rows; null without texts. */
int report_write_strings(FILE *f, const lf_snapshot *s, unsigned threads, uint64_t rows);

/* "tree": the top `nodes` objects of the dominator tree by retained size,
 * largest first from the top owners down, each other node's children
 * that are left out as one "more" node. 0 or -1 (memory). */
int report_write_tree(FILE *f, const lf_snapshot *s, uint32_t nodes);

/* A series of snapshots (oldest first): the trend's counts and, per class
 * name, the live bytes of each snapshot. */
typedef struct report_series {
    uint32_t count;            /* snapshots */
    const double *workload;    /* count entries */
    lf_trend trend;
    lf_strtab names;           /* class names of bytes */
    uint64_t *bytes;           /* [name * count + snapshot] live shallow bytes */
    size_t bytes_cap;
} report_series;

int report_series_init(report_series *r, uint32_t count, const double *workload, lf_error *err);
/* Adds snapshot i (analysed). */
int report_series_add(report_series *r, const lf_snapshot *s, uint32_t i, lf_error *err);
void report_series_free(report_series *r);
/* "series": the chart's classes; "growth": the trend's rows (growing first,
 * at most `rows`). 0 or -1 (memory). */
int report_write_series(FILE *f, const report_series *r, const lf_trend_rule *rule, uint32_t rows);

/* "suspects": the findings of list (core/analysis/suspects.h, with their paths)
 * for s, the last snapshot; t: the series' trend (growth findings' names).
 * 0 or -1 (memory). */
struct lf_suspect_list;
int report_write_suspects(FILE *f, const lf_snapshot *s, const lf_trend *t, const struct lf_suspect_list *list,
                          double threshold);

/* A Memtrace trace's page (report_trace.c): its suspects, its timeline and
 * the window's inverted icicle (tree made from window). 0 or -1. */
struct lf_mt_trace;
struct lf_mt_timeline;
struct lf_mt_suspects;
struct lf_caller_tree;
int report_write_trace_page(FILE *f, const char *path, const struct lf_mt_trace *t,
                            const struct lf_mt_timeline *tl, const struct lf_mt_suspects *found,
                            uint64_t top, const lf_snapshot *window,
                            const struct lf_caller_tree *tree);

/* The page: the template with the style, the script and data[0..len). */
int report_write_page(FILE *f, const char *data, size_t len);

#endif
