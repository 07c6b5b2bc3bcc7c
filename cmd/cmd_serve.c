/* cmd_serve.c - `leakfind serve`: the snapshots analysed once, then
 * explored in a browser (DESIGN 16, docs/SERVE.md): an HTTP server on the
 * loopback whose every view is one request answered from them. */
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/analysis/suspects.h"
#include "cli/cli.h"
#include "cli/series.h"
#include "commands.h"
#include "report/report.h"
#include "serve/serve.h"
#include "serve/serve_http.h"
#include "serve/serve_overview.h"
#include "serve/serve_page.h"

static const char serve_usage[] =
    "usage: leakfind serve SNAPSHOT [MORE...] [options]\n"
    "\n"
    "Analyses the snapshots once (with --cache, the next start is instant),\n"
    "then serves a page that explores them at the URL it prints, on the\n"
    "loopback: the leak suspects and totals, the dominator tree expanded a\n"
    "level at a time (grouped by class, a collection's entries), the class\n"
    "histogram and each class's instances, one object's fields, referrers and\n"
    "paths from the GC roots, the comparison of a series, queries. Every view\n"
    "is one request answered from the analysis, a page of rows at a time, and\n"
    "its URL names it: a link opens the same view while the server runs.\n"
    "The URL carries a random token that every request needs; the server\n"
    "answers only the address it listens on and changes nothing. Ctrl-C or\n"
    "SIGTERM ends it.\n";

typedef struct serve_state {
    const char *listen;
    uint64_t port;
    int open;
    double threshold;
    uint64_t suspects;
    series_workload workload;
    lf_trend_rule rule;
} serve_state;

static const cli_option serve_options[] = {
    {"port", 0, "N", CLI_COUNT, CLI_AT(serve_state, port), .max = 65535,
     .help = "the port on 127.0.0.1 (default: a free one)"},
    {"listen", 0, "ADDR:PORT", CLI_STRING, CLI_AT(serve_state, listen),
     .help = "listen on another IPv4 address than the loopback\n"
             "(a warning says who else can then reach the heap)"},
    {"open", 0, NULL, CLI_FLAG, CLI_AT(serve_state, open),
     .help = "open the page in the browser (xdg-open, or $BROWSER)"},
    {"threshold", 0, "PCT", CLI_PERCENT, CLI_AT(serve_state, threshold),
     .help = "share of the reachable heap a size suspect retains\n"
             "(default 10, as `suspects` takes it)"},
    {"suspects", 0, "N", CLI_COUNT, CLI_AT(serve_state, suspects),
     .help = "at most N suspects (default 10; 0 = all)"},
    SERIES_WORKLOAD_OPTION(serve_state, workload,
                           "the work done at each snapshot, in the order of the\n"
                           "arguments: it orders the series"),
    SERIES_RULE_OPTIONS(serve_state, rule, "", "", "", "\nthe growth rule, as trend's"),
    {0},
};

static const cli_spec serve_spec = {serve_usage, serve_options, 22, SERIES_ORDER_NOTE};

/* What runs while the server does. */
typedef struct serve_run {
    char **series;                 /* paths, oldest first */
    int count;
    serve_snapshot *snap;
    report_series trend;
    lf_suspect_list suspects;
    serve_site site;
} serve_run;

static int add_to_series(void *state, const lf_snapshot *s, uint32_t index, lf_error *err)
{
    return report_series_add(state, s, index, err);
}

