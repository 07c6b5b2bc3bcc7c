/* cmd_info.c - `leakfind info`: what is in the dump. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <time.h>

#include "../core/analysis/analysis.h"
#include "../core/base/bigmem.h"
#include "../core/base/file.h"
#include "../core/base/resident.h"
#include "../core/input/open.h"
#include "cli/cli.h"
#include "cli/dangling_note.h"
#include "cli/trace_window.h"
#include "commands.h"

static const char info_usage[] =
    "usage: leakfind info SNAPSHOT|TRACE [options]\n"
    "\n"
    "What is in the dump: format, objects, references, roots, classes, how much\n"
    "is reachable, the unreachable objects by class, and references that name\n"
    "objects missing from the dump. Output: key/value rows (JSON: one object).\n"
    "A Memtrace trace (docs/MEMTRACE.md): the program, its pid, the sample rate,\n"
    "how long it ran, its samples, events, distinct allocation sites, and the\n"
    "sampled blocks still live at the end with the bytes they stand for.\n";

static const cli_spec info_spec = {info_usage, NULL, 0, NULL};

#define TOP_UNREACHABLE 5

typedef struct info_rows {
    cli_context *ctx;
    out_writer *w;      /* table/TSV */
    int json_first;
} info_rows;

static void row_begin(info_rows *r, const char *key)
{
    if (r->ctx->format == OUT_JSON) {
        fputs(r->json_first ? "{" : ",", stdout);
        r->json_first = 0;
        out_write_json_string(stdout, key, strlen(key));
        putc(':', stdout);
    } else {
        out_cstr(r->w, key);
    }
}

static void row_u64(info_rows *r, const char *key, uint64_t v)
{
    row_begin(r, key);
    if (r->ctx->format == OUT_JSON) {
        printf("%llu", (unsigned long long)v);
    } else {
        out_u64(r->w, v);
        out_row_end(r->w);
    }
}

/* A size: "1.2 GiB" in a table, bytes elsewhere. */
static void row_bytes(info_rows *r, const char *key, uint64_t v)
{
    row_begin(r, key);
    if (r->ctx->format == OUT_JSON) {
        printf("%llu", (unsigned long long)v);
    } else {
        out_bytes(r->w, v);
        out_row_end(r->w);
    }
}

/* JSON: {"class": ..., "count": N, "bytes": N}; else "7 objects, 561.2 KiB: int[]". */
static void row_class_total(info_rows *r, const char *key, lf_str name, uint64_t count,
                            uint64_t bytes)
{
    row_begin(r, key);
    if (r->ctx->format == OUT_JSON) {
        fputs("{\"class\":", stdout);
        out_write_json_string(stdout, name.ptr, name.len);
        printf(",\"count\":%llu,\"bytes\":%llu}", (unsigned long long)count,
               (unsigned long long)bytes);
        return;
    }
    char value[700], size[32];
    if (r->ctx->format == OUT_TABLE)
        out_format_bytes(size, sizeof size, bytes);
    else
        snprintf(size, sizeof size, "%llu bytes", (unsigned long long)bytes);
    int n = snprintf(value, sizeof value, "%llu objects, %s: %.*s", (unsigned long long)count, size,
                     (int)(name.len > 500 ? 500 : name.len), name.ptr);
    out_str(r->w, value, (size_t)n < sizeof value ? (size_t)n : sizeof value - 1);
    out_row_end(r->w);
}

/* Seconds, three decimals: a JSON number. */
static void row_real(info_rows *r, const char *key, double v)
{
    row_begin(r, key);
    if (r->ctx->format == OUT_JSON) {
        printf("%.3f", v);
    } else {
        out_real(r->w, v, 3);
        out_row_end(r->w);
    }
}

/* JSON: {"references": N, "id": "0x..", "class": ".."}; else the sentence
 * "828 from java.lang.Object[] 0x7ffb72730 (JNI global)". */
static void row_dangling_holder(info_rows *r, const lf_snapshot *s)
{
    row_begin(r, "dangling_top_holder");
    uint64_t holder = s->stats.dangling_top_holder;
    if (r->ctx->format == OUT_JSON) {
        if (holder == 0 || holder > s->object_count) {
            fputs("null", stdout);
            return;
        }
        uint32_t node = (uint32_t)(holder - 1);
        lf_str cls = lf_snapshot_object_label(s, node);
        printf("{\"references\":%llu,\"id\":\"%s%llx\",\"class\":",
               (unsigned long long)s->stats.dangling_top_count,
               (s->flags & LF_SNAP_IDS_AT) ? "@" : "0x",
               (unsigned long long)lf_snapshot_object_id(s, node));
        out_write_json_string(stdout, cls.ptr, cls.len);
        fputs("}", stdout);
        return;
    }
    char text[512];
    size_t len = dangling_holder_text(s, text, sizeof text);
    out_str(r->w, text, len);
    out_row_end(r->w);
}

