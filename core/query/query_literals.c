/* query_literals.c - why a query answered nothing: a text compared with a
 * field that never holds it. `where state = 'INVALD'` counts 0 sessions
 * exactly as a correct question whose answer is 0 would; after a pass that
 * chose no object, each `PATH = 'TEXT'` (or like) of the where clause is
 * checked against the texts PATH takes on the from objects, and one that
 * never occurs is said with the texts that do ("no object has state =
 * 'INVALD': state is 'ACTIVE' (590), 'IDLE' (200) or 'INVALID' (200); did
 * you mean 'INVALID'?"), counted over the from objects the roots reach. */
#include <Judy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/suggest.h"
#include "query_run.h"

/* Distinct texts tallied per comparison: past it the check says nothing
 * (a field of ids or free text, no misspelt name to find). */
enum { MAX_DISTINCT = 4096, SHOWN = 5, TEXT_MAX = 64 };

/* The texts a path takes: JudySL from text to its count. */
typedef struct tally {
    Pvoid_t count;
    size_t distinct;
    int overflow;                 /* too many distinct texts, or no memory */
    int cut;                      /* some text was keyed by its first TEXT_MAX bytes */
} tally;

static void tally_free(tally *t)
{
    Word_t freed;
    JSLFA(freed, t->count);
    (void)freed;
}

/* Adds text (its first TEXT_MAX bytes: a key, not the whole value) once. */
static void tally_add(tally *t, const char *text, size_t len)
{
    char key[TEXT_MAX + 1];
    size_t n = len < TEXT_MAX ? len : TEXT_MAX;
    t->cut |= len > TEXT_MAX;
    memcpy(key, text, n);
    key[n] = 0;
    n = strlen(key); /* a text with a NUL in it is keyed to there */
    PWord_t slot;
    JSLG(slot, t->count, (const uint8_t *)key);
    if (!slot) {
        if (t->distinct == MAX_DISTINCT) {
            t->overflow = 1;
            return;
        }
        JSLI(slot, t->count, (const uint8_t *)key);
        if (slot == PJERR) {
            t->overflow = 1;
            return;
        }
        t->distinct++;
    }
    (*slot)++;
}

/* Whether the comparison holds for some tallied text. */
static int literal_seen(const tally *t, const char *want, size_t len, int like)
{
    uint8_t key[TEXT_MAX + 1] = {0};
    PWord_t slot;
    if (!like) {
        if (len > TEXT_MAX || memchr(want, 0, len))
            return 1; /* keyed shorter than it: say nothing */
        memcpy(key, want, len);
        JSLG(slot, t->count, key);
        return slot != NULL;
    }
    if (t->cut)
        return 1; /* a glob may match the part of a text not kept: say nothing */
    JSLF(slot, t->count, key);
    while (slot) {
        if (q_glob(want, len, (const char *)key, strlen((const char *)key)))
            return 1;
        JSLN(slot, t->count, key);
    }
    return 0;
}

/* The most frequent texts (their order: count, then text) into buf, with
 * the closest to want when one is near; what was written. */
static size_t describe(const tally *t, const char *want, size_t len, int like, char *buf, size_t size)
{
    uint8_t key[TEXT_MAX + 1] = {0}, best_key[SHOWN][TEXT_MAX + 1], near[TEXT_MAX + 1] = {0};
    Word_t best_count[SHOWN] = {0};
    size_t shown = 0, max = suggest_max_distance(len), near_d = max + 1;
    PWord_t slot;
    JSLF(slot, t->count, key);
    while (slot) {
        size_t d = like ? max + 1 : suggest_distance(want, len, (const char *)key, strlen((const char *)key), max);
        if (d < near_d)
            near_d = d, memcpy(near, key, sizeof near);
        size_t at = shown < SHOWN ? shown++ : SHOWN;
        while (at > 0 && best_count[at - 1] < *slot) {
            if (at < SHOWN)
                best_count[at] = best_count[at - 1], memcpy(best_key[at], best_key[at - 1], sizeof key);
            at--;
        }
        if (at < SHOWN)
            best_count[at] = *slot, memcpy(best_key[at], key, sizeof key);
        JSLN(slot, t->count, key);
    }
    size_t used = 0;
    const int more = t->distinct > shown;
    buf[0] = 0;
    for (size_t k = 0; k < shown && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s'%s' (%lu)",
                                 k == 0 ? "" : k + 1 == shown && !more ? " or " : ", ", (const char *)best_key[k],
                                 (unsigned long)best_count[k]);
    if (more && used < size)
        used += (size_t)snprintf(buf + used, size - used, " and %zu more", t->distinct - shown);
    if (near_d <= max && used < size)
        used += (size_t)snprintf(buf + used, size - used, "; did you mean '%s'?", (const char *)near);
    return used < size ? used : size - 1;
}

