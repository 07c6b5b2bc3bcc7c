/* path_exclude.c - see path_exclude.h. */
#include "path_exclude.h"

#include <stdlib.h>
#include <string.h>

#include "../../core/base/bsearch.h"
#include "../../core/base/suggest.h"
#include "../../core/model/idrank.h" /* lf_sort_u64 */
#include "../../core/base/vec.h"
#include "../../core/base/bigmem.h"
#include "../cli/class_match.h"
#include "../cli/cli.h"

/* Whether an edge of an object whose class the specs in spec_bits name
 * carries an excluded field; each spec that matches is marked in *seen. */
static int excluded_label(const lf_snapshot *s, uint32_t spec_bits, const char *const *spec,
                          unsigned spec_count, uint8_t kind, uint32_t label, uint32_t *seen)
{
    char text[512];
    size_t n = lf_snapshot_label_text(s, kind, label, text, sizeof text);
    int excluded = 0;
    for (unsigned i = 0; i < spec_count; i++) {
        const char *field = strrchr(spec[i], '.') + 1;
        if ((spec_bits >> i & 1) && n == strlen(field) && memcmp(text, field, n) == 0) {
            *seen |= 1u << i;
            excluded = 1;
        }
    }
    return excluded;
}

/* Appends node's excluded steps: targets all of whose edges from node carry
 * an excluded label. key[] is scratch for (to << 1 | kept) per edge. */
static int add_node(path_exclusions *x, uint64_t *cap, const lf_snapshot *s, uint32_t node,
                    const char *const *spec, unsigned spec_count, uint8_t *kind, uint32_t *label,
                    uint64_t *key)
{
    uint64_t first = lf_snapshot_edges_begin(s, node), n = lf_snapshot_edges_end(s, node) - first;
    const uint32_t spec_bits = x->class_named[s->object_class[node]];
    lf_snapshot_node_edge_infos(s, node, kind, label);
    for (uint64_t i = 0; i < n; i++)
        key[i] = (uint64_t)lf_edge_node(s->edge_target[first + i]) << 1 |
                 !excluded_label(s, spec_bits, spec, spec_count, kind[i], label[i], &x->seen);
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

static uint64_t largest_degree(const lf_snapshot *s, const uint32_t *class_named)
{
    uint64_t most = 1;
    for (uint32_t v = 0; v < s->object_count; v++)
        if (class_named[s->object_class[v]] && lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v) > most)
            most = lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v);
    return most;
}

/* Each spec's classes (class_match.h) as bit i of class_named. */
static int name_classes(path_exclusions *x, const lf_snapshot *s, const char *const *spec, unsigned spec_count)
{
    x->class_named = calloc(s->class_count ? s->class_count : 1, sizeof *x->class_named);
    if (!x->class_named) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    for (unsigned i = 0; i < spec_count; i++) {
        uint8_t *match;
        uint32_t matched;
        int rc = class_choose(s, "--exclude", spec[i], (size_t)(strrchr(spec[i], '.') - spec[i]), &match, &matched);
        if (rc != EXIT_OK)
            return rc;
        for (uint32_t c = 0; c < s->class_count; c++)
            x->class_named[c] |= (uint32_t)match[c] << i;
        free(match);
    }
    return EXIT_OK;
}

/* The label of the edges of spec i's classes closest to its field, into
 * near (empty when none is close). */
static void closest_label(const path_exclusions *x, const char *spec, unsigned i, char *near, size_t size)
{
    const lf_snapshot *s = x->s;
    const char *field = strrchr(spec, '.') + 1;
    suggest_nearest n;
    suggest_nearest_init(&n, field, strlen(field), near, size);
    for (uint32_t v = 0; v < s->object_count && n.bound > 0; v++) {
        if (!(x->class_named[s->object_class[v]] >> i & 1))
            continue;
        for (uint64_t e = lf_snapshot_edges_begin(s, v); e < lf_snapshot_edges_end(s, v); e++) {
            uint8_t kind;
            uint32_t label;
            char text[512];
            if (lf_snapshot_edge_info(s, e, &kind, &label))
                continue;
            suggest_nearest_offer(&n, text, lf_snapshot_label_text(s, kind, label, text, sizeof text));
        }
    }
}

/* A spec whose field no edge of its classes' objects carries excludes
 * nothing: the path would go through the field meant, misspelt. Said, with
 * the closest field; not an error, as a field null in every object has no
 * edge either. */
static void warn_unseen(const path_exclusions *x, const char *const *spec, unsigned spec_count)
{
    for (unsigned i = 0; i < spec_count; i++) {
        if (x->seen >> i & 1)
            continue;
        char near[512];
        closest_label(x, spec[i], i, near, sizeof near);
        const char *field = strrchr(spec[i], '.') + 1;
        cli_message("warning", "--exclude %s excludes nothing: no %.*s refers to an object through a field '%s'%s%s%s",
                    spec[i], (int)(field - 1 - spec[i]), spec[i], field, near[0] ? " (did you mean '" : "", near,
                    near[0] ? "'?)" : "");
    }
}

int path_exclusions_build(path_exclusions *x, const lf_snapshot *s, const char *const *spec,
                          unsigned spec_count)
{
    memset(x, 0, sizeof *x);
    x->s = s;
    int rc = name_classes(x, s, spec, spec_count);
    if (rc != EXIT_OK)
        return rc;
    uint64_t most = largest_degree(s, x->class_named), cap = 0;
    uint8_t *kind = malloc(most);
    uint32_t *label = malloc(most * sizeof *label);
    uint64_t *key = malloc(most * sizeof *key);
    int failed = kind && label && key ? 0 : -1;
    for (uint32_t v = 0; v < s->object_count && !failed; v++)
        if (x->class_named[s->object_class[v]])
            failed = add_node(x, &cap, s, v, spec, spec_count, kind, label, key);
    free(kind);
    free(label);
    free(key);
    if (!failed)
        failed = lf_sort_u64(x->step, x->step_count);
    if (failed)
        cli_message("error", "out of memory");
    else
        warn_unseen(x, spec, spec_count);
    return failed ? EXIT_SYSTEM : EXIT_OK;
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
