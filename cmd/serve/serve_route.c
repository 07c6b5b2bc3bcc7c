/* serve_route.c - every request `leakfind serve` answers passes here:
 * first the checks that keep a page on another site from reading the heap
 * (the Host header, then the token), then the view its path names, whose
 * JSON (or whose failure, as {"error": ...}) becomes the reply. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"
#include "serve_page.h"

static const struct view {
    const char *path;
    serve_view_fn run;
    int serial;  /* calls code that is not reentrant: one at a time */
} views[] = {
    {"/api/overview", serve_view_overview, 0},
    {"/api/children", serve_view_children, 0},
    {"/api/classes", serve_view_classes, 0},
    {"/api/instances", serve_view_instances, 0},
    {"/api/object", serve_view_object, 0},
    {"/api/referrers", serve_view_referrers, 0},
    {"/api/paths", serve_view_paths, 0},
    {"/api/compare", serve_view_compare, 1},  /* lf_diff_classes sorts ids through a global */
    {"/api/query", serve_view_query, 1},
    {"/api/strings", serve_view_strings, 0},
    {"/api/threads", serve_view_threads, 0},
    {"/api/sites", serve_view_sites, 0},
};

void serve_reply_free(serve_reply *r)
{
    if (!r->body_static)
        free(r->body);
    r->body = NULL;
}

static void reply_static(serve_reply *out, unsigned status, const char *type, const char *body, size_t len)
{
    out->status = status;
    out->type = type;
    out->body = (char *)body;
    out->len = len;
    out->body_static = 1;
}

/* A failure as JSON: {"error": "..."}, with "at" (where the page puts
 * its caret in the argument at fault) when at >= 0. */
static void reply_error_at(serve_reply *out, unsigned status, const char *message, long at)
{
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    if (f) {
        fputs("{\"error\":", f);
        serve_json_cstr(f, message);
        if (at >= 0)
            fprintf(f, ",\"at\":%ld", at);
        fputs("}\n", f);
    }
    if (!f || fclose(f)) {
        free(body);
        reply_static(out, 500, "text/plain", "out of memory\n", 14);
        return;
    }
    out->status = status;
    out->type = "application/json";
    out->body = body;
    out->len = len;
    out->body_static = 0;
}

/* Equal, in a time that does not tell how much of the token was right. */
static int token_equal(const char *given, const char *token)
{
    size_t n = strlen(token);
    if (!given || strlen(given) != n)
        return 0;
    unsigned diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)given[i] ^ (unsigned char)token[i];
    return diff == 0;
}

/* The Host header names the address served (a DNS name pointed at the
 * loopback by another site would not be one of them). */
static int host_allowed(const serve_site *site, const char *host)
{
    if (!host)
        return 0;
    for (unsigned i = 0; i < site->hosts; i++)
        if (strcmp(host, site->host[i]) == 0)
            return 1;
    return 0;
}

static void reply_error(serve_reply *out, unsigned status, const char *message)
{
    reply_error_at(out, status, message, -1);
}

static const struct view *find_view(const char *path)
{
    for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        if (strcmp(views[i].path, path) == 0)
            return &views[i];
    return NULL;
}

static void run_view(serve_site *site, const struct view *v, const serve_request *rq, serve_reply *out)
{
    serve_fail fail = {500, "out of memory", -1};
    char *body = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&body, &len);
    int rc = -1;
    if (f) {
        if (v->serial)
            pthread_mutex_lock(&site->serial);
        rc = v->run(site, rq, f, &fail);
        if (v->serial)
            pthread_mutex_unlock(&site->serial);
        if (fclose(f) && rc == 0)
            rc = serve_failf(&fail, 500, "out of memory");
    }
    if (rc) {
        free(body);
        reply_error_at(out, fail.status, fail.message, fail.at);
        return;
    }
    out->status = 200;
    out->type = "application/json";
    out->body = body;
    out->len = len;
    out->body_static = 0;
}

void serve_handle(serve_site *site, const serve_request *rq, serve_reply *out)
{
    memset(out, 0, sizeof *out);
    if (!rq->method || (strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0))
        return reply_error(out, 405, "only GET: nothing here can be changed");
    if (!host_allowed(site, rq->host))
        return reply_error(out, 403, "the Host header is not the address served");
    if (!token_equal(serve_arg_text(rq, "t"), site->token))
        return reply_error(out, 403, "no token, or not this server's: open the URL leakfind serve printed");
    if (rq->args_dropped)
        return reply_error(out, 400, "too many arguments, or one too long");
    if (!rq->path || strcmp(rq->path, "/") == 0)
        return reply_static(out, 200, "text/html; charset=utf-8", serve_page, serve_page_len);
    const struct view *v = find_view(rq->path);
    if (!v)
        return reply_error(out, 404, "no such view");
    run_view(site, v, rq, out);
}
