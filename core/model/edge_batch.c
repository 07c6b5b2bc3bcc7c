/* edge_batch.c - see edge_batch.h. */
#include "edge_batch.h"

#include <stdlib.h>

#include "../base/bigmem.h"
#include "../base/bsearch.h"
#include "idrank.h" /* lf_sort_u64 */
#include "label_scratch.h"


typedef struct batch_scratch {
    uint64_t *to_key;         /* one group's questions: to << 32 | question */
    lf_label_scratch decoded; /* labels of one source's first edges */
} batch_scratch;

static void answer_one(const lf_snapshot *s, const lf_edge_question *q, lf_edge_answer *a)
{
    uint64_t e = lf_snapshot_find_edge(s, q->from, q->to);
    *a = (lf_edge_answer){0, LF_EDGE_KIND_NONE, 0};
    if (e == UINT64_MAX)
        return;
    a->flags = LF_HOP_FOUND | (lf_edge_is_weak(s->edge_target[e]) ? LF_HOP_WEAK : 0);
    lf_snapshot_edge_info(s, e, &a->kind, &a->label);
}

/* Gives the first question of each target in to_key[0..n) the place of its
 * edge among from's edges (in label, until labelled); returns the place
 * after the last one given, 0 if none. */
static uint64_t find_places(const lf_snapshot *s, uint32_t from, const uint64_t *to_key, uint64_t n,
                            lf_edge_answer *answer)
{
    const uint64_t first = lf_snapshot_edges_begin(s, from), end = lf_snapshot_edges_end(s, from);
    uint64_t unanswered = 0, places = 0; /* targets without a strong edge yet */
    for (uint64_t j = 0; j < n; j++)
        unanswered += j == 0 || to_key[j] >> 32 != to_key[j - 1] >> 32;
    for (uint64_t e = first; e < end && unanswered; e++) {
        uint32_t t = s->edge_target[e];
        uint64_t at = lf_lower_bound_u64(to_key, n, (uint64_t)lf_edge_node(t) << 32);
        if (at == n || to_key[at] >> 32 != lf_edge_node(t))
            continue;
        lf_edge_answer *a = &answer[(uint32_t)to_key[at]];
        if ((a->flags & LF_HOP_FOUND) && (!(a->flags & LF_HOP_WEAK) || lf_edge_is_weak(t)))
            continue; /* a strong one already, or a weak one and this is weak too */
        a->flags = LF_HOP_FOUND | (lf_edge_is_weak(t) ? LF_HOP_WEAK : 0);
        a->label = (uint32_t)(e - first);
        places = places > e - first + 1 ? places : e - first + 1;
        unanswered -= !lf_edge_is_weak(t);
    }
    return places;
}

/* Replaces the places find_places gave by the edges' kinds and labels,
 * decoding from's edges once, and copies each answer to the other questions
 * about the same target. Returns 0 or -1 (memory). */
static int label_places(const lf_snapshot *s, uint32_t from, const uint64_t *to_key, uint64_t n,
                        uint64_t places, lf_edge_answer *answer, batch_scratch *x)
{
    const uint64_t first = lf_snapshot_edges_begin(s, from);
    const int decode = lf_labels_from_start(s) && places > 0;
    if (decode && lf_label_scratch_decode(&x->decoded, s, from, places))
        return -1;
    for (uint64_t j = 0; j < n; j++) {
        lf_edge_answer *a = &answer[(uint32_t)to_key[j]];
        if (j > 0 && to_key[j] >> 32 == to_key[j - 1] >> 32) {
            *a = answer[(uint32_t)to_key[j - 1]];
            continue;
        }
        if (!(a->flags & LF_HOP_FOUND))
            continue;
        uint32_t place = a->label;
        if (decode) {
            a->kind = x->decoded.kind[place];
            a->label = x->decoded.label[place];
        } else {
            lf_snapshot_edge_info(s, first + place, &a->kind, &a->label);
        }
    }
    return 0;
}

/* The questions key[0..n) (from << 32 | question), all about one from. */
static int answer_group(const lf_snapshot *s, const lf_edge_question *q, const uint64_t *key, uint64_t n,
                        lf_edge_answer *answer, batch_scratch *x)
{
    uint32_t from = (uint32_t)(key[0] >> 32);
    /* one question, or places that would not fit a label: one by one */
    if (n == 1 || lf_snapshot_edges_end(s, from) - lf_snapshot_edges_begin(s, from) > UINT32_MAX) {
        for (uint64_t j = 0; j < n; j++)
            answer_one(s, &q[(uint32_t)key[j]], &answer[(uint32_t)key[j]]);
        return 0;
    }
    for (uint64_t j = 0; j < n; j++) {
        uint32_t i = (uint32_t)key[j];
        x->to_key[j] = (uint64_t)q[i].to << 32 | i;
        answer[i] = (lf_edge_answer){0, LF_EDGE_KIND_NONE, 0};
    }
    if (lf_sort_u64(x->to_key, n))
        return -1;
    uint64_t places = find_places(s, from, x->to_key, n, answer);
    return label_places(s, from, x->to_key, n, places, answer, x);
}

static int answer_slice(const lf_snapshot *s, const lf_edge_question *q, uint32_t count,
                        lf_edge_answer *answer)
{
    uint64_t *key = lf_big_malloc((size_t)count * sizeof *key);
    batch_scratch x = {lf_big_malloc((size_t)count * sizeof *x.to_key), {NULL, NULL, 0}};
    int rc = key && x.to_key ? 0 : -1;
    for (uint32_t i = 0; i < count && rc == 0; i++)
        key[i] = (uint64_t)q[i].from << 32 | i;
    if (rc == 0)
        rc = lf_sort_u64(key, count);
    for (uint64_t g = 0, h; g < count && rc == 0; g = h) {
        for (h = g + 1; h < count && key[h] >> 32 == key[g] >> 32; h++)
            ;
        rc = answer_group(s, q, key + g, h - g, answer, &x);
    }
    lf_big_free(key);
    lf_big_free(x.to_key);
    lf_label_scratch_free(&x.decoded);
    return rc;
}

int lf_edge_batch_answer(const lf_snapshot *s, const lf_edge_question *q, size_t count,
                         lf_edge_answer *answer)
{
    /* question numbers live in 32 bits */
    for (size_t at = 0; at < count;) {
        uint32_t n = count - at > UINT32_MAX ? UINT32_MAX : (uint32_t)(count - at);
        if (answer_slice(s, q + at, n, answer + at))
            return -1;
        at += n;
    }
    return 0;
}
