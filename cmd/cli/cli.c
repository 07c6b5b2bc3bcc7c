/* cli.c - option parsing, messages and the shared open-and-analyse step. */
#include "cli.h"

#include "dangling_note.h"
#include "dotnet_core.h"
#include "progress_line.h"
#include "../../core/base/suggest.h"
#include "../../core/model/root_text.h"
#include "../../graph/dominators.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/available.h"
#include "../../core/base/bigmem.h"
#include "../../core/input/estimate.h"
#include "../../core/input/cache.h"
#include "../../core/base/file.h"
#include "../../core/lfs/lfs.h"
#include "../../core/input/open.h"
#include "../../core/base/outfile.h"

void cli_message(const char *level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "leakfind: %s: ", level);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(cli_context *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("leakfind: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (ctx && ctx->command)
        fprintf(stderr, "Try 'leakfind %s -h'.\n", ctx->command);
    return EXIT_USAGE;
}

int cli_input_error(const char *path, const lf_error *err)
{
    char buf[512];
    lf_error_format(err, buf, sizeof buf);
    for (char *p = buf; *p; p++) /* a message is one line of plain text */
        if ((unsigned char)*p < 0x20)
            *p = '?';
    fprintf(stderr, "leakfind: error: '%s': %s\n", path, buf);
    return err->kind == LF_ERR_SYSTEM ? EXIT_SYSTEM : EXIT_INPUT;
}

static const cli_option *find_option(const cli_option *opts, const char *name, size_t len,
                                     char short_name)
{
    for (const cli_option *o = opts; o && o->long_name; o++)
        if (short_name ? o->short_name == short_name
                       : strlen(o->long_name) == len && memcmp(o->long_name, name, len) == 0)
            return o;
    return NULL;
}

/* The default --memory: what the machine and the process's memory cgroups
 * have available at start less a quarter, which is left to the pages of the
 * dump being read (a mapped file streams through the page cache), to the
 * small allocations outside the big arrays (a few percent of them), and to
 * the programs that start meanwhile. No limit when /proc cannot say. */
static uint64_t default_memory(void)
{
    uint64_t available = lf_available_memory();
    return available == UINT64_MAX ? UINT64_MAX : available / 4 * 3;
}

static int spill_quiet;

static void spill_note(uint64_t need, uint64_t budget, const char *dir)
{
    if (spill_quiet)
        return;
    char need_text[32], budget_text[32];
    lf_big_size_text(need_text, sizeof need_text, need);
    lf_big_size_text(budget_text, sizeof budget_text, budget);
    cli_message("note", "the dump needs about %s, more than --memory %s: spilling big arrays to "
                "files in %s (removed at exit)", need_text, budget_text, dir);
}

/* A page of a mapped file that cannot be read or written: a spill file on a
 * file system that filled up after the check, or a dump cut while mapped. */
static void mapped_file_fault(int sig)
{
    static const char msg[] = "leakfind: error: a memory-mapped file failed: $TMPDIR full while "
                              "spilling, or the dump changed while read\n";
    (void)sig;
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(EXIT_SYSTEM);
}

/* Results go to files in the temporary directory (lf_temp_dir) unless
 * LEAKFIND_RESULTS=ram says otherwise (the tests compare the two), and big
 * arrays past ctx->memory spill there. */
static void set_memory_budget(const cli_context *ctx)
{
    signal(SIGBUS, mapped_file_fault);
    spill_quiet = ctx->quiet;
    lf_big_on_spill(spill_note);
    lf_big_set_budget(ctx->memory, lf_temp_dir());
    const char *results = getenv("LEAKFIND_RESULTS");
    lf_big_set_result_store(!(results && strcmp(results, "ram") == 0));
}

/* The option named, a global one first; NULL when none is. *state is
 * where its field is: the context for a global option. */
static const cli_option *find_any(cli_context *ctx, const cli_spec *spec, const char *name,
                                  size_t len, char short_name, void **state)
{
    const cli_option *o = find_option(cli_global_spec.options, name, len, short_name);
    if (o) {
        *state = ctx;
        return o;
    }
    return find_option(spec->options, name, len, short_name);
}

/* The long option of spec or the global ones closest to name[0..len), into
 * near ("" when none is close: a misspelt --threshhold: --threshold). */
static void closest_option(const cli_spec *spec, const char *name, size_t len, char *near, size_t size)
{
    suggest_nearest n;
    suggest_nearest_init(&n, name, len, near, size);
    const cli_option *lists[2] = {spec->options, cli_global_spec.options};
    for (int k = 0; k < 2; k++)
        for (const cli_option *o = lists[k]; o && o->long_name; o++)
            suggest_nearest_offer(&n, o->long_name, strlen(o->long_name));
}

/* argv[*i], an option, and its value (=VALUE or the next argument, which
 * *i then passes): 0, -1 after -h, or a usage error. */
static int parse_option(cli_context *ctx, int argc, char **argv, int *i, const cli_spec *spec,
                        void *state)
{
    const char *a = argv[*i], *value = NULL;
    const cli_option *o;
    if (a[1] == '-') {
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if (!(o = find_any(ctx, spec, name, len, 0, &state))) {
            char near[64];
            closest_option(spec, name, len, near, sizeof near);
            return near[0] ? cli_usage_error(ctx, "unknown option '--%.*s' (did you mean '--%s'?)", (int)len, name, near)
                        : cli_usage_error(ctx, "unknown option '--%.*s'", (int)len, name);
        }
        if (eq) {
            if (!o->arg_name)
                return cli_usage_error(ctx, "option '--%s' takes no value", o->long_name);
            value = eq + 1;
        }
    } else {
        if (a[2] != '\0')
            return cli_usage_error(ctx, "unknown option '%s' (one letter per dash)", a);
        if (!(o = find_any(ctx, spec, NULL, 0, a[1], &state)))
            return cli_usage_error(ctx, "unknown option '%s'", a);
    }
    if (o->arg_name && !value) {
        if (*i + 1 >= argc)
            return cli_usage_error(ctx, "option '--%s' needs a value", o->long_name);
        value = argv[++*i];
    }
    int rc = cli_option_read(ctx, o, state, value);
    if (rc == 0 && ctx->help) { /* -h: the help, and nothing after it is read */
        cli_help_write(stdout, spec);
        return -1;
    }
    return rc;
}

int cli_parse(cli_context *ctx, int argc, char **argv, const cli_spec *spec, void *state,
              char ***positional, int *npositional)
{
    ctx->memory = default_memory();
    ctx->command = argv[0];
    ctx->format = isatty(STDOUT_FILENO) ? OUT_TABLE : OUT_TSV;
    ctx->progress = isatty(STDERR_FILENO);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ctx->threads = cores > 1 ? (unsigned)(cores > 64 ? 64 : cores) : 1;
    char **pos = malloc(((size_t)argc + 1) * sizeof *pos);
    if (!pos)
        return cli_usage_error(ctx, "out of memory");
    int np = 0, only_positional = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_positional || a[0] != '-' || a[1] == '\0') {
            pos[np++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_positional = 1;
            continue;
        }
        int rc = parse_option(ctx, argc, argv, &i, spec, state);
        if (rc) {
            free(pos);
            return rc;
        }
    }
    set_memory_budget(ctx);
    out_set_quiet(ctx->quiet);
    *positional = pos;
    *npositional = np;
    return 0;
}

