/* query_prepare.c - what a query's predicates need before the pass: the
 * classes of its from list (query_classes.c), the objects each
 * reachable(KIND) reaches, the objects each owned_by(CLASS) is under in
 * the dominator tree, and the roots by object for @root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "query_ast.h"

static void set_bit(uint8_t *bits, uint32_t v) { bits[v >> 3] |= (uint8_t)(1u << (v & 7)); }
static int get_bit(const uint8_t *bits, uint32_t v) { return bits[v >> 3] >> (v & 7) & 1; }

/* Root kinds are matched without regard to case. */
static int same_kind(const char *a, size_t a_len, const char *b, size_t b_len)
{
    return a_len == b_len && strncasecmp(a, b, a_len) == 0;
}

static int kind_matches(const lf_snapshot *s, uint32_t kind, const char *want, size_t len)
{
    lf_str k = lf_snapshot_string(s, kind);
    return same_kind(k.ptr, k.len, want, len);
}

/* A root kind s has none of: an error that lists the kinds it has. */
static int no_such_kind(const lf_snapshot *s, const q_node *arg, const char *want, lf_error *err)
{
    char kinds[300] = "";
    size_t used = 0;
    for (uint32_t r = 0; r < s->root_count && used + 40 < sizeof kinds; r++) {
        lf_str k = lf_snapshot_string(s, s->root[r].kind);
        int seen = 0;
        for (uint32_t e = 0; e < r && !seen; e++)
            seen = s->root[e].kind == s->root[r].kind;
        if (!seen && k.len < 36)
            used += (size_t)snprintf(kinds + used, sizeof kinds - used, "%s\"%.*s\"", used ? ", " : "",
                                     (int)k.len, k.ptr);
    }
    return q_fail(err, arg->pos, "no roots of kind \"%.*s\" in this snapshot; it has %s", (int)arg->len, want,
                  used ? kinds : "none");
}

/* Whether edge is a thread's stack frame holding a local (JVM: "frame N:
 * ..." references the reader hangs under the thread object): a stack root,
 * not a reference the thread object holds, so only a walk from the thread
 * roots goes through it. */
static int stack_edge(const lf_snapshot *s, uint64_t edge)
{
    uint8_t kind;
    uint32_t label;
    if (lf_snapshot_edge_info(s, edge, &kind, &label) || kind != LF_EDGE_KIND_INTERNAL)
        return 0;
    lf_str l = lf_snapshot_string(s, label);
    return l.len > 6 && memcmp(l.ptr, "frame ", 6) == 0;
}

/* Bits of the objects that thread roots name. */
static uint8_t *thread_bits(const lf_snapshot *s)
{
    uint8_t *bits = lf_big_calloc(s->object_count / 8 + 1, 1);
    for (uint32_t r = 0; bits && r < s->root_count; r++)
        if (s->root[r].node < s->object_count && kind_matches(s, s->root[r].kind, "thread", 6))
            set_bit(bits, s->root[r].node);
    return bits;
}

/* The objects the roots of a kind name (rooted) or reach by strong
 * references (reachable), as bits. */
static int root_bits(const lf_query *q, const lf_snapshot *s, const q_node *call, uint8_t *bits, lf_error *err)
{
    const q_node *arg = &q->node[call->a];
    const char *want = q->lit + arg->at;
    uint32_t *stack = NULL;
    uint8_t *threads = NULL;
    size_t depth = 0, cap = 0, found = 0;
    for (uint32_t r = 0; r < s->root_count; r++) {
        uint32_t v = s->root[r].node;
        if (v >= s->object_count || !kind_matches(s, s->root[r].kind, want, arg->len))
            continue;
        found++;
        if (get_bit(bits, v))
            continue;
        set_bit(bits, v);
        if (call->op == QF_REACHABLE && lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack))
            goto nomem;
        if (call->op == QF_REACHABLE)
            stack[depth++] = v;
    }
    int from_threads = same_kind(want, arg->len, "thread", 6);
    threads = depth && !from_threads ? thread_bits(s) : NULL;
    if (depth && !from_threads && !threads)
        goto nomem;
    while (depth) {
        uint32_t v = stack[--depth];
        int thread = threads && get_bit(threads, v);
        for (uint64_t e = lf_snapshot_edges_begin(s, v), end = lf_snapshot_edges_end(s, v); e < end; e++) {
            uint32_t t = s->edge_target[e];
            if (lf_edge_is_weak(t) || t >= s->object_count || get_bit(bits, t) || (thread && stack_edge(s, e)))
                continue;
            set_bit(bits, t);
            if (lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack))
                goto nomem;
            stack[depth++] = t;
        }
    }
    lf_big_free(stack);
    lf_big_free(threads);
    return found ? 0 : no_such_kind(s, arg, want, err);
