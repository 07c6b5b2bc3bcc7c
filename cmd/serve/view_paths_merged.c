/* view_paths_merged.c - /api/paths?cls=N: the shortest paths from the GC
 * roots of class N's `top` largest instances merged into one tree (MAT's
 * "merge shortest paths to GC roots", `leakfind path --class X --merge`),
 * each hop with how many of the targets it leads to. As the CLI folds
 * them, the elements of an array and what lies below them in a collection
 * are one node per class (no id), a bucket chain's links one hop; raw=1
 * keeps every object a node of its own.
 *
 * The answer is the tree in preorder, each row with its depth (no
 * recursion, here or in the page): most targets first among siblings.
 * A target no strong path reaches is merged by its weak one (weak: true
 * on the hops), one no path reaches is only counted (reached < targets).
 * The searches share the snapshot's path search: under its lock. */
#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/collections.h"
#include "../../core/base/bigmem.h"
#include "../../core/base/vec.h"
#include "../../core/model/edge_batch.h"
#include "serve.h"

enum { TOP_DEFAULT = 5 };
#define MERGE_NONE 0xffffffffu

typedef struct merge_node {
    uint32_t object, parent, count;   /* node space, tree space, targets below */
    uint32_t from;      /* node space: the object whose edge leads to object */
    uint8_t weak, folded;
} merge_node;

typedef struct merge_tree {
    merge_node *node;
    size_t count, cap;
    Pvoid_t index, folded_index;  /* (parent + 1) << 32 | object, or | class name */
} merge_tree;

/* The tree node for hop path[k] below node at; (Word_t)-1 (memory). */
static Word_t merge_slot(merge_tree *t, const lf_snapshot *s, const uint32_t *path, int64_t k, uint32_t at,
                         int fold, int weak)
{
    uint32_t v = path[k], cls = s->object_class[v];
    Word_t parent_key = (Word_t)(at == MERGE_NONE ? 0 : (uint64_t)at + 1) << 32;
    PWord_t slot;
    if (fold) { /* JLI is a block: braces */
        JLI(slot, t->folded_index, parent_key | (cls < s->class_count ? s->class_name[cls] : 0xffffffffu));
    } else {
        JLI(slot, t->index, parent_key | v);
    }
    if (slot == PJERR)
        return (Word_t)-1;
    if (!*slot) {
        if (lf_vec_reserve((void **)&t->node, &t->cap, t->count + 1, sizeof *t->node))
            return (Word_t)-1;
        t->node[t->count++] =
            (merge_node){v, at, 0, k > 0 ? path[k - 1] : MERGE_NONE, (uint8_t)weak, (uint8_t)fold};
        *slot = t->count;
    }
    return *slot - 1;
}

/* One path, root object first, into the tree (cmd_path.c's merge_add). */
static int merge_add(merge_tree *t, const lf_snapshot *s, const uint32_t *path, int64_t len, int weak, int group)
{
    uint32_t at = MERGE_NONE;
    for (int64_t k = 0; k < len; k++) {
        const merge_node *up = at == MERGE_NONE ? NULL : &t->node[at];
        int fold = group && up && (up->folded || lf_is_reference_array(s, path[k - 1]));
        /* a link of the chain a folded node stands for: the same node */
        if (fold && up->folded && s->object_class[path[k]] == s->object_class[up->object] &&
            lf_is_structure(s, path[k]))
            continue;
        Word_t next = merge_slot(t, s, path, k, at, fold, weak);
        if (next == (Word_t)-1)
            return -1;
        at = (uint32_t)next;
        t->node[at].count++;
    }
    return 0;
}

static void merge_free(merge_tree *t)
{
    Word_t freed;
    JLFA(freed, t->index);
    JLFA(freed, t->folded_index);
    (void)freed;
    lf_big_free(t->node);  /* lf_vec_reserve's */
}

/* Every target's shortest strong path, else its weak one, merged; the
 * number of targets a path reached, or -1 (memory). */