/* Reads and analyses every snapshot, keeping all; 0 or an exit code. */
static int load(cli_context *ctx, const serve_state *o, serve_run *r)
{
    lf_error err;
    lf_snapshot *all = calloc((size_t)r->count, sizeof *all);
    r->snap = calloc((size_t)r->count, sizeof *r->snap);
    if (!all || !r->snap) {
        free(all);
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    if (report_series_init(&r->trend, (uint32_t)r->count, o->workload.value, &err)) {
        free(all);
        return cli_input_error(r->series[r->count - 1], &err);
    }
    int rc = series_read_all(ctx, r->series, r->count, add_to_series, &r->trend, all);
    for (int i = 0; !rc && i < r->count; i++) {
        r->snap[i].path = r->series[i];
        r->snap[i].s = all[i];
    }
    free(all);
    return rc;
}

/* The suspects, the site and its overview; 0 or an exit code. */
static int prepare(cli_context *ctx, const serve_state *o, serve_run *r)
{
    lf_error err;
    const char *last = r->series[r->count - 1];
    cli_progress(ctx, "finding suspects");
    const lf_trend *t = r->count > 1 ? &r->trend.trend : NULL;
    int rc = lf_suspects_find(&r->snap[r->count - 1].s, t, o->workload.value, &o->rule, o->threshold, o->suspects,
                              &r->suspects, &err);
    cli_progress_done(ctx);
    if (rc)
        return cli_input_error(last, &err);
    serve_overview_inputs in = {&r->trend, &r->suspects, &o->rule, o->threshold, ctx->threads};
    if (serve_site_init(&r->site, r->snap, (uint32_t)r->count, o->workload.value, &err))
        return cli_input_error(last, &err);
    r->site.threads = ctx->threads;
    if (serve_site_overview(&r->site, &in, &err))
        return cli_input_error(last, &err);
    if (serve_page_make()) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    return 0;
}

/* "ADDR:PORT" of --listen, or the loopback and --port; checked before the
 * snapshots are read, so a typo is a usage error at once, not an error of
 * the system minutes later. */
static int listen_address(cli_context *ctx, const serve_state *o, char *addr, size_t size, unsigned *port)
{
    if (!o->listen) {
        snprintf(addr, size, "127.0.0.1");
        *port = (unsigned)o->port;
        return 0;
    }
    const char *colon = strrchr(o->listen, ':');
    uint64_t p;
    if (!colon || colon == o->listen || (size_t)(colon - o->listen) >= size || cli_parse_count(colon + 1, &p) ||
        p > 65535)
        return cli_usage_error(ctx, "--listen needs ADDR:PORT (an IPv4 address), not '%s'", o->listen);
    snprintf(addr, size, "%.*s", (int)(colon - o->listen), o->listen);
    *port = (unsigned)p;
    struct in_addr ip;
    if (inet_pton(AF_INET, addr, &ip) != 1)
        return cli_usage_error(ctx, "--listen needs ADDR:PORT with an IPv4 address (such as 127.0.0.1), not '%s'",
                               o->listen);
    return 0;
}

static void open_browser(const char *url)
{
    const char *browser = getenv("BROWSER");
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        execlp(browser && *browser ? browser : "xdg-open", browser && *browser ? browser : "xdg-open", url,
               (char *)NULL);
        _exit(127);
    }
    if (pid < 0)
        cli_message("warning", "--open: could not start a browser; open the URL above");
}

/* Serves until SIGINT or SIGTERM, which every other thread blocks; 0 or
 * an exit code. */
static int run_server(cli_context *ctx, const serve_state *o, serve_run *r, const char *addr, unsigned port)
{
    char why[256];
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    serve_http *h = serve_http_start(&r->site, addr, port, why, sizeof why);
    if (!h) {
        cli_message("error", "%s", why);
        return EXIT_SYSTEM;
    }
    if (strcmp(addr, "127.0.0.1") != 0)
        cli_message("warning", "listening on %s, not the loopback: anyone who can reach it and has the URL reads "
                    "the heap, secrets and all", addr);
    char url[160];
    snprintf(url, sizeof url, "http://%s:%u/?t=%s", addr, serve_http_port(h), r->site.token);
    printf("%s\n", url);
    fflush(stdout);
    if (!ctx->quiet)
        cli_message("note", "serving %d snapshot%s at the URL above; Ctrl-C ends it", r->count,
                    r->count == 1 ? "" : "s");
    if (o->open)
        open_browser(url);
    serve_site_warm(&r->site);
    int sig = 0;
    sigwait(&stop, &sig);
    serve_http_stop(h);
    return EXIT_OK;
}

static void serve_run_free(serve_run *r)
{
    serve_site_free(&r->site);
    for (int i = 0; r->snap && i < r->count; i++)
        lf_snapshot_free(&r->snap[i].s);
    free(r->snap);
    lf_suspect_list_free(&r->suspects);
    report_series_free(&r->trend);
    serve_page_free();
}

int cmd_serve(int argc, char **argv)
{
    cli_context ctx = {0};
    static serve_state opt;
    memset(&opt, 0, sizeof opt);
    opt.threshold = 0.1;
    opt.suspects = 10;
    opt.rule = SERIES_RULE_DEFAULT;
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &serve_spec, &opt, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    static char *series[SERIES_MAX];
    serve_run r;
    memset(&r, 0, sizeof r);
    char addr[64];
    unsigned port = 0;
    r.series = series;
    r.count = npos;
    if (npos < 1 || npos > SERIES_MAX)
        rc = cli_usage_error(&ctx, "serve takes one snapshot or a series of them (at most %d)", SERIES_MAX);
    else if (opt.listen && opt.port)
        rc = cli_usage_error(&ctx, "--listen names the port: not with --port");
    else if (!(rc = listen_address(&ctx, &opt, addr, sizeof addr, &port)) &&
             !(rc = cli_check_stdin_once(&ctx, pos, npos)))
        rc = series_order(&ctx, pos, npos, &opt.workload, SERIES_OLDEST_FIRST, series);
    if (!rc && !(rc = load(&ctx, &opt, &r)) && !(rc = prepare(&ctx, &opt, &r)))
        rc = run_server(&ctx, &opt, &r, addr, port);
    if (r.snap)
        serve_run_free(&r);
    free(pos);
    return rc;
}