nomem:
    lf_big_free(stack);
    lf_big_free(threads);
    return lf_fail_nomem(err, "walking from the roots");
}

/* Bits of the objects with an owner of a class in cls above them in the
 * dominator tree. Each object's answer is its immediate dominator's class
 * or that dominator's answer: a climb up the dominators stops at the
 * first object already known, so every object is climbed through once. */
static int owned_bits(const lf_snapshot *s, const uint8_t *cls, uint8_t *bits, lf_error *err)
{
    uint8_t *known = lf_big_calloc(s->object_count / 8 + 1, 1);
    uint32_t *path = NULL;
    size_t depth = 0, cap = 0;
    if (!known)
        return lf_fail_nomem(err, "finding owners");
    for (uint32_t v = 0; v < s->object_count; v++) {
        uint32_t u = v;
        depth = 0;
        while (u < s->object_count && !get_bit(known, u)) {
            if (lf_vec_reserve((void **)&path, &cap, depth + 1, sizeof *path)) {
                lf_big_free(known);
                return lf_fail_nomem(err, "finding owners");
            }
            path[depth++] = u;
            u = s->idom[u];
        }
        while (depth) {
            uint32_t w = path[--depth], d = s->idom[w];
            if (d < s->object_count && (cls[s->object_class[d]] || get_bit(bits, d)))
                set_bit(bits, w);
            set_bit(known, w);
        }
    }
    lf_big_free(path);
    lf_big_free(known);
    return 0;
}

static int call_maps(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    for (size_t n = 0; n < q->node_count; n++) {
        q_node *x = &q->node[n];
        if (x->kind != QN_CALL)
            continue;
        size_t cls = (size_t)x->i;
        uint8_t **grown = realloc(q->bitmap, (q->bitmap_count + 1) * sizeof *grown);
        if (!grown)
            return lf_fail_nomem(err, "preparing the query");
        q->bitmap = grown;
        uint8_t *bits = lf_big_calloc(s->object_count / 8 + 1, 1);
        if (!bits)
            return lf_fail_nomem(err, "preparing the query");
        q->bitmap[q->bitmap_count] = bits;
        x->i = (int64_t)q->bitmap_count++;
        if (x->op != QF_OWNED_BY) {
            if (root_bits(q, s, x, bits, err))
                return -1;
            continue;
        }
        uint8_t *classes = calloc(s->class_count + 1, 1);
        int rc = classes ? q_class_set(q, s, cls, classes, err) : lf_fail_nomem(err, "preparing the query");
        if (!rc && !s->idom)
            rc = q_fail(err, x->pos, "owned_by needs the dominator tree");
        if (!rc)
            rc = owned_bits(s, classes, bits, err);
        free(classes);
        if (rc)
            return -1;
    }
    return 0;
}

typedef struct root_at {
    uint32_t node, kind;
} root_at;

static int by_root_node(const void *a, const void *b)
{
    const root_at *x = a, *y = b;
    return x->node != y->node ? (x->node < y->node ? -1 : 1) : 0;
}

/* Roots by object, for @root (the first root naming an object gives its kind). */
static int root_index(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    root_at *by_node = malloc(((size_t)s->root_count + 1) * sizeof *by_node);
    if (!by_node)
        return lf_fail_nomem(err, "preparing the query");
    for (uint32_t r = 0; r < s->root_count; r++)
        by_node[r] = (root_at){s->root[r].node, s->root[r].kind};
    if (s->root_count)
        qsort(by_node, s->root_count, sizeof *by_node, by_root_node);
    q->root_by_node = by_node;
    return 0;
}

uint32_t q_root_kind(const lf_query *q, uint32_t obj)
{
    const root_at *by_node = q->root_by_node;
    size_t lo = 0, hi = q->s->root_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_node[mid].node < obj)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < q->s->root_count && by_node[lo].node == obj ? by_node[lo].kind : UINT32_MAX;
}

int q_prepare_maps(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    if (q_from_classes(q, s, err) || call_maps(q, s, err) || root_index(q, s, err))
        return -1;
    return 0;
}

void q_prepare_free(lf_query *q)
{
    free(q->from_match);
    for (size_t b = 0; b < q->bitmap_count; b++)
        lf_big_free(q->bitmap[b]);
    free(q->bitmap);
    free(q->root_by_node);
    q->from_match = NULL;
    q->bitmap = NULL;
    q->bitmap_count = 0;
    q->root_by_node = NULL;
}