static int64_t merge_targets(serve_snapshot *snap, const uint32_t *target, uint64_t count, int group, merge_tree *t)
{
    uint32_t *hops = malloc(((size_t)snap->s.object_count + 1) * sizeof *hops);
    if (!hops)
        return -1;
    int64_t reached = 0;
    int rc = 0;
    pthread_mutex_lock(&snap->lock);
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        int weak = 0;
        int64_t len = lf_shortest_root_path(&snap->ps, target[i], 0, NULL, NULL, hops);
        if (len == 0)
            weak = (len = lf_shortest_root_path(&snap->ps, target[i], LF_PATH_FOLLOW_WEAK, NULL, NULL, hops)) > 0;
        reached += len > 0;
        rc = len > 0 ? merge_add(t, &snap->s, hops, len, weak, group) : 0;
    }
    pthread_mutex_unlock(&snap->lock);
    free(hops);
    return rc ? -1 : reached;
}

/* Siblings: most targets first, then by object id. */
static int by_count(const void *pa, const void *pb, void *ctx)
{
    const merge_tree *t = ((const void *const *)ctx)[0];
    const lf_snapshot *s = ((const void *const *)ctx)[1];
    const merge_node *x = &t->node[*(const uint32_t *)pa], *y = &t->node[*(const uint32_t *)pb];
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    uint64_t i = lf_snapshot_object_id(s, x->object), j = lf_snapshot_object_id(s, y->object);
    return i < j ? -1 : i > j;
}

/* The children of each tree node in CSR form, sorted; slot n holds the
 * tree's roots. offset: n + 2 entries, child: n + 1. */
static void tree_children(const merge_tree *t, const lf_snapshot *s, uint32_t *offset, uint32_t *child)
{
    size_t n = t->count;
    memset(offset, 0, (n + 2) * sizeof *offset);
    for (size_t i = 0; i < n; i++)
        offset[(t->node[i].parent == MERGE_NONE ? n : t->node[i].parent) + 1]++;
    for (size_t i = 1; i <= n + 1; i++)
        offset[i] += offset[i - 1];
    for (size_t i = 0; i < n; i++)
        child[offset[t->node[i].parent == MERGE_NONE ? n : t->node[i].parent]++] = (uint32_t)i;
    for (size_t i = n + 1; i > 0; i--)
        offset[i] = offset[i - 1];
    offset[0] = 0;
    const void *ctx[2] = {t, s};
    for (size_t p = 0; p <= n; p++)
        qsort_r(child + offset[p], offset[p + 1] - offset[p], sizeof *child, by_count, ctx);
}

/* How each node's parent holds it, one batch for the tree; NULL (memory). */
static lf_edge_answer *tree_hops(const merge_tree *t, const lf_snapshot *s)
{
    lf_edge_question *q = malloc((t->count + 1) * sizeof *q);
    lf_edge_answer *got = malloc((t->count + 1) * sizeof *got);
    lf_edge_answer *answer = malloc((t->count + 1) * sizeof *answer);
    uint32_t *asked_for = malloc((t->count + 1) * sizeof *asked_for);
    size_t asked = 0;
    int rc = q && got && answer && asked_for ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < t->count; i++) {
        answer[i] = (lf_edge_answer){0, LF_EDGE_KIND_NONE, 0};
        if (t->node[i].parent != MERGE_NONE) {
            asked_for[asked] = (uint32_t)i;
            q[asked++] = (lf_edge_question){t->node[i].from, t->node[i].object};
        }
    }
    rc = rc ? rc : lf_edge_batch_answer(s, q, asked, got);
    for (size_t i = 0; rc == 0 && i < asked; i++)
        answer[asked_for[i]] = got[i];
    free(q), free(got), free(asked_for);
    if (rc)
        free(answer);
    return rc ? NULL : answer;
}

