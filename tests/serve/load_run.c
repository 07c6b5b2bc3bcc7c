/* load_run.c - the load test's clients: threads that each go through the
 * plan from a place of their own (so the server sees every kind at once),
 * compare every answer with the plan's, and time it; then the latencies
 * of each kind merged and sorted for the percentiles. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "load_http.h"

typedef struct samples {
    double *ms;
    size_t count, cap;
} samples;

typedef struct client {
    pthread_t thread;
    const load_site *site;
    const load_plan *plan;
    const load_options *o;
    size_t start;
    double deadline;
    samples kind[KINDS];
    size_t wrong;
    int failed;                  /* out of memory for the samples */
} client;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int add_sample(samples *s, double ms)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        double *more = realloc(s->ms, cap * sizeof *more);
        if (!more)
            return -1;
        s->ms = more, s->cap = cap;
    }
    s->ms[s->count++] = ms;
    return 0;
}

/* One request: its answer must be the plan's, byte for byte. */
static void ask(client *c, const load_req *rq)
{
    load_answer a;
    double t0 = now();
    int rc = load_get(c->site, rq->path, &a);
    double ms = (now() - t0) * 1000;
    if (rc || a.status != 200 || a.len != rq->len || memcmp(a.body, rq->body, a.len) != 0) {
        if (c->wrong++ < 3)
            fprintf(stderr, "load: %s: status %u, %zu bytes, not the first answer's %zu\n", rq->path, a.status,
                    a.len, rq->len);
    }
    load_answer_free(&a);
    if (add_sample(&c->kind[rq->kind], ms))
        c->failed = 1;
}

static void *run_client(void *arg)
{
    client *c = arg;
    const load_plan *p = c->plan;
    for (int round = 0; !c->o->rounds || round < c->o->rounds; round++)
        for (size_t i = 0; i < p->count; i++) {
            if (c->o->seconds > 0 && now() >= c->deadline)
                return NULL;
            ask(c, &p->req[(c->start + i) % p->count]);
        }
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The kind's samples of every client, sorted, into its percentiles. */
static int summarize(client *c, int clients, int kind, load_result *r)
{
    size_t n = 0;
    for (int i = 0; i < clients; i++)
        n += c[i].kind[kind].count;
    r->count[kind] = n;
    if (!n)
        return 0;
    double *all = malloc(n * sizeof *all);
    if (!all)
        return -1;
    size_t at = 0;
    for (int i = 0; i < clients; i++) {
        if (!c[i].kind[kind].count)
            continue; /* a client that asked none has no samples array: no memcpy from NULL */
        memcpy(all + at, c[i].kind[kind].ms, c[i].kind[kind].count * sizeof *all);
        at += c[i].kind[kind].count;
    }
    qsort(all, n, sizeof *all, by_value);
    r->p50[kind] = all[(n - 1) / 2];
    r->p95[kind] = all[(size_t)ceil(0.95 * (double)n) - 1];
    r->max[kind] = all[n - 1];
    free(all);
    return 0;
}

int load_run(const load_site *site, const load_plan *p, const load_options *o, load_result *r)
{
    memset(r, 0, sizeof *r);
    client *c = calloc((size_t)o->clients, sizeof *c);
    if (!c || !p->count)
        return free(c), -1;
    double deadline = now() + o->seconds;
    int started = 0, rc = 0;
    for (; started < o->clients; started++) {
        c[started] = (client){.site = site, .plan = p, .o = o, .deadline = deadline,
                              .start = (size_t)started * p->count / (size_t)o->clients};
        if (pthread_create(&c[started].thread, NULL, run_client, &c[started])) {
            rc = -1;
            break;
        }
    }
    for (int i = 0; i < started; i++) {
        pthread_join(c[i].thread, NULL);
        r->wrong += c[i].wrong;
        rc = c[i].failed ? -1 : rc;
    }
    for (int k = 0; k < KINDS; k++) {
        rc = summarize(c, started, k, r) ? -1 : rc;
        r->requests += r->count[k];
    }
    for (int i = 0; i < started; i++)
        for (int k = 0; k < KINDS; k++)
            free(c[i].kind[k].ms);
    free(c);
    return rc;
}
