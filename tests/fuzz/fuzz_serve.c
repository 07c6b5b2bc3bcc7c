/* fuzz_serve.c - `leakfind serve` without sockets: serve_handle, all that
 * a request reaches (serve.h), asked arbitrary requests about a site of
 * four analysed snapshots (fixtures/example/app.lfs, a JVM dump with
 * collections, a V8 snapshot with closures and strings, one with
 * allocation sites), each loaded once.
 *
 * Input: byte 0 says what is real (bit 0: the site's Host header, bit 1:
 * its token as the first argument; bits 2-3: GET, GET, HEAD, or the method
 * from the text), byte 1 the path (below 13 a view or the page, else from
 * the text);
 * the rest is lines: [method] [path] [Host, "-" for none] then key=value
 * arguments (a line without '=' is a key without value, as libmicrohttpd
 * gives "?raw"). Without the real Host and token most inputs stop at 403,
 * so the bits let the fuzzer reach the views; with the text, it can try to
 * get past the checks on its own. The arguments are bounded as serve_http.c
 * bounds them (args_dropped). Run from the repository's root. */
#include <stdlib.h>
#include <string.h>

#include "../../cmd/serve/serve.h"
#include "../../cmd/serve/serve_page.h"
#include "../../core/input/open.h"
#include "fuzz.h"

enum { SNAPSHOTS = 4, LINES_MAX = 64 };

static serve_snapshot snap[SNAPSHOTS];
static serve_site site;
static int ready; /* 1 when the site is up, -1 when it could not be */

static const char overview[] = "{\"stub\":true}\n";

static int setup(void)
{
    static const char *const paths[SNAPSHOTS] = {"fixtures/example/app.lfs", "fixtures/java/dumps/map_sessions.hprof.gz",
                                                 "fixtures/node/inspect_values.heapsnapshot.gz",
                                                 "fixtures/node/alloc_sites-100.heapsnapshot.gz"};
    lf_open_options options = {0};
    lf_error err;
    for (int i = 0; i < SNAPSHOTS; i++) {
        snap[i].path = paths[i];
        if (lf_open(paths[i], &options, &snap[i].s, &err) || lf_analyze(&snap[i].s, 0, 1, &err))
            return -1;
    }
    if (serve_site_init(&site, snap, SNAPSHOTS, NULL, &err) || serve_page_make())
        return -1;
    /* the overview is the report's JSON, made at start: a stub stands in
     * (its writers have fuzz targets of their own through the readers) */
    site.overview = malloc(sizeof overview);
    if (!site.overview)
        return -1;
    memcpy(site.overview, overview, sizeof overview);
    site.overview_len = sizeof overview - 1;
    snprintf(site.host[0], sizeof site.host[0], "127.0.0.1:8080");
    snprintf(site.host[1], sizeof site.host[1], "localhost:8080");
    site.hosts = 2;
    return 0;
}

static const char *const view_path[] = {"/api/overview", "/api/children",  "/api/classes", "/api/instances",
                                        "/api/object",   "/api/referrers", "/api/paths",   "/",
                                        "/api/compare",  "/api/query",     "/api/strings", "/api/threads",
                                        "/api/sites"};
enum { VIEWS = sizeof view_path / sizeof *view_path };

/* The text cut into NUL-ended lines (the copy is the caller's to free). */
static size_t split_lines(char *text, size_t len, char **line)
{
    size_t n = 0;
    char *at = text, *end = text + len;
    while (at <= end && n < LINES_MAX) {
        char *nl = memchr(at, '\n', (size_t)(end - at));
        if (!nl)
            nl = end;
        *nl = '\0';
        line[n++] = at;
        at = nl + 1;
    }
    return n;
}

/* What the reply must be, whatever was asked: a status HTTP knows, a body
 * where its length says, JSON from every view. A broken rule aborts. */
static void check_reply(const serve_reply *r)
{
    if (r->status < 200 || r->status > 599 || !r->type || (r->len && !r->body))
        abort();
    if (r->status != 200 || strncmp(r->type, "application/json", 16) == 0) {
        size_t end = r->len;
        while (end && r->body[end - 1] == '\n')
            end--;
        if (end < 2 || r->body[0] != '{' || r->body[end - 1] != '}')
            abort();
    }
    volatile unsigned char sum = 0;
    for (size_t i = 0; i < r->len; i++) /* every byte read, for the sanitizers */
        sum ^= (unsigned char)r->body[i];
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        ready = setup() ? -1 : 1;
    if (ready < 0)
        abort(); /* a fixture that does not load is the harness's bug, not an input's */
    if (size < 2)
        return 0;
    char *text = malloc(size - 2 + 1);
    if (!text)
        return 0;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    char *line[LINES_MAX];
    size_t lines = split_lines(text, size - 2, line), at = 0;
    serve_request rq = {0};
    unsigned method = (data[0] >> 2) & 3;
    rq.method = method == 2 ? "HEAD" : method < 2 ? "GET" : at < lines ? line[at++] : NULL;
    rq.path = data[1] < VIEWS ? view_path[data[1]] : at < lines ? line[at++] : NULL;
    if (data[0] & 1)
        rq.host = site.host[data[1] & 1];
    else if (at < lines)
        rq.host = strcmp(line[at], "-") == 0 ? (at++, NULL) : line[at++];
    serve_arg arg[SERVE_ARGS_MAX];
    size_t n = 0;
    if (data[0] & 2)
        arg[n++] = (serve_arg){"t", site.token};
    for (; at < lines; at++) {
        char *eq = strchr(line[at], '=');
        if (eq)
            *eq = '\0';
        if (n == SERVE_ARGS_MAX || strlen(line[at]) > SERVE_ARG_MAX || (eq && strlen(eq + 1) > SERVE_ARG_MAX)) {
            rq.args_dropped = 1;
            break;
        }
        arg[n++] = (serve_arg){line[at], eq ? eq + 1 : NULL};
    }
    rq.arg = arg;
    rq.nargs = n;
    serve_reply reply;
    serve_handle(&site, &rq, &reply);
    check_reply(&reply);
    serve_reply_free(&reply);
    free(text);
    return 0;
}
