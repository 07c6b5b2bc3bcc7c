/* report_trace.c - `leakfind report TRACE`: one self-contained HTML page
 * about a Memtrace trace (issue 51): its accumulating sites (as `suspects`
 * finds them), the live bytes over time (every block, and the window's),
 * and the window's inverted icicle (allocating frames on top, callers
 * below, as `sites --by caller`). Static: inline SVG, no script. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/caller_tree.h"
#include "../cli/trace_rows.h"
#include "report.h"

enum { CHART_W = 960, CHART_H = 220, ICICLE_ROW = 22, ICICLE_DEPTH = 6 };

/* Text for HTML: & < > " escaped. */
static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void bytes_text(FILE *f, double bytes)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        u++;
    }
    fprintf(f, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

static void write_head(FILE *f, const char *path, const lf_mt_trace *t)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">\n<title>leakfind report: ", f);
    html_text(f, path);
    fputs("</title>\n<style>\n"
          "body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }\n"
          "header { background: #234; color: #fff; padding: 8px 20px; }\n"
          "header h1 { margin: 0; font-size: 20px; }\n"
          "main { padding: 0 20px 40px; max-width: 1300px; }\n"
          "h2 { font-size: 17px; border-bottom: 1px solid #ccc; padding-bottom: 3px; }\n"
          "h2 small { font-weight: normal; color: #666; font-size: 12px; }\n"
          "table.data { border-collapse: collapse; font-size: 13px; }\n"
          "table.data th, table.data td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; "
          "text-align: left; vertical-align: top; }\n"
          "table.data th { background: #eef; }\n"
          ".num { text-align: right !important; white-space: nowrap; }\n"
          ".bt { font-size: 12px; color: #444; }\n"
          "svg text { font: 11px system-ui, sans-serif; }\n"
          "</style>\n</head>\n<body>\n<header><h1>leakfind report</h1><div>", f);
    html_text(f, path);
    fputs(": ", f);
    html_text(f, lf_mt_string(t, t->info.executable));
    fprintf(f, ", pid %llu, sample rate %g, %.3f s, %llu allocations sampled</div></header>\n<main>\n",
            (unsigned long long)t->info.pid, t->info.sample_rate, (double)t->counts.end_us / 1e6,
            (unsigned long long)t->counts.allocs);
}

static void write_suspects(FILE *f, const lf_mt_trace *t, const lf_mt_suspects *found, uint64_t top)
{
    fputs("<section id=\"suspects\"><h2>Leak suspects <small>(sites whose blocks live at the "
          "end were allocated steadily through the run, as <code>leakfind suspects</code> "
          "finds them)</small></h2>\n", f);
    if (!found->suspects) {
        fputs("<p>None: nothing live at the end was allocated steadily through the run.</p>"
              "</section>\n", f);
        return;
    }
    fputs("<table class=\"data\"><thead><tr><th class=\"num\">est. bytes</th><th class=\"num\">"
          "blocks</th><th class=\"num\">spread</th><th class=\"num\">fit</th><th>site and "
          "backtrace (innermost first)</th></tr></thead><tbody>\n", f);
    char *bt = malloc(8192);
    for (uint32_t i = 0; bt && i < found->suspects && (!top || i < top); i++) {
        const lf_mt_suspect *s = &found->item[i];
        char site[512];
        lf_mt_frame_label(t, lf_mt_site_frame(t, s->site), site, sizeof site);
        trace_backtrace_text(t, s->site, bt, 8192);
        fputs("<tr><td class=\"num\">", f);
        bytes_text(f, s->est_bytes);
        fprintf(f, "</td><td class=\"num\">%llu</td><td class=\"num\">%.0f%%</td>"
                   "<td class=\"num\">%.3f</td><td><b>", (unsigned long long)s->blocks,
                100 * s->spread, s->fit);
        html_text(f, site);
        fputs("</b><div class=\"bt\">", f);
        html_text(f, bt);
        fputs("</div></td></tr>\n", f);
    }
    free(bt);
    fputs("</tbody></table></section>\n", f);
}

