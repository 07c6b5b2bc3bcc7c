/* load_http.c - the load test's HTTP: a GET on a new connection (the
 * server closes it after the answer: Connection: close), read to the end;
 * the parts of a JSON answer the test reads (a number, the rows' ids); the
 * plan of requests with their first answers. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "load_http.h"

int load_site_parse(const char *url, load_site *site)
{
    memset(site, 0, sizeof *site);
    char addr[32];
    unsigned port;
    int used = 0;
    if (sscanf(url, "http://%31[0-9.]:%u/?t=%63[0-9a-f]%n", addr, &port, site->token, &used) != 3 ||
        url[used] || port == 0 || port > 65535)
        return -1;
    site->addr.sin_family = AF_INET;
    site->addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &site->addr.sin_addr) != 1)
        return -1;
    snprintf(site->host, sizeof site->host, "%s:%u", addr, port);
    return 0;
}

/* Reads to the end of the connection into a NUL-ended buffer. */
static char *read_all(int fd, size_t *len)
{
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    *len = 0;
    for (;;) {
        if (!buf)
            return NULL;
        if (*len + 1 == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
            continue;
        }
        ssize_t n = read(fd, buf + *len, cap - 1 - *len);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if (n == 0)
            break;
        *len += (size_t)n;
    }
    buf[*len] = '\0';
    return buf;
}

/* The status and body of a reply whose Content-Length is all there. */
static void parse_reply(load_answer *a, size_t len)
{
    unsigned status;
    char *end = strstr(a->raw, "\r\n\r\n");
    char *cl = strcasestr(a->raw, "\r\nContent-Length:");
    if (!end || sscanf(a->raw, "HTTP/1.%*[01] %u", &status) != 1)
        return;
    a->body = end + 4;
    a->len = len - (size_t)(a->body - a->raw);
    if (cl && cl < end && strtoul(cl + 17, NULL, 10) != a->len)
        return; /* cut short */
    a->status = status;
}

int load_get(const load_site *site, const char *path, load_answer *a)
{
    memset(a, 0, sizeof *a);
    char rq[1024];
    int n = snprintf(rq, sizeof rq, "GET %s%ct=%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path,
                     strchr(path, '?') ? '&' : '?', site->token, site->host);
    if (n < 0 || (size_t)n >= sizeof rq)
        return -1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    size_t len = 0;
    if (connect(fd, (const struct sockaddr *)&site->addr, sizeof site->addr) == 0 && write(fd, rq, (size_t)n) == n)
        a->raw = read_all(fd, &len);
    close(fd);
    if (!a->raw)
        return -1;
    parse_reply(a, len);
    return a->status ? 0 : -1;
}

void load_answer_free(load_answer *a)
{
    free(a->raw);
    a->raw = NULL;
}

long load_json_long(const char *body, const char *key)
{
    const char *at = body ? strstr(body, key) : NULL;
    return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

/* A row of a children answer starts so; the parent has no "object" key, and
 * inside a JSON string every quote is escaped, so nothing else matches. */
static const char row_start[] = "{\"object\":{\"id\":\"";

int load_row_id(const char *body, size_t k, char *id, size_t size)
{
    const char *at = strstr(body, row_start);
    for (size_t i = 0; at && i < k; i++)
        at = strstr(at + 1, row_start);
    if (!at)
        return -1;
    at += sizeof row_start - 1;
    const char *q = strchr(at, '"');
    if (!q || (size_t)(q - at) >= size)
        return -1;
    snprintf(id, size, "%.*s", (int)(q - at), at);
    return 0;
}

size_t load_row_count(const char *body)
{
    size_t n = 0;
    for (const char *at = strstr(body, row_start); at; at = strstr(at + 1, row_start))
        n++;
    return n;
}

int load_plan_add(load_plan *p, int kind, const char *path, long total)
{
    load_answer a;
    if (load_get(p->site, path, &a) || a.status != 200) {
        fprintf(stderr, "load: %s: status %u\n%.300s\n", path, a.status, a.body ? a.body : "");
        load_answer_free(&a);
        return -1;
    }
    if (total >= 0) {
        long from = load_json_long(a.body, "\"from\":"), count = load_json_long(path, "count=");
        long want = total - from < count ? total - from : count;
        if (load_json_long(a.body, "\"total\":") != total || (long)load_row_count(a.body) != want) {
            fprintf(stderr, "load: %s: %zu rows of total %ld, not %ld of %ld\n", path, load_row_count(a.body),
                    load_json_long(a.body, "\"total\":"), want, total);
            load_answer_free(&a);
            return -1;
        }
    }
    if (p->count == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        load_req *more = realloc(p->req, cap * sizeof *more);
        if (!more)
            return load_answer_free(&a), -1;
        p->req = more, p->cap = cap;
    }
    load_req *r = &p->req[p->count];
    r->kind = kind;
    r->path = strdup(path);
    r->len = a.len;
    r->body = malloc(a.len + 1);
    if (!r->path || !r->body) {
        free(r->path), free(r->body);
        return load_answer_free(&a), -1;
    }
    memcpy(r->body, a.body, a.len + 1);
    p->count++;
    load_answer_free(&a);
    return 0;
}

void load_plan_free(load_plan *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->req[i].path), free(p->req[i].body);
    free(p->req);
    memset(p, 0, sizeof *p);
}