static void row_str(info_rows *r, const char *key, const char *v, size_t len)
{
    row_begin(r, key);
    if (r->ctx->format == OUT_JSON) {
        out_write_json_string(stdout, v, len);
    } else {
        out_str(r->w, v, len);
        out_row_end(r->w);
    }
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static const lf_class_totals *sort_totals;
static const lf_snapshot *sort_snapshot;

static int by_unreachable_bytes(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t bx = sort_totals->unreachable_shallow[x], by = sort_totals->unreachable_shallow[y];
    if (bx != by)
        return bx > by ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Rows only some dumps have: V8's non-owning references, HPROF's dangling
 * holders, allocation sites, a cut-off dump's cut. */
static int optional_rows(info_rows *r, const lf_snapshot *s)
{
    if (s->source_format == LF_FORMAT_V8) /* DevTools' rules: a row only V8 has */
        row_u64(r, "non_owning_references", s->stats.non_owning_edges);
    if (s->stats.dangling_holders) { /* rows only a reader that knows the holders (HPROF) gives */
        row_u64(r, "dangling_holders", s->stats.dangling_holders);
        row_u64(r, "dangling_expected", s->stats.dangling_expected);
        row_dangling_holder(r, s);
    }
    if (s->object_site) { /* rows only a dump with allocation sites has */
        uint64_t with_site = 0, stacks = 0;
        uint8_t *used = calloc((size_t)s->site_count + 1, 1);
        if (!used)
            return -1;
        for (uint32_t v = 0; v < s->object_count; v++) {
            uint32_t site = s->object_site[v];
            with_site += site != LF_SITE_NONE;
            stacks += site != LF_SITE_NONE && !used[site];
            used[site] = 1;
        }
        free(used);
        row_u64(r, "allocation_stacks", stacks);
        row_u64(r, "objects_with_site", with_site);
        if (s->object_samples) {
            char rate[32];
            int n = snprintf(rate, sizeof rate, "%g", s->sample_rate);
            row_str(r, "sample_rate", rate, (size_t)n);
        }
    }
    if (s->flags & LF_SNAP_PARTIAL) { /* rows only a cut-off dump has */
        row_u64(r, "partial_cut_at", s->stats.cut_at);
        row_u64(r, "partial_cut_missing_bytes", s->stats.cut_missing);
        if (s->stats.gzip_cut_at)
            row_u64(r, "partial_gzip_cut_at", s->stats.gzip_cut_at);
    }
    return 0;
}

/* Sums over the whole dump that the rows show. */
typedef struct info_sums {
    uint64_t weak, shallow, unreachable, unreachable_bytes;
} info_sums;

static info_sums sum_dump(const lf_snapshot *s, const lf_class_totals *totals)
{
    info_sums sum = {0, 0, 0, 0};
    for (uint64_t e = 0; e < s->edge_count; e++)
        sum.weak += lf_edge_is_weak(s->edge_target[e]);
    for (uint32_t v = 0; v < s->object_count; v++)
        sum.shallow += lf_snapshot_shallow(s, v);
    for (uint32_t c = 0; c < s->class_count; c++) {
        sum.unreachable += totals->unreachable_count[c];
        sum.unreachable_bytes += totals->unreachable_shallow[c];
    }
    return sum;
}

/* The rows every dump has, in their fixed order. */
static void dump_rows(info_rows *r, const lf_snapshot *s, const info_sums *sum, int stored)
{
    const char *fmt = lf_format_name(s->format);
    row_str(r, "format", fmt, strlen(fmt));
    const char *source = lf_format_name(s->source_format);
    row_str(r, "source_format", source, strlen(source));
    row_u64(r, "objects", s->object_count);
    row_u64(r, "references", s->edge_count);
    /* weak by the dump's own word; the rest of the edges that do not retain
     * get their own row below */
    row_u64(r, "weak_references", sum->weak - s->stats.non_owning_edges);
    row_u64(r, "roots", s->root_count);
    row_u64(r, "classes", s->class_count);
    row_bytes(r, "shallow_bytes", sum->shallow);
    row_u64(r, "reachable_objects", s->reachable_count);
    row_bytes(r, "reachable_bytes", s->reachable_shallow);
    row_u64(r, "unreachable_objects", sum->unreachable);
    row_bytes(r, "unreachable_bytes", sum->unreachable_bytes);
    row_u64(r, "dangling_references", s->stats.dangling_edges);
    row_u64(r, "dangling_roots", s->stats.dangling_roots);
    row_u64(r, "warnings", s->stats.warnings);
    if (s->reader_note[0])
        row_str(r, "note", s->reader_note, strlen(s->reader_note));
    if (s->flags & LF_SNAP_NO_FIELD_NAMES)
        row_str(r, "field_names", "none in this format", 19);
    const char *ids = (s->flags & LF_SNAP_IDS_STABLE) ? "stable" : "addresses";
    row_str(r, "object_ids", ids, strlen(ids));
    const char *how = stored ? "stored" : "computed";
    row_str(r, "dominators", how, strlen(how));
}

/* The largest unreachable classes, by bytes. */
static int unreachable_class_rows(info_rows *r, const lf_snapshot *s, const lf_class_totals *totals)
{
    uint32_t *order = malloc((s->class_count ? s->class_count : 1) * sizeof *order);
    uint32_t listed = 0;
    if (!order)
        return -1;
    for (uint32_t c = 0; c < s->class_count; c++)
        if (totals->unreachable_count[c])
            order[listed++] = c;
    sort_totals = totals;
    sort_snapshot = s;
    qsort(order, listed, sizeof *order, by_unreachable_bytes);
    for (uint32_t i = 0; i < listed && i < TOP_UNREACHABLE; i++) {
        uint32_t c = order[i];
        lf_str name = lf_snapshot_class_name(s, c);
        char key[40];
        snprintf(key, sizeof key, "unreachable_class_%u", i + 1);
        row_class_total(r, key, name, totals->unreachable_count[c], totals->unreachable_shallow[c]);
    }
    free(order);
    return 0;
}

/* --verbose: what reading and analysing took. */
static void cost_rows(info_rows *r, double read_seconds, double analysis_seconds, uint64_t budget)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    row_real(r, "read_seconds", read_seconds);
    row_real(r, "analysis_seconds", analysis_seconds);
    row_bytes(r, "peak_rss_bytes", (uint64_t)ru.ru_maxrss * 1024);
    /* the big arrays alone: those in RAM, and whether the rest went to files */
    lf_big_usage big;
    lf_big_usage_get(&big);
    row_bytes(r, "big_arrays_ram_peak_bytes", big.ram_peak);
    const char *spilled = big.spilling ? "yes" : "no";
    row_str(r, "spilled", spilled, strlen(spilled));
    row_bytes(r, "spilled_peak_bytes", big.spilled_peak);
    /* how often the file pages left the resident set to keep it in budget */
    row_u64(r, "resident_releases", lf_resident_releases());
    /* where the results were: files in the temporary directory, or RAM and why */
    char store[256];
    if (big.store_on)
        snprintf(store, sizeof store, "files in %s", lf_temp_dir());
    else
        snprintf(store, sizeof store, "ram: %s", big.store_off);
    row_str(r, "result_store", store, strlen(store));
    row_bytes(r, "result_store_peak_bytes", big.store_peak);
    /* the budget (--memory, or what was available at start) and the most
     * anonymous memory seen against it (sampled 100 times a second) */
    row_bytes(r, "memory_budget_bytes", budget);
    row_bytes(r, "peak_anon_bytes", lf_resident_peak_own());
}

/* The blocks live at the end: how many, their samples. */
typedef struct live_end {
    uint64_t blocks, samples;
} live_end;

static int count_live_end(void *ctx, const lf_mt_trace *t, const lf_mt_block *b,
                          uint64_t collect_us, lf_error *err)
{
    (void)t, (void)collect_us, (void)err;
    live_end *e = ctx;
    e->blocks++;
    e->samples += b->samples;
    return 0;
}

static void trace_rows(info_rows *r, const lf_mt_trace *t, const live_end *end)
{
    const lf_mt_info *i = &t->info;
    const lf_mt_counts *n = &t->counts;
    const char *program = lf_mt_string(t, i->executable);
    row_str(r, "format", "memtrace", 8);
    row_u64(r, "format_version", i->version);
    row_str(r, "program", program, strlen(program));
    row_str(r, "host", lf_mt_string(t, i->host), strlen(lf_mt_string(t, i->host)));
    row_u64(r, "pid", i->pid);
    row_str(r, "context", lf_mt_string(t, i->context), strlen(lf_mt_string(t, i->context)));
    char text[64];
    int len = snprintf(text, sizeof text, "%g", i->sample_rate);
    row_str(r, "sample_rate", text, (size_t)len);
    row_u64(r, "word_bytes", i->word_size);
    time_t start = (time_t)(i->start_us / 1000000);
    struct tm tm;
    len = (int)strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&start, &tm));
    row_str(r, "started", text, (size_t)len);
    row_real(r, "duration_seconds", (double)n->end_us / 1e6);
    row_u64(r, "events", n->events);
    row_u64(r, "allocations", n->allocs);
    row_u64(r, "samples", n->samples);
    row_u64(r, "promotions", n->promotes);
    row_u64(r, "collections", n->collects);
    row_u64(r, "locations", t->location_count);
    row_u64(r, "distinct_sites", t->site_count - 1);
    row_u64(r, "domains", n->domains);
    row_u64(r, "packets", n->packets);
    row_u64(r, "skipped_packets", n->skipped_packets);
    row_bytes(r, "trace_bytes", n->bytes);
    row_u64(r, "live_at_end_blocks", end->blocks);
    row_u64(r, "live_at_end_samples", end->samples);
    /* each sample stands for 1 / rate words */
    row_bytes(r, "live_at_end_bytes_estimate",
              (uint64_t)((double)end->samples / i->sample_rate * i->word_size + 0.5));
}

