/* trace_sites.c - the rows of `sites` on a .nettrace: each (type, site) with
 * its allocation ticks and the bytes they stand for, and, with --with DUMP,
 * how much of the type the dump still holds. */
#include "trace_sites.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../cli/output.h"

typedef struct trace_row {
    uint32_t type;
    uint32_t group;         /* the label's number (stack_labels) */
    const char *label;      /* the site cut to its depth */
    uint64_t ticks, bytes;
    int live;               /* the dump has the class */
    uint64_t live_count, live_shallow, live_retained;
} trace_row;

/* A class of the dump, by name (classes of one name summed). */
typedef struct live_class {
    const char *name;
    size_t len;
    uint64_t count, shallow, retained;
} live_class;

static trace_sort sort_by;

static int cmp_desc(uint64_t a, uint64_t b)
{
    return a == b ? 0 : a > b ? -1 : 1;
}

static const lf_nettrace *sorting;

static int by_type_and_label(const void *pa, const void *pb)
{
    const trace_row *x = pa, *y = pb;
    int c = strcmp(sorting->names + sorting->type_name[x->type], sorting->names + sorting->type_name[y->type]);
    return c ? c : strcmp(x->label, y->label);
}

/* Total order: the key, then bytes, ticks, type, site. */
static int by_key(const void *pa, const void *pb)
{
    const trace_row *x = pa, *y = pb;
    int c = 0;
    if (sort_by == TRACE_SORT_TICKS)
        c = cmp_desc(x->ticks, y->ticks);
    else if (sort_by == TRACE_SORT_SITE)
        c = strcmp(x->label, y->label);
    if (!c)
        c = cmp_desc(x->bytes, y->bytes);
    if (!c)
        c = cmp_desc(x->ticks, y->ticks);
    return c ? c : by_type_and_label(pa, pb);
}

size_t trace_type_as_class(const char *type, char *buf, size_t size)
{
    /* a stack of what each open '[' was: 1 generic arguments, 0 an array rank */
    unsigned char generic[64];
    size_t depth = 0, at = 0;
    for (const char *p = type; *p; p++) {
        char c = *p;
        if (c == '`') {
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            continue;
        }
        if (c == '[') {
            int is_generic = p[1] != ']' && p[1] != ',' && p[1] != '*';
            if (depth < sizeof generic)
                generic[depth] = (unsigned char)is_generic;
            depth++;
            c = is_generic ? '<' : '[';
        } else if (c == ']' && depth) {
            depth--;
            c = depth < sizeof generic && generic[depth] ? '>' : ']';
        }
        if (at + 1 < size)
            buf[at] = c;
        at++;
    }
    if (size)
        buf[at < size ? at : size - 1] = 0;
    return at;
}

/* Each stack's label cut to depth, made once per stack (many sites share
 * one), and a number per distinct label, so that rows merge by numbers. */
typedef struct stack_labels {
    char **label;           /* stack -> its label (NULL: no site uses it) */
    uint32_t *group;        /* stack -> distinct label number */
    uint32_t count;
} stack_labels;

static const stack_labels *grouping;

static int by_label(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return strcmp(grouping->label[a], grouping->label[b]);
}

static void stack_labels_free(stack_labels *l)
{
    for (uint32_t k = 0; l->label && k < l->count; k++)
        free(l->label[k]);
    free(l->label);
    free(l->group);
}

static int stack_labels_make(const lf_nettrace *t, uint32_t depth, stack_labels *l)
{
    l->count = t->stack_count;
    l->label = calloc(t->stack_count, sizeof *l->label);
    l->group = calloc(t->stack_count, sizeof *l->group);
    uint32_t *used = malloc((size_t)t->stack_count * sizeof *used), n = 0;
    if (!l->label || !l->group || !used) {
        free(used);
        return -1;
    }
    for (uint32_t i = 0; i < t->site_count; i++) {
        uint32_t k = t->site[i].stack;
        if (l->label[k])
            continue;
        size_t len = lf_nettrace_stack_label(t, k, depth, NULL, 0);
        if (!(l->label[k] = malloc(len + 1))) {
            free(used);
            return -1;
        }
        lf_nettrace_stack_label(t, k, depth, l->label[k], len + 1);
        used[n++] = k;
    }
    grouping = l;
    qsort(used, n, sizeof *used, by_label);
    for (uint32_t i = 0, g = 0; i < n; i++) {
        if (i && strcmp(l->label[used[i - 1]], l->label[used[i]]))
            g++;
        l->group[used[i]] = g;
    }
    free(used);
    return 0;
}

