/* query_reach.c - the walks from the roots a query needs before its
 * pass: which objects it may choose at all (the reachable ones), and for
 * each reachable('KIND') or rooted('KIND') the objects of that kind's
 * roots. One walker, an explicit stack, never recursion over the heap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../graph/dominators.h"
#include "../base/bigmem.h"
#include "../base/vec.h"
#include "query_ast.h"

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
            q_bit_set(bits, s->root[r].node);
    return bits;
}

/* A walk along references: bits are the objects reached, stack the ones
 * whose references are still to follow. */
typedef struct q_walk {
    const lf_snapshot *s;
    uint8_t *bits;
    uint32_t *stack;
    size_t depth, cap;
    int weak_too;               /* follow weak references as well */
    const uint8_t *threads;     /* thread objects whose stack frames are not followed; NULL: all are */
} q_walk;

/* Marks v reached and its references to be followed; -1 out of memory. */
static int walk_reach(q_walk *w, uint32_t v)
{
    q_bit_set(w->bits, v);
    if (lf_vec_reserve((void **)&w->stack, &w->cap, w->depth + 1, sizeof *w->stack))
        return -1;
    w->stack[w->depth++] = v;
    return 0;
}

/* Follows references from the stack until nothing new is reached. */
static int walk_run(q_walk *w)
{
    const lf_snapshot *s = w->s;
    while (w->depth) {
        uint32_t v = w->stack[--w->depth];
        int thread = w->threads && q_bit(w->threads, v);
        for (uint64_t e = lf_snapshot_edges_begin(s, v), end = lf_snapshot_edges_end(s, v); e < end; e++) {
            uint32_t t = s->edge_target[e], u = lf_edge_node(t);
            if ((!w->weak_too && lf_edge_is_weak(t)) || u >= s->object_count || q_bit(w->bits, u) ||
                (thread && stack_edge(s, e)))
                continue;
            if (walk_reach(w, u))
                return -1;
        }
    }
    return 0;
}

int q_root_bits(const lf_query *q, const lf_snapshot *s, const q_node *call, uint8_t *bits, lf_error *err)
{
    const q_node *arg = &q->node[call->a];
    const char *want = q->lit + arg->at;
    q_walk w = {s, bits, NULL, 0, 0, 0, NULL};
    uint8_t *threads = NULL;
    size_t found = 0;
    int rc = 0;
    for (uint32_t r = 0; r < s->root_count && rc == 0; r++) {
        uint32_t v = s->root[r].node;
        if (v >= s->object_count || !kind_matches(s, s->root[r].kind, want, arg->len))
            continue;
        found++;
        if (q_bit(bits, v))
            continue;
        if (call->op == QF_REACHABLE)
            rc = walk_reach(&w, v);
        else
            q_bit_set(bits, v);
    }
    /* only a walk from the thread roots takes a local by its thread's frame */
    if (rc == 0 && w.depth && !same_kind(want, arg->len, "thread", 6) && !(w.threads = threads = thread_bits(s)))
        rc = -1;
    rc = rc ? rc : walk_run(&w);
    lf_big_free(w.stack);
    lf_big_free(threads);
    if (rc)
        return lf_fail_nomem(err, "walking from the roots");
    return found ? 0 : no_such_kind(s, arg, want, err);
}

/* Objects whose dominator search reached them: idom set. Only when the
 * analysis left the unreached ones out of the tree (not each alone, as V8's
 * rule puts them, which gives them an idom too). */
static int seed_from_idom(const lf_snapshot *s, q_walk *w)
{
    if (!s->idom || (s->analysis_flags & LF_DOM_UNREACHED_ALONE))
        return 0;
    for (uint32_t v = 0; v < s->object_count; v++)
        if (s->idom[v] != LF_NODE_NONE)
            q_bit_set(w->bits, v);
    /* what they reach by weak references alone is all that is left to walk */
    for (uint32_t v = 0; v < s->object_count; v++) {
        if (!q_bit(w->bits, v))
            continue;
        for (uint64_t e = lf_snapshot_edges_begin(s, v), end = lf_snapshot_edges_end(s, v); e < end; e++) {
            uint32_t t = s->edge_target[e], u = lf_edge_node(t);
            if (lf_edge_is_weak(t) && u < s->object_count && !q_bit(w->bits, u) && walk_reach(w, u))
                return -1;
        }
    }
    return 1;
}

int q_live_objects(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    /* --keep-unreachable made them roots; a .gcdump's objects no root
     * reaches are the runtime's frozen ones (string literals, types), not
     * garbage: every object counts */
    if ((s->analysis_flags & LF_DOM_KEEP_UNREACHABLE) || s->source_format == LF_FORMAT_GCDUMP)
        return 0;
    q_walk w = {s, lf_big_calloc(s->object_count / 8 + 1, 1), NULL, 0, 0, 1, NULL};
    int rc = w.bits ? seed_from_idom(s, &w) : -1;
    for (uint32_t r = 0; rc == 0 && r < s->root_count; r++)
        if (s->root[r].node < s->object_count && !q_bit(w.bits, s->root[r].node))
            rc = walk_reach(&w, s->root[r].node);
    rc = rc < 0 ? rc : walk_run(&w);
    lf_big_free(w.stack);
    if (rc < 0) {
        lf_big_free(w.bits);
        return lf_fail_nomem(err, "walking from the roots");
    }
    q->live = w.bits;
    return 0;
}