/* The reading `info` needs: every event, what is live at the end counted
 * (a cli_trace_reading; arg is the live_end). */
static int read_to_end(int fd, void *arg, lf_mt_trace *t, lf_error *err)
{
    lf_mt_keeper keeper = {arg, count_live_end};
    lf_mt_filter at_end = {.live_at = {1, LF_MT_END, LF_MT_END}};
    return lf_mt_window_read(fd, &at_end, &keeper, t, NULL, err);
}

static int info_trace(cli_context *ctx, const char *path)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    lf_mt_trace t;
    live_end end = {0, 0};
    int rc = cli_read_trace(ctx, path, read_to_end, &end, &t);
    if (rc)
        return rc;
    static const out_column cols[] = {
        {"key", OUT_STR, LF_CUT_END, OUT_KEY},
        {"value", OUT_STR, LF_CUT_END, OUT_NORMAL},
    };
    info_rows r = {ctx, NULL, 1};
    if (ctx->format != OUT_JSON)
        r.w = out_begin(stdout, ctx->format, cols, 2);
    trace_rows(&r, &t, &end);
    if (ctx->verbose)
        cost_rows(&r, seconds_since(&t0), 0, ctx->memory);
    if (ctx->format == OUT_JSON)
        fputs("}\n", stdout);
    else
        out_end(r.w);
    lf_mt_trace_free(&t);
    return EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
    cli_context ctx = {0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &info_spec, NULL, &path);
    if (rc >= 0)
        return rc;
    if (cli_is_trace(path))
        return info_trace(&ctx, path);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    lf_snapshot s;
    if ((rc = cli_open(&ctx, path, &s)))
        return rc;
    double read_seconds = seconds_since(&t0);
    int stored = s.idom != NULL && s.analysis_flags == ctx.dom_flags;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if ((rc = cli_analyze(&ctx, path, &s)))
        return rc;
    cli_cut_dump_warning(&ctx, path, &s);
    double analysis_seconds = seconds_since(&t0);
    lf_class_totals totals; /* counts and shallow bytes: info shows no retained */
    lf_error err;
    if (lf_group_counts_compute(&s, s.object_class, s.class_count, &totals, &err)) {
        lf_snapshot_free(&s);
        return cli_input_error(path, &err);
    }
    const info_sums sum = sum_dump(&s, &totals);

    static const out_column cols[] = {
        {"key", OUT_STR, LF_CUT_END, OUT_KEY},
        {"value", OUT_STR, LF_CUT_END, OUT_NORMAL},
    };
    info_rows r = {&ctx, NULL, 1};
    if (ctx.format != OUT_JSON)
        r.w = out_begin(stdout, ctx.format, cols, 2);
    dump_rows(&r, &s, &sum, stored);
    /* rows left out for want of memory would read as a complete answer */
    rc = optional_rows(&r, &s) || unreachable_class_rows(&r, &s, &totals) ? EXIT_SYSTEM : EXIT_OK;
    if (rc == EXIT_OK && ctx.verbose)
        cost_rows(&r, read_seconds, analysis_seconds, ctx.memory);
    if (ctx.format == OUT_JSON)
        fputs("}\n", stdout);
    else
        out_end(r.w);
    lf_class_totals_free(&totals);
    lf_snapshot_free(&s);
    if (rc != EXIT_OK)
        cli_message("error", "out of memory");
    return rc;
}
