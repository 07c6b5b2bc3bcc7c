/* load_http.h - the load test's client (load_http.c): one GET a
 * connection on plain sockets, the requests of a pass and their first
 * answers, and the clients that replay them at once (load_run.c). */
#ifndef LF_LOAD_HTTP_H
#define LF_LOAD_HTTP_H

#include <netinet/in.h>
#include <stddef.h>

enum { KIND_CHILDREN, KIND_OBJECT, KIND_REFERRERS, KIND_PATHS, KINDS };

typedef struct load_site {
    struct sockaddr_in addr;
    char host[64];               /* the Host header: ADDR:PORT of the URL */
    char token[64];
} load_site;

typedef struct load_answer {
    unsigned status;             /* 0: no answer (connection, or a damaged reply) */
    char *raw;                   /* the whole reply, NUL-ended */
    const char *body;
    size_t len;                  /* of the body */
} load_answer;

/* http://ADDR:PORT/?t=TOKEN; -1 when it is not one. */
int load_site_parse(const char *url, load_site *site);
/* GET path with the token added; -1 when nothing came back. */
int load_get(const load_site *site, const char *path, load_answer *a);
void load_answer_free(load_answer *a);
/* The number after key in a JSON text, -1 when absent. */
long load_json_long(const char *body, const char *key);
/* The id of row k of a children answer; -1 past the last. */
int load_row_id(const char *body, size_t k, char *id, size_t size);
/* How many rows a children answer has. */
size_t load_row_count(const char *body);

typedef struct load_req {
    int kind;
    char *path;
    char *body;                  /* the first answer's, one client alone */
    size_t len;
} load_req;

typedef struct load_plan {
    const load_site *site;
    load_req *req;
    size_t count, cap;
} load_plan;

/* Asks path once and keeps the answer as the one every later answer must
 * be. A children page must have its rows' count right for its from and
 * total (total: what the first page said, -1 to skip the check). */
int load_plan_add(load_plan *p, int kind, const char *path, long total);
void load_plan_free(load_plan *p);

typedef struct load_options {
    int clients;
    double seconds;              /* 0: no bound */
    int rounds;                  /* passes over the plan, 0: no bound */
} load_options;

typedef struct load_result {
    size_t requests, wrong;
    size_t count[KINDS];
    double p50[KINDS], p95[KINDS], max[KINDS]; /* milliseconds */
} load_result;

int load_run(const load_site *site, const load_plan *p, const load_options *o, load_result *r);

#endif