static void write_node(FILE *f, const serve_snapshot *snap, const merge_node *m, lf_edge_answer hop, uint32_t depth)
{
    const lf_snapshot *s = &snap->s;
    fprintf(f, "{\"depth\":%u,\"count\":%u,\"object\":", depth, m->count);
    if (m->folded) { /* objects of one class: no one id or size */
        lf_str name = lf_snapshot_class_name(s, s->object_class[m->object]);
        fprintf(f, "null,\"cls\":%u,\"label\":", s->object_class[m->object]);
        serve_json_str(f, name.ptr, name.len);
    } else {
        serve_json_object(f, s, m->object);
    }
    if (m->parent == MERGE_NONE) {
        serve_json_root_of(f, snap, m->object);
    } else {
        char label[1024];
        size_t n = m->folded && hop.kind == LF_EDGE_KIND_ELEMENT ? (size_t)snprintf(label, sizeof label, "[]")
                   : hop.flags & LF_HOP_FOUND ? lf_snapshot_label_text(s, hop.kind, hop.label, label, sizeof label)
                                              : 0;
        fputs(",\"field\":", f);
        serve_json_str(f, label, n);
    }
    fprintf(f, ",\"weak\":%s}", m->weak ? "true" : "false");
}

/* The tree in preorder, an explicit stack. -1 (memory). */
static int write_tree(FILE *f, const serve_snapshot *snap, const merge_tree *t)
{
    size_t n = t->count;
    uint32_t *offset = malloc((n + 2) * sizeof *offset), *child = malloc((n + 1) * sizeof *child);
    uint32_t *stack = malloc((n + 1) * sizeof *stack), *depth = malloc((n + 1) * sizeof *depth);
    lf_edge_answer *hop = offset && child && stack && depth ? tree_hops(t, &snap->s) : NULL;
    if (!hop) {
        free(offset), free(child), free(stack), free(depth);
        return -1;
    }
    tree_children(t, &snap->s, offset, child);
    size_t top = 0, written = 0;
    for (uint32_t i = offset[n + 1]; i > offset[n]; i--)
        stack[top] = child[i - 1], depth[top++] = 0;
    fputs("[", f);
    while (top > 0) {
        top--;
        uint32_t at = stack[top], d = depth[top];
        fputs(written++ ? ",\n" : "\n", f);
        write_node(f, snap, &t->node[at], hop[at], d);
        for (uint32_t i = offset[at + 1]; i > offset[at]; i--)
            stack[top] = child[i - 1], depth[top++] = d + 1;
    }
    fputs("]", f);
    free(offset), free(child), free(stack), free(depth), free(hop);
    return 0;
}

int serve_paths_merged(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail)
{
    serve_snapshot *snap;
    uint32_t cls;
    uint64_t top;
    const char *merge = serve_arg_text(rq, "merge");
    if (serve_arg_snapshot(site, rq, "snap", &snap, fail) || serve_arg_class(snap, rq, "cls", &cls, fail) ||
        serve_arg_count(rq, "top", TOP_DEFAULT, SERVE_PAGE_MAX, &top, fail))
        return -1;
    if (top == 0)
        return serve_failf(fail, 400, "top needs a count from 1 to %d, not 0", SERVE_PAGE_MAX);
    if (merge && strcmp(merge, "1") != 0)
        return serve_failf(fail, 400, "merge: with cls the paths are merged (merge=1), not '%.40s'", merge);
    if (serve_need_instances(snap, fail) || serve_need_reverse(snap, fail))
        return -1;
    const uint32_t *inst = snap->instance + snap->instance_first[cls];
    uint64_t count = snap->instance_first[cls + 1] - snap->instance_first[cls];
    count = top > count ? count : top;
    merge_tree t = {0};
    int64_t reached = merge_targets(snap, inst, count, serve_arg_text(rq, "raw") == NULL, &t);
    int rc = reached < 0 ? -1 : 0;
    if (rc == 0) {
        fprintf(out, "{\"cls\":%u,\"targets\":%llu,\"reached\":%lld,\"rows\":", cls, (unsigned long long)count,
                (long long)reached);
        rc = write_tree(out, snap, &t);
        fputs("}\n", out);
    }
    merge_free(&t);
    return rc ? serve_failf(fail, 500, "out of memory") : 0;
}
