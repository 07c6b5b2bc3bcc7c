/* view_compare_owners.c - /api/compare?by=owner: what grew between two
 * snapshots by owner, as `diff --owners` and `trend --owners` group it
 * (cmd/cli/owner_growth.c, core/analysis/owners.h): dominator-tree nodes
 * matched by their path from the roots; an owner one of whose children
 * carries 90% of its growth is left out (the deeper one says where the
 * objects accumulate), and so is what lies inside a collection. Only
 * owners whose retained objects grew, as those commands list them.
 *
 * A row's count is the objects the owner retains, retained its bytes;
 * shallow is the owner object's own size (one node of that path in each
 * snapshot: owners carry no sum of shallow sizes). Matching owners reads
 * both heaps: it is done per request (the view runs serial). */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/owners.h"
#include "../../core/base/bigmem.h"
#include "../report/report.h"
#include "serve_compare.h"

#define OWNER_CARRIES 0.9

static int64_t grown(const uint64_t *v)
{
    return (int64_t)(v[1] - v[0]);
}

/* Whether child carries nearly all of parent's growth, in objects and in
 * bytes (owner_growth.c's rule). */
static int carries(const lf_owner *child, const lf_owner *parent)
{
    int64_t g = grown(child->objects), pg = grown(parent->objects);
    int64_t b = grown(child->retained), pb = grown(parent->retained);
    return pg > 0 && g > 0 && (double)g >= OWNER_CARRIES * (double)pg &&
           (pb <= 0 || (double)b >= OWNER_CARRIES * (double)pb);
}

typedef struct sort_ctx {
    const lf_owner_table *t;
    int by_count;
} sort_ctx;

static int cmp_desc(int64_t x, int64_t y)
{
    return x == y ? 0 : x > y ? -1 : 1;
}

/* Objects (sort=count) or bytes first, then the other, the shallower
 * owner, the signature: a total order, as owner_growth.c's. */
static int by_growth(const void *pa, const void *pb, void *ctx)
{
    const sort_ctx *k = ctx;
    const lf_owner *x = &k->t->owner[*(const uint32_t *)pa], *y = &k->t->owner[*(const uint32_t *)pb];
    int c = k->by_count ? cmp_desc(grown(x->objects), grown(y->objects))
                        : cmp_desc(grown(x->retained), grown(y->retained));
    c = c ? c : k->by_count ? cmp_desc(grown(x->retained), grown(y->retained))
                            : cmp_desc(grown(x->objects), grown(y->objects));
    if (!c && x->depth != y->depth)
        c = x->depth < y->depth ? -1 : 1;
    return c ? c : x->signature < y->signature ? -1 : x->signature > y->signature;
}

/* The owners listed: grew, present in b, explained by no child, not
 * inside a collection. Their count; -1 (memory). */
static int64_t listed_owners(const lf_owner_table *t, uint32_t *order)
{
    uint8_t *explained = lf_big_calloc(t->count + 1, 1);
    if (!explained)
        return -1;
    for (size_t i = 0; i < t->count; i++) {
        const lf_owner *o = &t->owner[i];
        const lf_owner *p = o->parent ? lf_owners_find(t, o->parent) : NULL;
        if (p && !o->inside && carries(o, p))
            explained[p - t->owner] = 1;
    }
    int64_t n = 0;
    for (size_t i = 0; i < t->count; i++) {
        const lf_owner *o = &t->owner[i];
        if (grown(o->objects) > 0 && o->node[1] != LF_NODE_NONE && !explained[i] && !o->inside)
            order[n++] = (uint32_t)i;
    }
    lf_big_free(explained);
    return n;
}

static uint64_t shallow_of(const serve_snapshot *snap, uint32_t node)
{
    return node == LF_NODE_NONE ? 0 : lf_snapshot_shallow(&snap->s, node);
}

static void write_row(FILE *f, const serve_compare_args *p, const lf_owner *o, const char *path, size_t len)
{
    const lf_snapshot *b = &p->snap[1]->s;
    fputs("{\"label\":", f);
    serve_json_str(f, path, len);
    fprintf(f, ",\"cls\":%u,\"id\":", b->object_class[o->node[1]]);
    report_json_id(f, b, o->node[1]);
    lf_str cls = lf_snapshot_object_label(b, o->node[1]);
    fputs(",\"class\":", f);
    serve_json_str(f, cls.ptr, cls.len);
    fprintf(f, ",\"count\":[%llu,%llu],\"shallow\":[%llu,%llu],\"retained\":[%llu,%llu]}",
            (unsigned long long)o->objects[0], (unsigned long long)o->objects[1],
            (unsigned long long)shallow_of(p->snap[0], o->node[0]),
            (unsigned long long)shallow_of(p->snap[1], o->node[1]),
            (unsigned long long)o->retained[0], (unsigned long long)o->retained[1]);
}

/* The page of listed owners whose path or class has the filter; the
 * number that have it in *total. -1 (memory). */
static int write_rows(FILE *f, const serve_compare_args *p, const lf_owner_table *t, const uint32_t *order, int64_t n,
                      uint64_t *total)
{
    const lf_snapshot *b = &p->snap[1]->s;
    char *path = malloc(8192);
    lf_holders holders;
    lf_holders_init(&holders, b);
    int filtering = p->filter && *p->filter;
    *total = 0;
    for (int64_t k = 0; path && k < n; k++) {
        const lf_owner *o = &t->owner[order[k]];
        /* a path is made only where it is written or filtered */
        size_t len = filtering ? lf_owner_path(&holders, o->node[1], path, 8192) : 0;
        if (filtering && !serve_matches((lf_str){path, len}, p->filter) &&
            !serve_matches(lf_snapshot_object_label(b, o->node[1]), p->filter))
            continue;
        uint64_t at = (*total)++;
        if (at < p->from || at >= p->from + p->count)
            continue;
        if (!filtering)
            len = lf_owner_path(&holders, o->node[1], path, 8192);
        fputs(at > p->from ? ",\n" : "\n", f);
        write_row(f, p, o, path, len);
    }
    int rc = !path || lf_holders_failed(&holders) ? -1 : 0;
    lf_holders_free(&holders);
    free(path);
    return rc;
}

int serve_compare_owners(FILE *f, const serve_compare_args *p, serve_fail *fail)
{
    lf_owner_table t = {0};
    lf_error err;
    if (lf_owners_add(&t, &p->snap[0]->s, 0, &err) || lf_owners_add(&t, &p->snap[1]->s, 1, &err)) {
        lf_owners_free(&t);
        return serve_failf(fail, 500, "matching owners: %.400s", err.reason);
    }
    uint32_t *order = lf_big_malloc((t.count + 1) * sizeof *order);
    int64_t n = order ? listed_owners(&t, order) : -1;
    int rc = n < 0 ? -1 : 0;
    if (rc == 0) {
        sort_ctx k = {&t, p->by_count};
        qsort_r(order, (size_t)n, sizeof *order, by_growth, &k);
        uint64_t total;
        fprintf(f, "{\"a\":%u,\"b\":%u,\"by\":\"owner\",\"sort\":\"%s\",\"from\":%llu,\"rows\":[", p->index[0],
                p->index[1], p->by_count ? "count" : "bytes", (unsigned long long)p->from);
        rc = write_rows(f, p, &t, order, n, &total);
        fprintf(f, "],\"total\":%llu}\n", (unsigned long long)total);
    }
    lf_big_free(order);
    lf_owners_free(&t);
    return rc ? serve_failf(fail, 500, "out of memory") : 0;
}