/* The from objects' texts at path node p into t. 0, or -1 (a damaged
 * record: the error is set). */
static int tally_path(q_run *r, int32_t p, tally *t)
{
    const lf_query *q = r->q;
    for (uint32_t v = 0; v < r->s->object_count && !t->overflow; v++) {
        if ((q->from_match && !q->from_match[r->s->object_class[v]]) || (q->live && !q_bit(q->live, v)))
            continue;
        lf_qvalue x = q_scalar(&r->e, q_value_of(&r->e, p, v));
        if (x.type == LF_QV_STR)
            tally_add(t, x.str, x.len);
        q_eval_reset(&r->e);
        if (r->e.failed)
            return -1;
    }
    return 0;
}

/* Comparison node x: its path and text when it is `PATH = 'TEXT'` or
 * `PATH like 'GLOB'` (either way round) on a field; 0 when not. */
static int text_comparison(const lf_query *q, const q_node *x, int32_t *path, const q_node **text)
{
    if (x->kind != QN_CMP || (x->op != QC_EQ && x->op != QC_LIKE))
        return 0;
    int32_t a = x->a, b = x->b;
    if (q->node[a].kind == QN_STR) {
        int32_t t = a;
        a = b, b = t;
    }
    const q_node *pa = &q->node[a];
    if (pa->kind != QN_PATH || q->node[b].kind != QN_STR)
        return 0;
    uint8_t last = q->seg[pa->at + pa->len - 1].attr;
    if (last != QT_FIELD && last != QT_ELEMENT && last != QT_TEXT)
        return 0; /* @class has its own check (query_names.c) */
    *path = a;
    *text = &q->node[b];
    return 1;
}

/* Checks comparison node n (one of the where clause's) and notes it when
 * its text never occurs. 0, or -1 (a damaged record). */
static int check_comparison(q_run *r, int32_t n)
{
    lf_query *q = r->q;
    int32_t p;
    const q_node *text;
    if (q->note_count == Q_MAX_NOTES || !text_comparison(q, &q->node[n], &p, &text))
        return 0;
    const char *want = q->lit + text->at;
    const int like = q->node[n].op == QC_LIKE;
    const q_node *pn = &q->node[p];
    tally t = {NULL, 0, 0, 0};
    int rc = tally_path(r, p, &t);
    if (rc == 0 && !t.overflow && t.distinct > 0 && !literal_seen(&t, want, text->len, like)) {
        char values[220];
        describe(&t, want, text->len, like, values, sizeof values);
        int path_len = (int)(pn->end - pn->pos);
        snprintf(q->note[q->note_count++], sizeof q->note[0], "no object has %.*s %s '%.*s': %.*s is %s", path_len,
                 q->text + pn->pos, like ? "like" : "=", (int)text->len, want, path_len, q->text + pn->pos, values);
    }
    tally_free(&t);
    return rc;
}

/* The comparisons of the where clause below node n, each checked. An
 * explicit stack: the expression's depth is the parser's cap. */
static int check_below(q_run *r, int32_t n)
{
    int32_t stack[256];
    size_t top = 0;
    stack[top++] = n;
    while (top > 0) {
        const q_node *x = &r->q->node[stack[--top]];
        if (x->kind == QN_CMP && check_comparison(r, (int32_t)(x - r->q->node)))
            return -1;
        if ((x->kind == QN_AND || x->kind == QN_OR || x->kind == QN_NOT) && top + 2 <= 256) {
            if (x->b >= 0)
                stack[top++] = x->b;
            if (x->a >= 0)
                stack[top++] = x->a;
        }
    }
    return 0;
}

int q_literal_notes(q_run *r)
{
    const lf_query *q = r->q;
    if (q->chosen || q->where < 0 || q->from_nodes)
        return 0;
    return check_below(r, q->where);
}