/* Live bytes (every block: grey; the window's: red) against time. */
static void write_timeline(FILE *f, const lf_mt_trace *t, const lf_mt_timeline *tl)
{
    const double per_sample = t->info.word_size / t->info.sample_rate;
    double top = 1;
    int64_t all = 0;
    for (uint32_t b = 0; b < tl->count; b++) {
        all += tl->all[b];
        if ((double)all * per_sample > top)
            top = (double)all * per_sample;
    }
    fprintf(f, "<section id=\"timeline\"><h2>Live memory over time <small>(estimated from the "
               "samples: grey every block, red the window's blocks; up to ");
    bytes_text(f, top);
    fprintf(f, ", over %.3f s)</small></h2>\n<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
               "<rect width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#ccc\"/>\n",
            (double)(tl->count * tl->width_us) / 1e6, CHART_W, CHART_H, CHART_W, CHART_H,
            CHART_W, CHART_H);
    for (int line = 0; line < 2; line++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"0,%d",
                line ? "#c22" : "#888", CHART_H);
        int64_t live = 0;
        for (uint32_t b = 0; b < tl->count; b++) {
            live += line ? tl->kept[b] : tl->all[b];
            double x = (double)(b + 1) * CHART_W / tl->count;
            double y = CHART_H - (double)(live > 0 ? live : 0) * per_sample / top * (CHART_H - 10);
            fprintf(f, " %.1f,%.1f", x, y);
        }
        fputs("\"/>\n", f);
    }
    fputs("</svg></section>\n", f);
}

static const lf_caller_tree *sort_tree;

static int by_est_desc(const void *pa, const void *pb)
{
    const lf_caller_node *a = &sort_tree->node[*(const uint32_t *)pa];
    const lf_caller_node *b = &sort_tree->node[*(const uint32_t *)pb];
    return a->est_bytes != b->est_bytes ? (a->est_bytes > b->est_bytes ? -1 : 1) : 0;
}

/* The inverted icicle: each node a box as wide as its share of the window,
 * its callers in the row below, largest first (an explicit stack). */
static int write_icicle(FILE *f, const lf_snapshot *s, const lf_caller_tree *tree)
{
    uint32_t *stack = malloc((size_t)tree->count * sizeof *stack);
    uint32_t *kids = malloc((size_t)tree->count * sizeof *kids);
    double *x = calloc(tree->count, sizeof *x);
    if (!stack || !kids || !x) {
        free(stack), free(kids), free(x);
        return -1;
    }
    double total = tree->node[0].est_bytes > 0 ? tree->node[0].est_bytes : 1;
    fprintf(f, "<section id=\"icicle\"><h2>Where the window's memory was allocated <small>"
               "(allocating frames on top, their callers below, as <code>leakfind sites --by "
               "caller</code>; width: estimated bytes, ");
    bytes_text(f, tree->node[0].est_bytes);
    fprintf(f, " in all)</small></h2>\n<svg width=\"%d\" height=\"%d\">\n", CHART_W,
            ICICLE_ROW * ICICLE_DEPTH + 2);
    size_t sp = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t v = stack[--sp];
        const lf_caller_node *n = &tree->node[v];
        double w = n->est_bytes / total * CHART_W;
        if (n->depth && w >= 1) {
            char label[512];
            lf_frame_label(s, n->frame, label, sizeof label);
            fputs("<g><title>", f);
            html_text(f, label);
            fputs(": ", f);
            bytes_text(f, n->est_bytes);
            fprintf(f, "</title><rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%d\" "
                       "fill=\"hsl(%u,60%%,70%%)\" stroke=\"#fff\"/>",
                    x[v], (n->depth - 1) * ICICLE_ROW, w, ICICLE_ROW, (n->frame * 47) % 360);
            if (w > 40) {
                fprintf(f, "<svg x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%d\"><text x=\"3\" "
                           "y=\"15\">", x[v], (n->depth - 1) * ICICLE_ROW, w - 2, ICICLE_ROW);
                html_text(f, label);
                fputs("</text></svg>", f);
            }
            fputs("</g>\n", f);
        }
        size_t k = 0;
        for (uint32_t c = n->first_child; c != LF_CALLER_NONE; c = tree->node[c].next_sibling)
            kids[k++] = c;
        sort_tree = tree;
        qsort(kids, k, sizeof *kids, by_est_desc);
        double at = x[v];
        for (size_t i = 0; i < k; i++) {
            x[kids[i]] = at;
            at += tree->node[kids[i]].est_bytes / total * CHART_W;
        }
        while (k)
            stack[sp++] = kids[--k];
    }
    fputs("</svg></section>\n", f);
    free(stack), free(kids), free(x);
    return 0;
}

int report_write_trace_page(FILE *f, const char *path, const lf_mt_trace *t,
                            const lf_mt_timeline *tl, const lf_mt_suspects *found, uint64_t top,
                            const lf_snapshot *window, const lf_caller_tree *tree)
{
    write_head(f, path, t);
    write_suspects(f, t, found, top);
    write_timeline(f, t, tl);
    int rc = window->object_site ? write_icicle(f, window, tree) : 0;
    fputs("<p class=\"bt\">Sampled blocks stand for 1 / rate words each sample: a site with few "
          "samples is a rough number (docs/MEMTRACE.md). Filter the window with <code>leakfind "
          "sites TRACE --live-at T</code>, <code>--allocated-between T1 T2</code>.</p>\n"
          "</main>\n</body>\n</html>\n", f);
    return rc || ferror(f) ? -1 : 0;
}
