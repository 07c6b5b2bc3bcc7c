/* serve_site.c - what `leakfind serve` keeps while it runs: the analysed
 * snapshots, their class totals, the overview made at start, and the
 * indexes a view builds the first time it needs them (who points at whom,
 * instances by class), each once, under its snapshot's build_lock. */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../../core/analysis/topcursor.h"
#include "../cli/path_rows.h"
#include "../report/report.h"
#include "serve.h"

/* 128 random bits as 32 hex digits; -1 when the kernel gives none. */
static int make_token(char token[33])
{
    unsigned char raw[16];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    for (int i = 0; i < 16; i++)
        snprintf(token + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* The top level, V8's synthetic nodes collapsed (core/analysis/domview.h). */
static int build_top(serve_snapshot *snap)
{
    const lf_snapshot *s = &snap->s;
    lf_top_cursor c;
    if (!s->domtree_offset || lf_top_cursor_open(&c, s, 1))
        return -1;
    size_t cap = 0;
    lf_top_entry e;
    while (lf_top_cursor_next(&c, &e)) {
        if (snap->top_count == cap) {
            cap = cap ? 2 * cap : 1024;
            uint32_t *t = realloc(snap->top, cap * sizeof *t), *v = t ? realloc(snap->top_via, cap * sizeof *v) : NULL;
            if (t)
                snap->top = t;
            if (v)
                snap->top_via = v;
            if (!t || !v) {
                lf_top_cursor_close(&c);
                return -1;
            }
        }
        snap->top[snap->top_count] = e.node;
        snap->top_via[snap->top_count++] = e.via;
    }
    lf_top_cursor_close(&c);
    snap->top_text = calloc((size_t)snap->top_count + 1, sizeof *snap->top_text);
    return snap->top_text ? 0 : -1;
}

int serve_site_init(serve_site *site, serve_snapshot *snap, uint32_t count, const double *workload,
                    lf_error *err)
{
    memset(site, 0, sizeof *site);
    site->snap = snap;
    site->count = count;
    site->workload = workload;
    pthread_mutex_init(&site->serial, NULL);
    if (make_token(site->token))
        return lf_fail(err, LF_ERR_SYSTEM, "no random bytes for the token");
    for (uint32_t i = 0; i < count; i++) {
        pthread_mutex_init(&snap[i].lock, NULL);
        pthread_mutex_init(&snap[i].ids_lock, NULL);
        pthread_mutex_init(&snap[i].build_lock, NULL);
        pthread_mutex_init(&snap[i].kept_lock, NULL);
        pthread_mutex_init(&snap[i].path_lock, NULL);
        dom_roots_init(&snap[i].top_roots, &snap[i].s);
        if (lf_class_totals_compute(&snap[i].s, &snap[i].totals, err))
            return -1;
        if (!(snap[i].root_index = path_root_index(&snap[i].s)) || build_top(&snap[i]))
            return lf_fail_nomem(err, "the roots' index");
    }
    return 0;
}

void serve_site_free(serve_site *site)
{
    if (site->warming)
        pthread_join(site->warmer, NULL);
    for (uint32_t i = 0; i < site->count; i++) {
        serve_snapshot *p = &site->snap[i];
        lf_class_totals_free(&p->totals);
        free(p->root_index);
        serve_top_free(p);
        free(p->top), free(p->top_via);
        if (p->top_roots.s)
            dom_roots_free(&p->top_roots);
        if (p->rev_built)
            lf_path_search_free(&p->ps);
        lf_reverse_free(&p->rev);
        free(p->is_root);
        free(p->instance_first);
        free(p->instance);
        if (p->strings_built)
            lf_strings_free(&p->strings);
        free(p->site_child_first);
        free(p->site_child);
        free(p->site_total);
        serve_members_free(p);
        serve_ids_free(p);
        pthread_mutex_destroy(&p->lock);
        pthread_mutex_destroy(&p->ids_lock);
        pthread_mutex_destroy(&p->build_lock);
        pthread_mutex_destroy(&p->kept_lock);
        pthread_mutex_destroy(&p->path_lock);
    }
    free(site->overview);
    pthread_mutex_destroy(&site->serial);
    memset(site, 0, sizeof *site);
}

int serve_need_reverse(serve_snapshot *snap, serve_fail *fail)
{
    pthread_mutex_lock(&snap->build_lock);
    int rc = 0;
    if (!snap->rev_built) {
        const lf_snapshot *s = &snap->s;
        lf_graph g = lf_snapshot_graph(s);
        snap->is_root = calloc((size_t)s->object_count / 8 + 1, 1);
        rc = snap->is_root && lf_reverse_build(&g, &snap->rev) == 0 ? 0 : -1;
        for (uint32_t r = 0; rc == 0 && r < s->root_count; r++)
            snap->is_root[s->root[r].node / 8] |= (uint8_t)(1u << (s->root[r].node % 8));
        if (rc == 0)
            rc = lf_path_search_init(&snap->ps, &snap->rev, snap->is_root);
        if (rc) {
            free(snap->is_root);
            snap->is_root = NULL;
            lf_reverse_free(&snap->rev);
        }
        snap->rev_built = rc == 0;
    }
    pthread_mutex_unlock(&snap->build_lock);
    return rc ? serve_failf(fail, 500, "out of memory for the index of referrers") : 0;
}

/* Every object by class (a counting sort), each class's largest first. */
static int build_instances(serve_snapshot *snap)
{
    const lf_snapshot *s = &snap->s;
    uint32_t *first = calloc((size_t)s->class_count + 2, sizeof *first);
    uint32_t *inst = malloc(((size_t)s->object_count + 1) * sizeof *inst);
    if (!first || !inst) {
        free(first), free(inst);
        return -1;
    }
    for (uint32_t v = 0; v < s->object_count; v++)
        first[s->object_class[v] + 2]++;
    for (uint32_t c = 0; c < s->class_count; c++)
        first[c + 2] += first[c + 1];
    for (uint32_t v = 0; v < s->object_count; v++)
        inst[first[s->object_class[v] + 1]++] = v;
    for (uint32_t c = 0; c < s->class_count && lf_snapshot_has_retained(s); c++)
        qsort_r(inst + first[c], first[c + 1] - first[c], sizeof *inst, lf_node_by_retained, (void *)s);
    snap->instance_first = first;
    snap->instance = inst;
    return 0;
}

int serve_need_instances(serve_snapshot *snap, serve_fail *fail)
{
    pthread_mutex_lock(&snap->build_lock);
    int rc = snap->instance ? 0 : build_instances(snap);
    pthread_mutex_unlock(&snap->build_lock);
    return rc ? serve_failf(fail, 500, "out of memory for the index of instances") : 0;
}

static void *warm(void *arg)
{
    serve_site *site = arg;
    serve_fail ignored;
    /* a failure (memory) is said by the request that needs the index */
    for (uint32_t i = 0; i < site->count; i++)
        serve_top_warm(&site->snap[i]);
    for (uint32_t i = 0; i < site->count; i++)
        if (serve_need_ids(&site->snap[i]) || serve_need_instances(&site->snap[i], &ignored) ||
            serve_need_reverse(&site->snap[i], &ignored))
            break;
    return NULL;
}

void serve_site_warm(serve_site *site)
{
    site->warming = pthread_create(&site->warmer, NULL, warm, site) == 0;
}