static int by_type_and_group(const void *pa, const void *pb)
{
    const trace_row *x = pa, *y = pb;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->group < y->group ? -1 : x->group > y->group;
}

/* The rows of t cut to depth: (type, label) pairs merged; the labels are
 * l's. NULL: out of memory. */
static trace_row *make_rows(const lf_nettrace *t, const stack_labels *l, uint32_t *count)
{
    trace_row *rows = calloc(t->site_count ? t->site_count : 1, sizeof *rows);
    if (!rows)
        return NULL;
    for (uint32_t i = 0; i < t->site_count; i++) {
        const lf_nettrace_site *s = &t->site[i];
        rows[i] = (trace_row){.type = s->type, .group = l->group[s->stack], .label = l->label[s->stack],
                              .ticks = s->ticks, .bytes = s->bytes};
    }
    qsort(rows, t->site_count, sizeof *rows, by_type_and_group);
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->site_count; i++) {
        if (n && by_type_and_group(&rows[n - 1], &rows[i]) == 0) {
            rows[n - 1].ticks += rows[i].ticks;
            rows[n - 1].bytes += rows[i].bytes;
            continue;
        }
        rows[n++] = rows[i];
    }
    *count = n;
    return rows;
}

static int by_name(const void *pa, const void *pb)
{
    const live_class *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->name, b->name, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* The dump's classes by name, sorted; NULL (and rc) on failure. */
static live_class *live_classes(const lf_snapshot *s, uint32_t *count, lf_error *err)
{
    lf_class_totals totals = {0};
    if (lf_class_totals_compute(s, &totals, err))
        return NULL;
    live_class *c = calloc(s->class_count ? s->class_count : 1, sizeof *c);
    if (!c) {
        lf_class_totals_free(&totals);
        lf_fail_nomem(err, "the dump's classes");
        return NULL;
    }
    for (uint32_t k = 0; k < s->class_count; k++) {
        lf_str name = lf_snapshot_class_name(s, k);
        c[k] = (live_class){name.ptr, name.len, totals.count[k], totals.shallow[k],
                            totals.retained ? totals.retained[k] : 0};
    }
    lf_class_totals_free(&totals);
    qsort(c, s->class_count, sizeof *c, by_name);
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->class_count; k++) {
        if (n && !by_name(&c[n - 1], &c[k])) {
            c[n - 1].count += c[k].count;
            c[n - 1].shallow += c[k].shallow;
            c[n - 1].retained += c[k].retained;
            continue;
        }
        c[n++] = c[k];
    }
    *count = n;
    return c;
}

static void join(const lf_nettrace *t, trace_row *rows, uint32_t n, const live_class *live, uint32_t live_count)
{
    char name[1024];
    for (uint32_t i = 0; i < n; i++) {
        trace_type_as_class(t->names + t->type_name[rows[i].type], name, sizeof name);
        live_class key = {name, strlen(name), 0, 0, 0};
        const live_class *c = bsearch(&key, live, live_count, sizeof *live, by_name);
        /* a .gcdump names a nested generic type without its outer type
         * (Entry<System.Int32,Acme.CacheEntry>[] for Dictionary`2+Entry[...][]) */
        size_t generic = strcspn(name, "<");
        char *nested = memrchr(name, '+', generic);
        if (!c && name[generic] && nested) {
            key.name = nested + 1;
            key.len = strlen(key.name);
            c = bsearch(&key, live, live_count, sizeof *live, by_name);
        }
        rows[i].live = 1;
        if (c) {
            rows[i].live_count = c->count;
            rows[i].live_shallow = c->shallow;
            rows[i].live_retained = c->retained;
        }
    }
}

