/* serve_http.c - the HTTP side of `leakfind serve`, on libmicrohttpd: it
 * parses requests (no parser of ours), bounds what a client may send, and
 * gives serve_handle the method, path, Host header and arguments; the
 * answer goes back with headers that keep a browser from sharing it. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "mhd_lib.h"
#include "serve_http.h"

/* Request line and headers of a connection must fit here: a 1 MB URL is
 * refused by the library with 414 before it reaches us. */
enum { CONNECTION_MEMORY = 64 * 1024, CONNECTIONS_MAX = 256, IDLE_SECONDS = 30 };

/* set by the first serve_http_start, before any server thread runs */
static const mhd_lib *mhd;

struct serve_http {
    struct MHD_Daemon *daemon;
    serve_site *site;
    unsigned port;
};

typedef struct arg_list {
    serve_arg arg[SERVE_ARGS_MAX];
    size_t count;
    int dropped;
} arg_list;

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    arg_list *a = cls;
    (void)kind;
    if (a->count == SERVE_ARGS_MAX || strlen(key) > SERVE_ARG_MAX || (value && strlen(value) > SERVE_ARG_MAX)) {
        a->dropped = 1;
        return MHD_NO;
    }
    a->arg[a->count++] = (serve_arg){key, value};
    return MHD_YES;
}

static enum MHD_Result send_reply(struct MHD_Connection *conn, serve_reply *r, int head)
{
    struct MHD_Response *resp =
        head ? mhd->create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT)
             : mhd->create_response_from_buffer(r->len, r->body,
                                               r->body_static ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        serve_reply_free(r);
        return MHD_NO;
    }
    if (head || r->body_static)
        serve_reply_free(r);  /* the library frees a MUST_FREE body */
    mhd->add_response_header(resp, "Content-Type", r->type ? r->type : "text/plain");
    mhd->add_response_header(resp, "Cache-Control", "no-store");
    mhd->add_response_header(resp, "X-Content-Type-Options", "nosniff");
    mhd->add_response_header(resp, "Referrer-Policy", "no-referrer");
    mhd->add_response_header(resp, "X-Frame-Options", "DENY");
    mhd->add_response_header(resp, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                            "connect-src 'self'; img-src data:; frame-ancestors 'none'");
    enum MHD_Result ok = mhd->queue_response(conn, r->status, resp);
    mhd->destroy_response(resp);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_size,
                                  void **con_cls)
{
    serve_http *h = cls;
    (void)version, (void)upload_data;
    /* a body (nothing here takes one) is read and dropped; the answer goes
     * out once it is in */
    if (!*con_cls) {
        *con_cls = h;
        return MHD_YES;
    }
    if (*upload_size) {
        *upload_size = 0;
        return MHD_YES;
    }
    arg_list args = {.count = 0};
    mhd->get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, &args);
    serve_request rq = {method, url, mhd->lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
                        args.arg, args.count, args.dropped};
    serve_reply reply;
    serve_handle(h->site, &rq, &reply);
    return send_reply(conn, &reply, strcmp(method, "HEAD") == 0);
}

static void set_hosts(serve_site *site, const char *addr, unsigned port)
{
    site->hosts = 0;
    snprintf(site->host[site->hosts++], sizeof site->host[0], "%s:%u", addr, port);
    if (strcmp(addr, "127.0.0.1") == 0)
        snprintf(site->host[site->hosts++], sizeof site->host[0], "localhost:%u", port);
}

serve_http *serve_http_start(serve_site *site, const char *addr, unsigned port, char *why, size_t why_size)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
        snprintf(why, why_size, "'%s' is not an IPv4 address", addr);
        return NULL;
    }
    if (!mhd && !(mhd = mhd_lib_load(why, why_size)))
        return NULL;
    serve_http *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    h->site = site;
    h->daemon = mhd->start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, (uint16_t)port,
                                 NULL, NULL, on_request, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
                                 MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONNECTIONS_MAX,
                                 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_SECONDS, MHD_OPTION_END);
    if (!h->daemon) {
        snprintf(why, why_size, "cannot listen on %s:%u: %s", addr, port,
                 errno ? strerror(errno) : "the HTTP library refused");
        free(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = mhd->get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : port;
    set_hosts(site, addr, h->port);
    return h;
}

unsigned serve_http_port(const serve_http *h)
{
    return h->port;
}

void serve_http_stop(serve_http *h)
{
    if (!h)
        return;
    mhd->stop_daemon(h->daemon);
    free(h);
}
