/* serve_calltree.c - the indexes the strings and sites views build the
 * first time they are asked, once per snapshot, under its lock: the string
 * objects and their duplicates; the allocation call tree (each site's
 * callees) with the objects allocated at or below each site.
 *
 * A site's retained bytes count each of its objects not below another of
 * them in the dominator tree, as `leakfind sites` counts a group's. The
 * dominator tree is walked in preorder with an explicit stack (no
 * recursion over the heap graph); a site is "open" while one of the
 * objects on the stack was allocated at it or below it. Entering an
 * object, the sites of its chain (its site, its caller, theirs...) not yet
 * open take its retained bytes and open; those already open stop the walk,
 * as every caller of an open site is open too. Leaving it, the sites it
 * opened close. */
#include <stdlib.h>
#include <string.h>

#include "../../core/base/bigmem.h"
#include "serve.h"

int serve_need_strings(const serve_site *site, serve_snapshot *snap, serve_fail *fail)
{
    lf_error err = {0};
    pthread_mutex_lock(&snap->lock);
    int rc = snap->strings_built ? 0 : lf_strings_find(&snap->s, site->threads, &snap->strings, &err);
    snap->strings_built = rc == 0;
    pthread_mutex_unlock(&snap->lock);
    return rc ? serve_failf(fail, 500, "reading the strings of %.200s: %.280s", snap->path, err.reason) : 0;
}

/* The site an object was allocated at (site space), 0 when none. */
static uint32_t site_of(const lf_snapshot *s, uint32_t node)
{
    uint32_t site = s->object_site[node];
    return site == LF_SITE_NONE || site >= s->site_count ? 0 : site;
}

/* The callees of each site (a counting sort by caller); -1 (memory). */
static int build_children(serve_snapshot *snap)
{
    const lf_snapshot *s = &snap->s;
    uint32_t *first = calloc((size_t)s->site_count + 2, sizeof *first);
    uint32_t *child = malloc(((size_t)s->site_count + 1) * sizeof *child);
    if (!first || !child) {
        free(first), free(child);
        return -1;
    }
    /* a caller is always a smaller site number; site 0 is no site */
    for (uint32_t v = 1; v < s->site_count; v++)
        first[(s->site[v].caller < v ? s->site[v].caller : 0) + 2]++;
    for (uint32_t v = 0; v < s->site_count; v++)
        first[v + 2] += first[v + 1];
    for (uint32_t v = 1; v < s->site_count; v++)
        child[first[(s->site[v].caller < v ? s->site[v].caller : 0) + 1]++] = v;
    snap->site_child_first = first;
    snap->site_child = child;
    return 0;
}

static uint32_t caller_of(const lf_snapshot *s, uint32_t site)
{
    return s->site[site].caller < site ? s->site[site].caller : 0;
}

/* Entering node: the sites of its chain not open yet take its bytes and
 * open; how many it opened. */
static uint32_t enter(const lf_snapshot *s, uint32_t node, uint8_t *open, serve_site_total *t)
{
    uint32_t opened = 0;
    uint64_t retained = lf_snapshot_retained(s, node);
    for (uint32_t v = site_of(s, node); v != 0 && !open[v]; v = caller_of(s, v), opened++) {
        open[v] = 1;
        t[v].retained += retained;
    }
    return opened;
}

static void leave(const lf_snapshot *s, uint32_t node, uint32_t opened, uint8_t *open)
{
    for (uint32_t v = site_of(s, node), k = 0; k < opened; v = caller_of(s, v), k++)
        open[v] = 0;
}

typedef struct walk_frame {
    uint32_t node, next, opened;   /* node space; next: its next child (domtree space) */
} walk_frame;

/* Retained bytes per site over the dominator tree, in preorder. */
static int add_retained(const lf_snapshot *s, serve_site_total *t)
{
    uint8_t *open = calloc((size_t)s->site_count + 1, 1);
    walk_frame *stack = lf_big_malloc(((size_t)s->object_count + 2) * sizeof *stack);
    if (!open || !stack) {
        free(open), lf_big_free(stack);
        return -1;
    }
    size_t depth = 1;
    stack[0] = (walk_frame){s->object_count, s->domtree_offset[s->object_count], 0};
    while (depth > 0) {
        walk_frame *top = &stack[depth - 1];
        uint32_t slot = top->node;
        if (top->next < s->domtree_offset[slot + 1]) {
            uint32_t child = s->domtree_child[top->next++];
            stack[depth++] = (walk_frame){child, s->domtree_offset[child], enter(s, child, open, t)};
            continue;
        }
        if (slot != s->object_count)
            leave(s, slot, top->opened, open);
        depth--;
    }
    free(open), lf_big_free(stack);
    return 0;
}

/* Count and shallow bytes of the reachable objects per site, then each
 * site's added to its caller's (callers are smaller: from the last). */
static int build_totals(serve_snapshot *snap)
{
    const lf_snapshot *s = &snap->s;
    serve_site_total *t = calloc((size_t)s->site_count + 1, sizeof *t);
    if (!t)
        return -1;
    for (uint32_t v = 0; v < s->object_count; v++)
        if (s->idom[v] != LF_NODE_NONE) {
            t[site_of(s, v)].count++;
            t[site_of(s, v)].shallow += lf_snapshot_shallow(s, v);
        }
    for (uint32_t v = s->site_count; v-- > 1;) {
        t[caller_of(s, v)].count += t[v].count;
        t[caller_of(s, v)].shallow += t[v].shallow;
    }
    if (add_retained(s, t)) {
        free(t);
        return -1;
    }
    snap->site_total = t;
    return 0;
}

int serve_need_sites(serve_snapshot *snap, serve_fail *fail)
{
    if (!snap->s.object_site || snap->s.site_count == 0)
        return serve_failf(fail, 404, "%.200s has no allocation sites: take the dump with allocation tracking on "
                           "(docs/SITES.md)", snap->path);
    pthread_mutex_lock(&snap->lock);
    int rc = snap->site_total ? 0 : build_children(snap);
    if (rc == 0 && !snap->site_total && build_totals(snap)) {
        free(snap->site_child_first), free(snap->site_child);
        snap->site_child_first = NULL, snap->site_child = NULL;
        rc = -1;
    }
    pthread_mutex_unlock(&snap->lock);
    return rc ? serve_failf(fail, 500, "out of memory for the allocation call tree") : 0;
}