int cli_parse_one(cli_context *ctx, int argc, char **argv, const cli_spec *spec, void *state,
                  const char **path)
{
    char **pos;
    int npos;
    int rc = cli_parse(ctx, argc, argv, spec, state, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (npos != 1) {
        free(pos);
        return cli_usage_error(ctx, "%s takes one SNAPSHOT", ctx->command);
    }
    *path = pos[0];
    free(pos);
    return -1;
}

/* Progress shows on a terminal even with -q (which quiets messages);
 * --no-progress turns it off. */
void cli_progress(const cli_context *ctx, const char *stage)
{
    if (ctx->progress)
        fprintf(stderr, "\rleakfind: %s...\033[K", stage);
}

void cli_progress_done(const cli_context *ctx)
{
    if (ctx->progress)
        fputs("\r\033[K", stderr);
}

static void cache_warning(const cli_context *ctx, const char *cache_path, const lf_error *err)
{
    char buf[512];
    lf_error_format(err, buf, sizeof buf);
    if (!ctx->quiet)
        cli_message("warning", "'%s': cache not written: %s", cache_path, buf);
}

/* A dump that could not be read: the error, and the --partial hint when it could help. */
static int open_error(const cli_context *ctx, const char *path, const lf_error *err)
{
    int rc = cli_input_error(path, err);
    if (err->truncated && !ctx->partial)
        fprintf(stderr, "leakfind: hint: the dump is cut off; --partial analyses the part before the cut\n");
    return rc;
}

/* Reads the dump open on fd: through the .NET agent for a .NET core
 * (dotnet_core.h), else with the readers. 0; -1 with err set (the caller
 * says it); or an exit code already said. */
static int read_dump(cli_context *ctx, const char *path, int fd, const lf_open_options *options,
                     lf_snapshot *s, lf_error *err)
{
    if (!cli_is_stdin(path) && cli_is_dotnet_core(fd))
        return cli_open_dotnet_core(ctx, path, fd, s);
    cli_progress(ctx, "reading");
    int rc = lf_open_fd(fd, options, s, err);
    cli_progress_done(ctx);
    return rc;
}

/* --cache, past a miss: the cache file is opened before the dump is read,
 * so a directory that cannot take it is said once, up front, and the dump is
 * then read as usual. Returns 0 or an exit code (s freed). */
static int read_and_cache(cli_context *ctx, const char *path, int fd, const char *cache_path,
                          const lf_source_key *key, const lf_open_options *options, lf_snapshot *s)
{
    lf_error err;
    lf_outfile out;
    cli_remove_temp_on_signals();
    int writable = lf_outfile_open(cache_path, LF_OUTFILE_REGULAR_ONLY, &out, &err) == 0;
    if (!writable)
        cache_warning(ctx, cache_path, &err);
    int rc = read_dump(ctx, path, fd, options, s, &err);
    if (rc > 0) {
        if (writable)
            lf_outfile_abort(&out);
        return rc;
    }
    if (rc == 0 && (rc = cli_analyze(ctx, path, s)) != 0) {
        if (writable)
            lf_outfile_abort(&out);
        return rc; /* s is freed */
    }
    if (rc) {
        if (writable)
            lf_outfile_abort(&out);
        return open_error(ctx, path, &err);
    }
    if (!writable)
        return 0;
    s->source_key = *key;
    cli_progress(ctx, "writing the cache");
    if (lf_lfs_write_fd(s, out.fd, &err)) {
        lf_outfile_abort(&out);
        cache_warning(ctx, cache_path, &err);
    } else if (lf_outfile_commit(&out, &err)) {
        cache_warning(ctx, cache_path, &err);
    } else if (ctx->verbose) {
        cli_message("note", "'%s': cache '%s' written", path, cache_path);
    }
    cli_progress_done(ctx);
    s->source_key = (lf_source_key){0};
    return 0;
}

/* --cache: the input's cache when it is current; else reads the input,
 * analyses it and writes the cache. A cache that cannot be written costs a
 * warning, not the answer. Returns -1 when there is no cache to use or make
 * (then the input is read as usual), else 0 or an exit code. */
static int open_through_cache(cli_context *ctx, const char *path, int fd,
                              const lf_open_options *options, lf_snapshot *s)
{
    uint8_t head[64];
    lf_error err;
    lf_source_key key;
    if (cli_is_stdin(path)) { /* no name to put the cache beside */
        if (!ctx->quiet)
            cli_message("warning", "'%s': no cache: standard input is never cached", path);
        return -1;
    }
    if (lf_cache_key_fd(fd, options, &key, &err)) {
        char buf[512];
        lf_error_format(&err, buf, sizeof buf);
        if (!ctx->quiet)
            cli_message("warning", "'%s': no cache: %s", path, buf);
        return -1;
    }
    int64_t got = lf_file_head_fd(fd, head, sizeof head, &err);
    if (got < 0 || lf_detect_format(head, (size_t)got) == LF_FORMAT_LFS)
        return -1; /* an error is reported by the usual open; a leakfind file needs no cache */
    char *cache_path = lf_cache_path(path);
    if (!cache_path)
        return -1;
    const char *why;
    cli_progress(ctx, "opening the cache");
    int rc = lf_cache_open(cache_path, &key, s, &why);
    cli_progress_done(ctx);
    if (rc == 0) {
        if (ctx->verbose)
            cli_message("note", "'%s': cache '%s' used", path, cache_path);
        s->format = s->source_format; /* what the user named */
        free(cache_path);
        return 0;
    }
    if (ctx->verbose)
        cli_message("note", "'%s': cache '%s' %s: reading the dump", path, cache_path,
                    strcmp(why, "none") == 0 ? "absent" : why);
    rc = read_and_cache(ctx, path, fd, cache_path, &key, options, s);
    free(cache_path);
    return rc;
}

int cli_is_stdin(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0;
}

int cli_check_stdin_once(cli_context *ctx, char **paths, int count)
{
    int seen = 0;
    for (int i = 0; i < count; i++)
        seen += cli_is_stdin(paths[i]);
    if (seen > 1)
        return cli_usage_error(ctx, "standard input ('-') can be read only once");
    return 0;
}

/* References to missing objects: a warning naming their holder, or, when
 * they are all of the kind HotSpot always writes, a note with -v only. */
static void cli_dangling_message(const cli_context *ctx, const char *path, const lf_snapshot *s)
{
    if (ctx->quiet || !(s->stats.dangling_edges || s->stats.dangling_roots))
        return;
    char holder[512];
    size_t len = dangling_holder_text(s, holder, sizeof holder);
    if (dangling_all_expected(s)) {
        if (ctx->verbose)
            cli_message("note", "'%s': %llu references name objects not in the dump, all elements of "
                        "an object array a JNI global holds, which HotSpot always writes: %.*s",
                        path, (unsigned long long)s->stats.dangling_edges, (int)len, holder);
        return;
    }
    cli_message("warning", "'%s': %llu references and %llu roots name objects not in the dump%s%.*s",
                path, (unsigned long long)s->stats.dangling_edges,
                (unsigned long long)s->stats.dangling_roots, len ? "; the most: " : "", (int)len, holder);
}

int cli_open(cli_context *ctx, const char *path, lf_snapshot *s)
{
    lf_error err;
    progress_line line;
    progress_line_init(&line, "reading %s", path);
    lf_open_options options = {ctx->read_flags, ctx->threads, ctx->partial,
                               ctx->progress ? &line.progress : NULL};
    /* the input is opened once: a pipe's bytes can be read only once */
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        lf_fail_errno(&err, "cannot open", errno);
        return open_error(ctx, path, &err);
    }
    /* where the big arrays go, and the room there, is settled before anything is read */
    lf_big_estimate need = lf_estimate_big_bytes(fd);
    if (lf_big_plan(need.work, need.results, need.written, &err)) {
        if (fd != STDIN_FILENO)
            close(fd);
        return cli_input_error(path, &err);
    }
    int rc = ctx->cache ? open_through_cache(ctx, path, fd, &options, s) : -1;
    if (rc < 0) {
        rc = read_dump(ctx, path, fd, &options, s, &err);
        if (rc < 0)
            rc = open_error(ctx, path, &err);
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (rc)
        return rc;
    if (!ctx->quiet && (s->flags & LF_SNAP_PARTIAL))
        cli_partial_warning(path, s);
    cli_dangling_message(ctx, path, s);
    if (!ctx->quiet && s->reader_note[0])
        cli_message("warning", "'%s': %s", path, s->reader_note);
    /* what the VM always writes is no damage, even with --strict */
    uint64_t unexpected = s->stats.dangling_edges - s->stats.dangling_expected;
    if (ctx->strict && (unexpected || s->stats.dangling_roots || s->stats.warnings)) {
        lf_snapshot_free(s);
        cli_message("error", "'%s': warnings are errors with --strict", path);
        return EXIT_INPUT;
    }
    return 0;
}

static void remove_temp_and_die(int sig)
{
    const char *temp = lf_outfile_pending_temp();
    if (temp)
        unlink(temp);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_remove_temp_on_signals(void)
{
    /* SIGXFSZ: a file size limit (ulimit -f) reached mid-write */
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
        struct sigaction old;
        /* a signal the shell ignored (nohup, background jobs) stays ignored */
        if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            signal(fatal[i], remove_temp_and_die);
    }
}

void cli_partial_warning(const char *path, const lf_snapshot *s)
{
    char missing[96] = "";
    if (s->stats.cut_missing)
        snprintf(missing, sizeof missing, "; the record cut there lacks %" PRIu64 " bytes",
                 s->stats.cut_missing);
    char gzip[96] = "";
    if (s->stats.gzip_cut_at)
        snprintf(gzip, sizeof gzip, " (the gzip stream ends at compressed offset %" PRIu64 ")",
                 s->stats.gzip_cut_at);
    cli_message("warning",
                "'%s': partial dump: read up to offset %" PRIu64 " (0x%" PRIx64 ")%s%s; "
                "objects and references past the cut are missing",
                path, s->stats.cut_at, s->stats.cut_at, gzip, missing);
}

int cli_analyze(cli_context *ctx, const char *path, lf_snapshot *s)
{
    lf_error err;
    progress_line line;
    progress_line_init(&line, "computing dominators", NULL);
    line.unit = "objects";
    cli_progress(ctx, "computing dominators");
    int rc = lf_analyze_reporting(s, ctx->dom_flags, ctx->threads, ctx->progress ? &line.progress : NULL,
                                  &err);
    cli_progress_done(ctx);
    if (rc) {
        lf_snapshot_free(s);
        return cli_input_error(path, &err);
    }
    return 0;
}

/* A .gcdump most of whose objects no root reaches was cut short: dotnet-gcdump
 * stops at 10,000,000 nodes and may lose events under load, and the roots
 * come last (docs/DOTNET.md). Said before any answer: the percentages that
 * follow are of the part the roots reach. */
void cli_cut_dump_warning(const cli_context *ctx, const char *path, const lf_snapshot *s)
{
    uint64_t unreachable = (uint64_t)s->object_count - s->reachable_count;
    if (ctx->quiet || s->source_format != LF_FORMAT_GCDUMP || (ctx->dom_flags & LF_DOM_KEEP_UNREACHABLE) ||
        s->reachable_count > s->object_count || unreachable * 2 <= s->object_count)
        return;
    cli_message("warning", "'%s': only %u of its %u objects are reachable from the roots it holds: the dump was cut "
                "short (dotnet-gcdump stops at 10,000,000 nodes, and may lose events under load), and sizes and "
                "percentages below are of the reachable part; --keep-unreachable analyses every object, those no "
                "root reaches as roots", path, s->reachable_count, s->object_count);
}

int cli_open_analyzed(cli_context *ctx, const char *path, lf_snapshot *s)
{
    int rc = cli_open(ctx, path, s);
    if (!rc)
        rc = cli_analyze(ctx, path, s);
    if (!rc)
        cli_cut_dump_warning(ctx, path, s);
    return rc;
}

int cli_parse_count(const char *arg, uint64_t *out)
{
    if (!arg || !*arg)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    if (errno || *end || arg[0] == '-' || arg[0] == '+')
        return -1;
    *out = v;
    return 0;
}

int cli_parse_size(const char *arg, uint64_t total, uint64_t *out)
{
    if (!arg || !*arg || arg[0] == '-')
        return -1;
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    /* "nan" and "inf" parse as numbers, but no size converts from them */
    if (errno || end == arg || !(v >= 0) || isinf(v))
        return -1;
    double mult = 1;
    if (strcmp(end, "%") == 0) {
        *out = (uint64_t)(v * (double)total / 100.0 + 0.5);
        return 0;
    }
    static const char *units[] = {"", "K", "M", "G", "T"};
    int found = 0;
    for (int i = 0; i < 5 && !found; i++) {
        char unit[8];
        for (int variant = 0; variant < 3 && !found; variant++) {
            snprintf(unit, sizeof unit, "%s%s", units[i], variant == 0 ? "" : variant == 1 ? "B" : "iB");
            if (i == 0 && variant == 2)
                continue;
            if (strcasecmp(end, unit) == 0) {
                found = 1;
                for (int k = 0; k < i; k++)
                    mult *= 1024;
            }
        }
    }
    if (!found || v * mult > 1.8e19)
        return -1;
    *out = (uint64_t)(v * mult);
    return 0;
}

int cli_parse_id(const char *arg, uint64_t *out)
{
    if (!arg || !*arg)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v;
    if (arg[0] == '@')
        v = strtoull(arg + 1, &end, 10);
    else if (arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X'))
        v = strtoull(arg + 2, &end, 16);
    else
        v = strtoull(arg, &end, 10);
    if (errno || *end || end == arg || arg[0] == '-')
        return -1;
    *out = v;
    return 0;
}

void cli_write_id(out_writer *w, const lf_snapshot *s, uint32_t node)
{
    if (node >= s->object_count)
        out_null(w);
    else
        out_id(w, lf_snapshot_object_id(s, node), (s->flags & LF_SNAP_IDS_AT) != 0);
}

void cli_write_place(out_writer *w, const lf_snapshot *s, uint32_t node, int col)
{
    out_skip_to(w, col);
    const lf_place *p = node < s->object_count ? lf_snapshot_place(s, node) : NULL;
    if (!p) {
        out_null(w);
        return;
    }
    lf_str name = lf_snapshot_string(s, p->name), script = lf_snapshot_string(s, p->script);
    if (!name.len)
        name = (lf_str){"(anonymous)", 11};
    char buf[4096];
    int n = snprintf(buf, sizeof buf, "%.*s @ %.*s:%llu:%llu", (int)(name.len < 1024 ? name.len : 1024), name.ptr,
                     (int)(script.len < 2048 ? script.len : 2048), script.ptr, (unsigned long long)p->line + 1,
                     (unsigned long long)p->column + 1);
    out_str(w, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void cli_write_root(out_writer *w, const lf_snapshot *s, uint32_t r)
{
    char buf[4096];
    out_str(w, buf, lf_root_text(s, r, buf, sizeof buf));
}

void cli_write_holder_root(out_writer *w, const lf_snapshot *s, lf_holder h)
{
    if (h.kind == LF_HOLDER_ROOT)
        cli_write_root(w, s, h.label);
    else
        out_null(w);
}

void cli_write_holder(out_writer *w, const lf_snapshot *s, lf_holder h, uint32_t node)
{
    if (h.kind == LF_HOLDER_ROOT) { /* the root has its own column (cli_write_holder_root) */
        out_str(w, "", 0);
        return;
    }
    char buf[4200];
    size_t n = lf_snapshot_label_text(s, h.kind, h.label, buf, sizeof buf);
    /* a field the format does not name (.gcdump), where there is an edge:
     * '?' in TSV and JSON; blank in a table, where a column of '?' on
     * most rows said nothing (cli_no_field_names_note says so) */
    if (n == 0 && (s->flags & LF_SNAP_NO_FIELD_NAMES) && node < s->object_count &&
        s->idom[node] < s->object_count && lf_snapshot_find_edge(s, s->idom[node], node) != UINT64_MAX) {
        out_str(w, "?", out_writer_format(w) != OUT_TABLE);
        return;
    }
    out_str(w, buf, n);
}

void cli_write_hop(out_writer *w, const lf_snapshot *s, lf_edge_answer a, const char *weak_prefix)
{
    char buf[4200];
    if (!(a.flags & LF_HOP_FOUND)) {
        out_str(w, "", 0);
        return;
    }
    size_t p = a.flags & LF_HOP_WEAK ? strlen(weak_prefix) : 0;
    p = p < 64 ? p : 64;
    memcpy(buf, weak_prefix, p);
    size_t n = lf_snapshot_label_text(s, a.kind, a.label, buf + p, sizeof buf - p);
    if (n == 0 && (s->flags & LF_SNAP_NO_FIELD_NAMES) && sizeof buf - p > 1) {
        buf[p] = '?'; /* a field the format does not name (.gcdump), not an empty one */
        n = 1;
    }
    out_str(w, buf, p + n);
}

void cli_no_field_names_note(const cli_context *ctx, const char *path, const lf_snapshot *s, int blank_in_table)
{
    if (ctx->quiet || !(s->flags & LF_SNAP_NO_FIELD_NAMES))
        return;
    if (blank_in_table && ctx->format == OUT_TABLE)
        cli_message("note", "'%s': a .gcdump records no field names: the field column is blank (TSV and JSON say '?')",
                    path);
    else
        cli_message("note", "'%s': a .gcdump records no field names: the field column says '?'", path);
}

int cli_make_grouping(const char *path, const lf_snapshot *s, int by_site, uint32_t stack,
                      lf_grouping *g)
{
    if (!by_site) {
        lf_grouping_by_class(s, g);
        return EXIT_OK;
    }
    if (!s->object_site) {
        cli_message("error", "'%s' has no allocation sites: --by-site needs dumps taken with "
                    "allocation tracking on (see docs/SITES.md)", path);
        return EXIT_INPUT;
    }
    lf_error err;
    if (lf_grouping_by_site(s, stack, g, &err))
        return cli_input_error(path, &err);
    return EXIT_OK;
}

int cli_open_output(const char *output, lf_outfile *out)
{
    if (strcmp(output, "-") == 0) {
        lf_outfile_use_fd(STDOUT_FILENO, out);
        return 0;
    }
    lf_error err;
    cli_remove_temp_on_signals();
    if (lf_outfile_open(output, 0, out, &err))
        return cli_input_error(output, &err);
    return 0;
}