static void print_rows(const lf_nettrace *t, out_format format, const trace_row *rows, uint32_t n,
                       uint64_t top, int with_dump, uint32_t depth)
{
    /* one frame is cut as a class name is (its simple name kept); a stack
     * keeps its innermost frames, where it was allocated */
    const lf_cut_style site_cut = depth == 1 ? LF_CUT_CLASS : LF_CUT_END;
    const out_column cols[] = {
        {"ticks", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"est_bytes", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"est_pct", OUT_PCT, LF_CUT_END, OUT_OPTIONAL},
        {"live_count", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"live_shallow", OUT_U64, LF_CUT_END, OUT_SECONDARY},
        {"live_retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"site", OUT_STR, site_cut, OUT_KEY},
    };
    const out_column table_cols[] = {
        {"ticks", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"est_bytes", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"est_pct", OUT_PCT, LF_CUT_END, OUT_OPTIONAL},
        {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"site", OUT_STR, site_cut, OUT_KEY},
    };
    /* a table leaves out the dump's columns when there is no dump; TSV and
     * JSON keep every column, empty */
    const int live_columns = with_dump || format != OUT_TABLE;
    out_writer *w = live_columns ? out_begin(stdout, format, cols, 8) : out_begin(stdout, format, table_cols, 5);
    double all = t->tick_bytes ? (double)t->tick_bytes : 1.0;
    for (uint32_t i = 0; i < n && (top == 0 || i < top); i++) {
        out_u64(w, rows[i].ticks);
        out_bytes(w, rows[i].bytes);
        out_pct(w, 100.0 * (double)rows[i].bytes / all);
        if (live_columns && rows[i].live) {
            out_u64(w, rows[i].live_count);
            out_bytes(w, rows[i].live_shallow);
            out_bytes(w, rows[i].live_retained);
        } else if (live_columns) {
            out_null(w);
            out_null(w);
            out_null(w);
        }
        out_cstr(w, t->names + t->type_name[rows[i].type]);
        out_cstr(w, rows[i].label);
        out_row_end(w);
    }
    out_end(w);
}

/* The join's side: the dump's classes, or an exit code. */
static int open_dump(cli_context *ctx, const char *with_dump, live_class **live, uint32_t *live_count)
{
    lf_snapshot s;
    int rc = cli_open_analyzed(ctx, with_dump, &s);
    if (rc)
        return rc;
    lf_error err;
    *live = live_classes(&s, live_count, &err);
    /* the names point into the snapshot: keep them past its end */
    for (uint32_t k = 0; *live && k < *live_count; k++) {
        char *copy = malloc((*live)[k].len + 1);
        if (!copy) {
            for (uint32_t j = 0; j < k; j++)
                free((char *)(*live)[j].name);
            free(*live);
            *live = NULL;
            lf_fail_nomem(&err, "the dump's class names");
            break;
        }
        memcpy(copy, (*live)[k].name, (*live)[k].len);
        copy[(*live)[k].len] = 0;
        (*live)[k].name = copy;
    }
    lf_snapshot_free(&s);
    return *live ? 0 : cli_input_error(with_dump, &err);
}

int trace_sites_run(cli_context *ctx, const char *path, const lf_nettrace *t, uint32_t depth,
                    uint64_t top, trace_sort sort, const char *with_dump)
{
    live_class *live = NULL;
    uint32_t live_count = 0, n = 0;
    int rc = with_dump ? open_dump(ctx, with_dump, &live, &live_count) : 0;
    if (rc)
        return rc;
    stack_labels labels = {0};
    trace_row *rows = stack_labels_make(t, depth, &labels) ? NULL : make_rows(t, &labels, &n);
    if (!rows) {
        cli_message("error", "'%s': out of memory listing the allocation sites", path);
        rc = EXIT_SYSTEM;
    } else {
        if (live)
            join(t, rows, n, live, live_count);
        sort_by = sort;
        sorting = t;
        qsort(rows, n, sizeof *rows, by_key);
        if (!ctx->quiet)
            cli_message("note", "%llu allocation tick%s in '%s': a sample, one tick per about 100 KB "
                        "allocated; est_bytes is the bytes allocated since the tick before, so an "
                        "estimate",
                        (unsigned long long)t->ticks, t->ticks == 1 ? "" : "s", path);
        print_rows(t, ctx->format, rows, n, top, with_dump != NULL, depth);
    }
    free(rows);
    stack_labels_free(&labels);
    for (uint32_t k = 0; k < live_count; k++)
        free((char *)live[k].name);
    free(live);
    return rc;
}
