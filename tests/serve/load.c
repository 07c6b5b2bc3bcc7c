/* load.c - `leakfind serve` under many clients at once: CLIENTS threads on
 * the loopback, plain sockets, one connection a request, each paging
 * through a large part of the dominator tree (the children of a node with
 * many, a page at a time), then the objects of those pages, their referrers
 * and their paths from the roots. Every view is deterministic, so each
 * answer under load must be byte for byte the answer one client alone got
 * first; a page's rows are also checked against its total. Prints, per
 * kind of request, how many, p50, p95 and max latency in milliseconds; the
 * last line is "N requests, M wrong" and the exit status 0 only with none
 * wrong.
 *
 * usage: load URL [--clients N] [--seconds S] [--rounds R] [--node ID]
 *   URL as `leakfind serve` printed it; --node the node whose children are
 *   paged (default: from the root, down the child with the most children);
 *   the clients stop after S seconds or R passes over the requests, the
 *   first reached (default 5 s; 0: no bound). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_http.h"

enum { PAGE = 100, PAGES_MAX = 40, OBJECTS_MAX = 80, DESCENT_MAX = 12 };

static const char *const kind_name[KINDS] = {"children", "object", "referrers", "paths"};

/* The id of the row of the most children in a children answer, and that count. */
static int most_children(const char *body, char *id, size_t id_size, long *children)
{
    static const char row[] = "{\"object\":{\"id\":\"";
    *children = -1;
    for (const char *at = strstr(body, row); at; at = strstr(at + 1, row)) {
        const char *v = at + sizeof row - 1, *q = strchr(v, '"');
        const char *c = strstr(v, "\"children\":");
        const char *next = strstr(v, row);
        if (!q || !c || (next && c > next) || (size_t)(q - v) >= id_size)
            continue;
        long n = strtol(c + 11, NULL, 10);
        if (n > *children) {
            *children = n;
            snprintf(id, id_size, "%.*s", (int)(q - v), v);
        }
    }
    return *children < 0 ? -1 : 0;
}

/* From the root down the child with the most children, keeping the node
 * whose children view has the largest total. */
static int find_node(load_site *site, char *node, size_t size)
{
    char at[64] = "root", child[64];
    long best = -1;
    for (int depth = 0; depth < DESCENT_MAX; depth++) {
        char path[256];
        snprintf(path, sizeof path, "/api/children?id=%s&count=1000", at);
        load_answer a;
        if (load_get(site, path, &a) || a.status != 200)
            return fprintf(stderr, "load: %s: %u\n", path, a.status), load_answer_free(&a), -1;
        long total = load_json_long(a.body, "\"total\":"), most;
        if (total > best)
            best = total, snprintf(node, size, "%s", at);
        int rc = most_children(a.body, child, sizeof child, &most);
        load_answer_free(&a);
        if (rc || most <= 0)
            break;
        snprintf(at, sizeof at, "%s", child);
    }
    return best < 0 ? -1 : 0;
}

/* The requests: pages of the node's children spread over all of them, and
 * the objects of those pages (object, referrers and paths views). */
static int plan(load_site *site, const char *node, load_plan *p)
{
    char path[256];
    snprintf(path, sizeof path, "/api/children?id=%s&count=%d", node, PAGE);
    load_answer a;
    if (load_get(site, path, &a) || a.status != 200)
        return fprintf(stderr, "load: %s: %u\n", path, a.status), load_answer_free(&a), -1;
    long total = load_json_long(a.body, "\"total\":");
    load_answer_free(&a);
    long pages = (total + PAGE - 1) / PAGE < PAGES_MAX ? (total + PAGE - 1) / PAGE : PAGES_MAX;
    for (long i = 0; i < pages; i++) {
        snprintf(path, sizeof path, "/api/children?id=%s&from=%ld&count=%d", node, i * (total / pages), PAGE);
        if (load_plan_add(p, KIND_CHILDREN, path, total))
            return -1;
    }
    /* the rows' ids, spread over the pages (load_plan_add has the bodies) */
    size_t ids = 0, want = OBJECTS_MAX;
    for (size_t r = 0; r < p->count && ids < want; r++) {
        char id[64];
        for (size_t k = 0; ids < want && load_row_id(p->req[r].body, k, id, sizeof id) == 0; k += PAGE / 4, ids++) {
            static const char *const view[] = {NULL, "/api/object", "/api/referrers", "/api/paths"};
            for (int kind = KIND_OBJECT; kind < KINDS; kind++) {
                snprintf(path, sizeof path, "%s?id=%s", view[kind], id);
                if (load_plan_add(p, kind, path, -1))
                    return -1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    load_options o = {.clients = 32, .seconds = 5, .rounds = 0};
    const char *url = NULL, *node_arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--clients") == 0 && i + 1 < argc)
            o.clients = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            o.seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            o.rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--node") == 0 && i + 1 < argc)
            node_arg = argv[++i];
        else if (!url && argv[i][0] != '-')
            url = argv[i];
        else
            return fprintf(stderr, "usage: load URL [--clients N] [--seconds S] [--rounds R] [--node ID]\n"), 2;
    }
    load_site site;
    if (!url || o.clients < 1 || o.clients > 1024 || load_site_parse(url, &site))
        return fprintf(stderr, "load: a URL as leakfind serve prints it is needed\n"), 2;
    char node[64];
    if (node_arg)
        snprintf(node, sizeof node, "%s", node_arg);
    else if (find_node(&site, node, sizeof node))
        return fprintf(stderr, "load: no node with children found\n"), 1;
    load_plan p = {.site = &site};
    if (plan(&site, node, &p))
        return 1;
    printf("node %s: %zu requests a pass, %d clients\n", node, p.count, o.clients);
    load_result res;
    if (load_run(&site, &p, &o, &res))
        return fprintf(stderr, "load: cannot start the clients\n"), 1;
    printf("kind\trequests\tp50_ms\tp95_ms\tmax_ms\n");
    for (int k = 0; k < KINDS; k++)
        if (res.count[k])
            printf("%s\t%zu\t%.2f\t%.2f\t%.2f\n", kind_name[k], res.count[k], res.p50[k], res.p95[k], res.max[k]);
    printf("%zu requests, %zu wrong\n", res.requests, res.wrong);
    load_plan_free(&p);
    return res.wrong || !res.requests ? 1 : 0;
}
