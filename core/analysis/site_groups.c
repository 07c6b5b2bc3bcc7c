/* site_groups.c - sites cut to their innermost frames, and their labels. */
#include "site_groups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"

/* Whether sites a and b have the same `depth` innermost frames (the same
 * frames up to where both stacks end, and both end there). */
static int same_key(const lf_snapshot *s, uint32_t a, uint32_t b, uint32_t depth)
{
    for (uint32_t i = 0; i < depth && (a || b); i++) {
        if (!a || !b || s->site[a].frame != s->site[b].frame)
            return 0;
        a = s->site[a].caller;
        b = s->site[b].caller;
    }
    return 1;
}

static uint64_t key_hash(const lf_snapshot *s, uint32_t site, uint32_t depth)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (uint32_t i = 0; i < depth && site; i++) {
        h = (h ^ s->site[site].frame) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
        site = s->site[site].caller;
    }
    return h;
}

int lf_site_groups_make(const lf_snapshot *s, uint32_t depth, lf_site_groups *g, lf_error *err)
{
    memset(g, 0, sizeof *g);
    g->depth = depth;
    const uint32_t sites = s->site_count ? s->site_count : 1;
    g->of_site = malloc((size_t)sites * sizeof *g->of_site);
    g->site_of = malloc((size_t)sites * sizeof *g->site_of);
    uint32_t slots = 16;
    while (slots < 2 * (uint64_t)sites)
        slots *= 2;
    uint32_t *slot = depth ? calloc(slots, sizeof *slot) : NULL;
    if (!g->of_site || !g->site_of || (depth && !slot)) {
        free(slot);
        lf_site_groups_free(g);
        return lf_fail_nomem(err, "grouping allocation sites");
    }
    g->of_site[0] = g->site_of[0] = 0;
    g->count = 1;
    for (uint32_t site = 1; site < s->site_count; site++) {
        if (!depth) { /* the call tree interns whole stacks already */
            g->of_site[site] = g->site_of[site] = site;
            g->count++;
            continue;
        }
        uint32_t at = (uint32_t)key_hash(s, site, depth) & (slots - 1);
        while (slot[at] && !same_key(s, g->site_of[slot[at] - 1], site, depth))
            at = (at + 1) & (slots - 1);
        if (!slot[at]) {
            g->site_of[g->count] = site;
            slot[at] = ++g->count;
        }
        g->of_site[site] = slot[at] - 1;
    }
    free(slot);
    return 0;
}

void lf_site_groups_free(lf_site_groups *g)
{
    free(g->of_site);
    free(g->site_of);
    memset(g, 0, sizeof *g);
}

uint32_t *lf_site_groups_of_nodes(const lf_snapshot *s, const lf_site_groups *g)
{
    uint32_t *group = lf_big_malloc(((size_t)s->object_count + 1) * sizeof *group);
    if (!group)
        return NULL;
    for (uint32_t v = 0; v < s->object_count; v++)
        group[v] = g->of_site[s->object_site[v]];
    return group;
}

size_t lf_frame_label(const lf_snapshot *s, uint32_t frame, char *buf, size_t size)
{
    const lf_frame *f = &s->frame[frame];
    lf_str fn = lf_snapshot_string(s, f->function), file = lf_snapshot_string(s, f->file);
    if (!fn.len)
        fn = (lf_str){"(anonymous)", 11};
    if (!file.len)
        return (size_t)snprintf(buf, size, "%.*s", (int)fn.len, fn.ptr);
    if (!f->line)
        return (size_t)snprintf(buf, size, "%.*s (%.*s)", (int)fn.len, fn.ptr, (int)file.len,
                                file.ptr);
    if (!f->column)
        return (size_t)snprintf(buf, size, "%.*s (%.*s:%u)", (int)fn.len, fn.ptr, (int)file.len,
                                file.ptr, f->line);
    return (size_t)snprintf(buf, size, "%.*s (%.*s:%u:%u)", (int)fn.len, fn.ptr, (int)file.len,
                            file.ptr, f->line, f->column);
}

size_t lf_site_label(const lf_snapshot *s, uint32_t site, uint32_t depth, char *buf, size_t size)
{
    if (!site)
        return (size_t)snprintf(buf, size, "(no site)");
    size_t len = 0;
    for (uint32_t i = 0; site && (!depth || i < depth); i++, site = s->site[site].caller) {
        if (i)
            len += (size_t)snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
                                    " < ");
        len += lf_frame_label(s, s->site[site].frame, len < size ? buf + len : NULL,
                              len < size ? size - len : 0);
    }
    if (len >= size && size > 4)
        memcpy(buf + size - 4, "...", 4);
    return len;
}

void lf_site_estimates(const lf_snapshot *s, const uint32_t *group_of_node, uint32_t groups,
                       double *est_count, double *est_bytes)
{
    memset(est_count, 0, (size_t)groups * sizeof *est_count);
    memset(est_bytes, 0, (size_t)groups * sizeof *est_bytes);
    const double rate = s->sample_rate;
    if (!s->object_samples || !(rate > 0))
        return;
    for (uint32_t v = 0; v < s->object_count; v++) {
        uint32_t samples = s->object_samples[v];
        if (!samples || !s->object_site[v])
            continue;
        double words = (double)lf_snapshot_shallow(s, v) / 8.0;
        double p = -expm1(words * log1p(-rate)); /* 1 - (1 - rate)^words */
        uint32_t k = group_of_node[v];
        est_count[k] += p > 0 ? 1.0 / p : 0;
        est_bytes[k] += (double)samples / rate * 8.0;
    }
}
