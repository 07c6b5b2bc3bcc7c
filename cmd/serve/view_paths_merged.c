/* view_paths_merged.c - /api/paths?cls=N: the shortest paths from the GC
 * roots of class N's `top` largest instances merged into one tree (MAT's
 * "merge shortest paths to GC roots", `leakfind path --class X --merge`),
 * each hop with how many of the targets it leads to. The tree is the
 * CLI's (core/analysis/merged_paths.h): folded, the elements of an array
 * and what lies below them in a collection are one node per class (no
 * id), a bucket chain's links one hop; raw=1 keeps every object a node of
 * its own.
 *
 * The answer is the tree in preorder, each row with its depth (no
 * recursion, here or in the page): most targets first among siblings.
 * A target no strong path reaches is merged by its weak one (weak: true
 * on the hops), one no path reaches is only counted (reached < targets).
 * The searches share the snapshot's path search: under its lock. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/merged_paths.h"
#include "../cli/path_rows.h"
#include "serve.h"

enum { TOP_DEFAULT = 5 };

/* Every target's shortest strong path, else its weak one, merged; the
 * number of targets a path reached, or -1 (memory). */
static int64_t merge_targets(serve_snapshot *snap, const uint32_t *target, uint64_t count, int group,
                             lf_merge_tree *t)
{
    pthread_mutex_lock(&snap->path_lock);
    int64_t reached = lf_merge_targets(t, &snap->s, &snap->ps, target, (size_t)count, NULL, NULL, group, 0, NULL, NULL);
    pthread_mutex_unlock(&snap->path_lock);
    if (reached >= 0)
        lf_merge_finish(t);
    return reached;
}

static void write_node(FILE *f, const serve_snapshot *snap, const lf_merge_node *m, lf_edge_answer hop, uint32_t depth)
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
    if (m->parent == LF_MERGE_NONE) {
        serve_json_root_of(f, snap, m->object);
    } else {
        char label[1024];
        size_t n = m->folded && hop.kind == LF_EDGE_KIND_ELEMENT ? (size_t)snprintf(label, sizeof label, "[]")
                   : hop.flags & LF_HOP_FOUND ? lf_snapshot_label_text(s, hop.kind, hop.label, label, sizeof label)
                                              : 0;
        fputs(",\"field\":", f);
        serve_json_str(f, label, n);
    }
    fprintf(f, ",\"chain\":%u,\"weak\":%s}", m->links, m->weak ? "true" : "false");
}

/* The tree in preorder (merged_paths.h). -1 (memory). */
static int write_tree(FILE *f, const serve_snapshot *snap, const lf_merge_tree *t)
{
    uint32_t *order, *depth;
    lf_edge_answer *hop = NULL;
    const lf_snapshot *s = &snap->s;
    if (lf_merge_preorder(t, s, &order, &depth) || !(hop = lf_merge_hops(t, s, path_rows_batch(s)))) {
        free(order), free(depth);
        return -1;
    }
    fputs("[", f);
    for (size_t k = 0; k < t->count; k++) {
        fputs(k ? ",\n" : "\n", f);
        write_node(f, snap, &t->node[order[k]], hop[order[k]], depth[k]);
    }
    fputs("]", f);
    free(order), free(depth), free(hop);
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
    lf_merge_tree t = {0};
    int64_t reached = merge_targets(snap, inst, count, serve_arg_text(rq, "raw") == NULL, &t);
    int rc = reached < 0 ? -1 : 0;
    if (rc == 0) {
        fprintf(out, "{\"cls\":%u,\"targets\":%llu,\"reached\":%lld,\"rows\":", cls, (unsigned long long)count,
                (long long)reached);
        rc = write_tree(out, snap, &t);
        fputs("}\n", out);
    }
    lf_merge_free(&t);
    return rc ? serve_failf(fail, 500, "out of memory") : 0;
}
