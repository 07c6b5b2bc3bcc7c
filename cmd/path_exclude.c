/* path_exclude.c - see path_exclude.h. */
#include "path_exclude.h"

#include <stdlib.h>
#include <string.h>

#include "../core/base/bsearch.h"
#include "../core/model/idrank.h" /* lf_sort_u64 */
#include "../core/base/vec.h"
#include "../core/base/bigmem.h"

/* spec "CLASS.FIELD" names class cls. */
static int class_matches(lf_str cls, const char *spec)
{
    const char *dot = strrchr(spec, '.');
    return cls.len == (size_t)(dot - spec) && memcmp(cls.ptr, spec, cls.len) == 0;
}

/* Kinds and labels of node's edges, decoded once whatever the reader keeps. */
static void node_labels(const lf_snapshot *s, uint32_t node, uint8_t *kind, uint32_t *label)
{
    uint64_t first = lf_snapshot_edges_begin(s, node), end = lf_snapshot_edges_end(s, node);
    if (s->edge_kind && s->edge_label) {
        memcpy(kind, s->edge_kind + first, end - first);
        memcpy(label, s->edge_label + first, (end - first) * sizeof *label);
    } else if (s->lazy->edge_range) {
        s->lazy->edge_range(s->lazy->ctx, first, end, kind, label);
    } else {
        s->lazy->node_edges(s->lazy->ctx, s, node, end, kind, label);
    }
}

static int excluded_label(const lf_snapshot *s, lf_str cls, const char *const *spec,
                          unsigned spec_count, uint8_t kind, uint32_t label)
{
    char text[512];
    size_t n = lf_snapshot_label_text(s, kind, label, text, sizeof text);
    for (unsigned i = 0; i < spec_count; i++) {
        const char *field = strrchr(spec[i], '.') + 1;
        if (class_matches(cls, spec[i]) && n == strlen(field) && memcmp(text, field, n) == 0)
            return 1;
    }
    return 0;
}

/* Appends node's excluded steps: targets all of whose edges from node carry
 * an excluded label. key[] is scratch for (to << 1 | kept) per edge. */
static int add_node(path_exclusions *x, uint64_t *cap, const lf_snapshot *s, uint32_t node,
                    const char *const *spec, unsigned spec_count, uint8_t *kind, uint32_t *label,
                    uint64_t *key)
{
    uint64_t first = lf_snapshot_edges_begin(s, node), n = lf_snapshot_edges_end(s, node) - first;
    lf_str cls = lf_snapshot_class_name(s, s->object_class[node]);
    node_labels(s, node, kind, label);
    for (uint64_t i = 0; i < n; i++)
        key[i] = (uint64_t)lf_edge_node(s->edge_target[first + i]) << 1 |
                 !excluded_label(s, cls, spec, spec_count, kind[i], label[i]);
    if (lf_sort_u64(key, n))
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t to = key[i] >> 1;
        int kept = 0;
        for (; i < n && key[i] >> 1 == to; i++)
            kept |= (int)(key[i] & 1);
        i--;
        if (kept)
            continue;
        if (lf_vec_reserve((void **)&x->step, cap, x->step_count + 1, sizeof *x->step))
            return -1;
        x->step[x->step_count++] = (uint64_t)node << 32 | to;
    }
    return 0;
}

static uint64_t largest_degree(const lf_snapshot *s, const uint8_t *class_named)
{
    uint64_t most = 1;
    for (uint32_t v = 0; v < s->object_count; v++)
        if (class_named[s->object_class[v]] && lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v) > most)
            most = lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v);
    return most;
}

int path_exclusions_build(path_exclusions *x, const lf_snapshot *s, const char *const *spec,
                          unsigned spec_count)
{
    memset(x, 0, sizeof *x);
    x->s = s;
    x->class_named = calloc(s->class_count ? s->class_count : 1, 1);
    if (!x->class_named)
        return -1;
    for (uint32_t c = 0; c < s->class_count; c++)
        for (unsigned i = 0; i < spec_count; i++)
            x->class_named[c] |= (uint8_t)class_matches(lf_snapshot_class_name(s, c), spec[i]);
    uint64_t most = largest_degree(s, x->class_named), cap = 0;
    uint8_t *kind = malloc(most);
    uint32_t *label = malloc(most * sizeof *label);
    uint64_t *key = malloc(most * sizeof *key);
    int rc = kind && label && key ? 0 : -1;
    for (uint32_t v = 0; v < s->object_count && rc == 0; v++)
        if (x->class_named[s->object_class[v]])
            rc = add_node(x, &cap, s, v, spec, spec_count, kind, label, key);
    free(kind);
    free(label);
    free(key);
    return rc ? rc : lf_sort_u64(x->step, x->step_count);
}

int path_exclusions_follow(void *ctx, uint32_t from, uint32_t to)
{
    const path_exclusions *x = ctx;
    if (!x->class_named[x->s->object_class[from]])
        return 1;
    uint64_t want = (uint64_t)from << 32 | to;
    uint64_t lo = lf_lower_bound_u64(x->step, x->step_count, want);
    return !(lo < x->step_count && x->step[lo] == want);
}

void path_exclusions_free(path_exclusions *x)
{
    free(x->class_named);
    lf_big_free(x->step);
    memset(x, 0, sizeof *x);
}
