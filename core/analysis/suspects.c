/* suspects.c - size findings, accumulation points and paths (see suspects.h). */
#include "suspects.h"

#include <Judy.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accumulation_memo.h"
#include "collections.h"
#include "domview.h"
#include "owners.h"
#include "roots.h"
#include "finalizer_queue.h"
#include "holders.h"
#include "session_objects.h"
#include "../base/vec.h"
#include "../base/bigmem.h"
#include "../model/root_text.h"

int lf_suspect_add(lf_suspect_list *list, const lf_suspect *f)
{
    if (lf_vec_reserve((void **)&list->item, &list->cap, list->count + 1, sizeof *list->item))
        return -1;
    list->item[list->count++] = *f;
    return 0;
}

void lf_suspect_list_truncate(lf_suspect_list *list, size_t count)
{
    for (size_t k = count; k < list->count; k++) {
        free(list->item[k].path);
        free(list->item[k].counts);
        for (uint32_t g = 0; g < list->item[k].grows_count; g++)
            free(list->item[k].grows[g].counts);
        free(list->item[k].grows);
    }
    if (count < list->count)
        list->count = count;
}

void lf_suspect_list_free(lf_suspect_list *list)
{
    lf_suspect_list_truncate(list, 0);
    lf_big_free(list->item);
    memset(list, 0, sizeof *list);
}

/* A top owner that is no finding of the program's: made by the dump
 * session, or garbage on .NET's finalizer queue (finalizer_only, may be NULL). */
static int not_the_programs(const lf_snapshot *s, uint32_t node, const uint64_t *finalizer_only)
{
    return lf_class_is_session_made(s, s->object_class[node]) ||
           (finalizer_only && lf_bit_is_set(finalizer_only, node));
}

/* Whether a holder edge is named by a slot number (lf_label_is_slot). */
static int slot_number(const lf_snapshot *s, lf_holder h)
{
    char text[64];
    if (h.kind == LF_HOLDER_ROOT || h.kind == LF_EDGE_KIND_NONE)
        return 0;
    return lf_label_is_slot(text, lf_snapshot_label_text(s, h.kind, h.label, text, sizeof text));
}

/* Whether the k nodes are alike: one class name, held the same way by
 * their dominator (an array's elements, one frame's locals), so that they
 * are one collection's entries and their dominator is the finding, not
 * each of them (DESIGN 13). An answer without its label counts as unlike. */
static int alike(const lf_snapshot *s, lf_holders *holders, const uint32_t *node, size_t k)
{
    if (k < 2)
        return 0;
    uint32_t name = s->class_name[s->object_class[node[0]]];
    for (size_t i = 1; i < k; i++)
        if (s->class_name[s->object_class[node[i]]] != name)
            return 0; /* before any question: each scans the dominator's edges */
    lf_holder first = lf_holders_get(holders, node[0]);
    for (size_t i = 1; i < k; i++) {
        lf_holder h = lf_holders_get(holders, node[i]);
        if (h.kind != first.kind ||
            (h.kind != LF_EDGE_KIND_ELEMENT && h.label != first.label &&
             !(slot_number(s, first) && slot_number(s, h))))
            return 0;
    }
    return !lf_holders_failed(holders) && first.kind != LF_EDGE_KIND_NONE;
}

static int push_candidate(uint32_t **stack, size_t *depth, size_t *cap, uint32_t node)
{
    if (lf_vec_reserve((void **)stack, cap, *depth + 1, sizeof **stack))
        return -1;
    (*stack)[(*depth)++] = node;
    return 0;
}

/* A V8 global object among the candidates: the program's scope, which
 * holds everything a script keeps (the JVM's static fields are roots, not
 * an object), is no finding itself; what it holds is. Its accumulation
 * point when the walk goes down (a list held by a module's export; a
 * collection's store is its collection), else its children that retain at
 * least t, are candidates in its place. */
static int examine_global(const lf_snapshot *s, uint32_t node, uint64_t t, uint32_t **stack, size_t *depth,
                          size_t *cap)
{
    lf_accumulation at = {.point = lf_accumulation_descend(s, node)};
    lf_accumulation_as_collection(s, node, &at); /* a Map's table: the Map */
    if (at.point != node)
        return lf_snapshot_retained(s, at.point) >= t ? push_candidate(stack, depth, cap, at.point) : 0;
    for (uint32_t i = s->domtree_offset[node]; i < s->domtree_offset[node + 1]; i++) {
        uint32_t child = s->domtree_child[i]; /* largest first */
        if (lf_snapshot_retained(s, child) < t)
            break;
        if (push_candidate(stack, depth, cap, child))
            return -1;
    }
    return 0;
}

/* One candidate of the size findings: its accumulation point, the children
 * there that are candidates of their own (pushed on the stack), and the
 * finding when what is left still retains at least t. Children that are
 * alike are no candidates: the point holds them, and is the finding. */
static int examine(const lf_snapshot *s, lf_accumulation_memo *memo, lf_holders *holders, uint32_t node, uint64_t t,
                   lf_suspect_list *list, uint32_t **stack, size_t *depth, size_t *cap)
{
    lf_suspect f = {.kind = LF_SUSPECT_OBJECT, .node = node, .cls = s->object_class[node], .instances = 1,
                    .retained = lf_snapshot_retained(s, node), .holder_row = -1};
    f.acc.point = lf_accumulation_descend(s, node);
    if (lf_accumulation_chain(s, memo, &f.acc)) {
        lf_accumulation_as_collection(s, node, &f.acc); /* a LinkedList's first node: the list */
        return lf_suspect_add(list, &f);
    }
    uint64_t apart = 0;
    size_t below = *depth;
    /* a runtime collection's entry (an OCaml list's head, a TreeMap's
     * root): the entries below it are the collection, counted at it */
    int entries = lf_is_runtime_entry(s, f.acc.point);
    for (uint32_t i = s->domtree_offset[f.acc.point]; i < s->domtree_offset[f.acc.point + 1]; i++) {
        uint32_t child = s->domtree_child[i];
        if (lf_snapshot_retained(s, child) < t)
            break;
        if (entries && (lf_same_class_as_dominator(s, child, f.acc.point) || lf_is_map_entry(s, child)))
            continue;
        if (push_candidate(stack, depth, cap, child))
            return -1;
        apart += lf_snapshot_retained(s, child);
    }
    size_t pushed = *depth - below;
    if (alike(s, holders, *stack + below, pushed)) {
        *depth = below;
        apart = 0;
    }
    if (apart > 0 && f.retained - apart < t)
        return 0;
    if (lf_accumulation_spread(s, memo, &f.acc, apart > 0 ? t : UINT64_MAX))
        return -1;
    lf_accumulation_as_collection(s, node, &f.acc);
    return lf_suspect_add(list, &f);
}

/* class -> the first class of its name: the classes that several loaders
 * define under one name count as one. NULL when out of memory. */
static uint32_t *first_of_name(const lf_snapshot *s)
{
    uint32_t *first = malloc(((size_t)s->class_count + 1) * sizeof *first);
    Pvoid_t by_name = NULL;
    for (uint32_t c = 0; c < s->class_count && first; c++) {
        PWord_t slot;
        JLI(slot, by_name, (Word_t)s->class_name[c]);
        if (slot == PJERR) {
            free(first);
            first = NULL;
            break;
        }
        if (!*slot)
            *slot = (Word_t)c + 1;
        first[c] = (uint32_t)(*slot - 1);
    }
    Word_t freed;
    JLFA(freed, by_name);
    (void)freed;
    return first;
}

/* The top owners that are no finding, by class name: a class whose owners
 * together retain at least t. */
static int class_findings(const lf_snapshot *s, lf_accumulation_memo *memo, const lf_top_view *v, uint64_t t,
                          const uint64_t *finalizer_only, lf_suspect_list *list, lf_error *err)
{
    uint64_t *sum = calloc((size_t)s->class_count + 1, sizeof *sum);
    uint64_t *count = calloc((size_t)s->class_count + 1, sizeof *count);
    uint32_t *largest = malloc(((size_t)s->class_count + 1) * sizeof *largest);
    uint32_t *named = first_of_name(s);
    int rc = sum && count && largest && named ? 0 : lf_fail_nomem(err, "suspects by class");
    for (size_t k = 0; k < v->entry_count && !rc; k++) {
        uint32_t node = v->entry[k].node, cls = named[s->object_class[node]];
        if (lf_snapshot_retained(s, node) >= t || not_the_programs(s, node, finalizer_only))
            continue;
        if (count[cls]++ == 0)
            largest[cls] = node;    /* entries come largest first */
        sum[cls] += lf_snapshot_retained(s, node);
    }
    for (uint32_t c = 0; c < s->class_count && !rc; c++) {
        if (count[c] < 2 || sum[c] < t)
            continue;
        lf_suspect f = {.kind = LF_SUSPECT_CLASS, .node = largest[c], .cls = c, .instances = count[c],
                        .retained = sum[c], .holder_row = -1};
        if (lf_accumulation_find(s, memo, largest[c], &f.acc, err))
            rc = -1;
        else if (lf_suspect_add(list, &f))
            rc = lf_fail_nomem(err, "suspects");
    }
    free(sum);
    free(count);
    free(largest);
    free(named);
    return rc;
}

static int by_retained(const void *pa, const void *pb)
{
    const lf_suspect *a = pa, *b = pb;
    if (a->retained != b->retained)
        return a->retained > b->retained ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

const char *lf_suspects_set_aside(const lf_snapshot *s)
{
    return s->source_format == LF_FORMAT_V8 ? "the global object, the script's scope" : NULL;
}

int lf_suspects_by_size(const lf_snapshot *s, double threshold, lf_accumulation_memo *memo, lf_suspect_list *list,
                        lf_error *err)
{
    if (!lf_snapshot_has_retained(s))
        return lf_fail(err, LF_ERR_SYSTEM, "suspects need an analysed snapshot");
    uint64_t t = (uint64_t)ceil(threshold * (double)s->reachable_shallow);
    if (t == 0)
        t = 1;
    uint64_t *finalizer_only;
    if (lf_finalizer_only(s, &finalizer_only, err))
        return -1;
    lf_top_view v;
    if (lf_top_view_build(s, 1, 0, 0, 0, &v)) {
        free(finalizer_only);
        return lf_fail_nomem(err, "top owners");
    }
    size_t start = list->count, depth = 0, cap = 0;
    uint32_t *stack = NULL;
    int rc = 0;
    /* entries come largest first: push in reverse so the largest is examined first */
    for (size_t k = v.entry_count; k-- > 0 && !rc;) {
        uint32_t node = v.entry[k].node;
        if (lf_snapshot_retained(s, node) < t || not_the_programs(s, node, finalizer_only))
            continue;
        rc = push_candidate(&stack, &depth, &cap, node);
    }
    lf_holders holders; /* a few questions: answered one by one */
    lf_holders_init(&holders, s);
    while (depth > 0 && !rc) {
        uint32_t node = stack[--depth];
        rc = lf_is_global_object(s, node) ? examine_global(s, node, t, &stack, &depth, &cap)
                                          : examine(s, memo, &holders, node, t, list, &stack, &depth, &cap);
    }
    rc = rc || lf_holders_failed(&holders);
    lf_holders_free(&holders);
    lf_big_free(stack);
    if (rc)
        rc = lf_fail_nomem(err, "suspects");
    else
        rc = class_findings(s, memo, &v, t, finalizer_only, list, err);
    lf_top_view_free(&v);
    free(finalizer_only);
    if (!rc && list->count > start)
        qsort(list->item + start, list->count - start, sizeof *list->item, by_retained);
    return rc;
}

/* Appends "text" to buf at *at, cut to fit. */
static void put(char *buf, size_t size, size_t *at, const char *text, size_t len)
{
    if (*at + 1 >= size)
        return;
    if (len > size - 1 - *at)
        len = size - 1 - *at;
    memcpy(buf + *at, text, len);
    *at += len;
    buf[*at] = 0;
}

/* "kind name" of the first root naming node, or "" */
static void put_root(const lf_snapshot *s, uint32_t node, char *buf, size_t size, size_t *at)
{
    for (uint32_t r = 0; r < s->root_count; r++) {
        if (s->root[r].node != node)
            continue;
        char text[2600];
        put(buf, size, at, text, lf_root_text(s, r, text, sizeof text));
        return;
    }
}

/* " / label (Class)" for hop i of f's path (the first without " / " and
 * with its root's name); a V8 synthetic node by its name alone, the
 * snapshot's own root entry not at all. */
static void put_hop(const lf_snapshot *s, const lf_suspect *f, uint32_t i, char *buf, size_t size, size_t *at)
{
    uint32_t node = f->path[i];
    lf_str name = lf_snapshot_object_label(s, node);
    if (lf_is_synthetic(s, node)) {
        if (i > 0) {
            put(buf, size, at, *at ? " / " : "", *at ? 3 : 0);
            put(buf, size, at, name.ptr, name.len);
        }
        return;
    }
    if (*at)
        put(buf, size, at, " / ", 3);
    size_t mark = *at;
    if (i == 0 || lf_is_synthetic(s, f->path[i - 1])) {
        put_root(s, node, buf, size, at);  /* a synthetic node's edges are list slots */
    } else {
        char label[256];
        uint64_t edge = lf_snapshot_find_edge(s, f->path[i - 1], node);
        size_t len = edge == UINT64_MAX ? 0 : lf_snapshot_edge_label(s, edge, label, sizeof label);
        put(buf, size, at, label, len < sizeof label ? len : sizeof label - 1);
    }
    put(buf, size, at, *at > mark ? " (" : "(", *at > mark ? 2 : 1);
    put(buf, size, at, name.ptr, name.len);
    put(buf, size, at, ")", 1);
}

/* A long path is shown by its first and last hops. */
enum { PATH_HEAD = 4, PATH_TAIL = 8 };

size_t lf_suspect_path_text(const lf_snapshot *s, const lf_suspect *f, char *buf, size_t size)
{
    size_t at = 0;
    if (size)
        buf[0] = 0;
    for (uint32_t i = 0; i < f->path_len; i++) {
        if (f->path_len > PATH_HEAD + PATH_TAIL && i == PATH_HEAD) {
            char more[64];
            int n = snprintf(more, sizeof more, " / ... %u more", f->path_len - PATH_HEAD - PATH_TAIL);
            put(buf, size, &at, more, n > 0 ? (size_t)n : 0);
            i = f->path_len - PATH_TAIL;
        }
        put_hop(s, f, i, buf, size, &at);
    }
    return size ? lf_path_from_static(buf, at, size) : 0;
}

int lf_suspects_size_step(const lf_snapshot *s, double threshold, lf_suspects_work *w, lf_error *err)
{
    if (lf_suspects_by_size(s, threshold, &w->memo, &w->by_size, err))
        return -1;
    w->sized = 1;
    return 0;
}

int lf_suspects_paths_step(const lf_snapshot *s, lf_suspects_work *w)
{
    w->paths = lf_suspect_path_index_make(s);
    return w->paths ? 0 : -1;
}

void lf_suspects_work_free(lf_suspects_work *w)
{
    lf_suspect_path_index_free(w->paths);
    w->paths = NULL;
    lf_suspect_list_free(&w->by_size);
    lf_accumulation_memo_free(&w->memo);
    w->sized = 0;
}

/* Appends w's size findings to list (found here unless w holds them). */
static int add_size_findings(const lf_snapshot *s, double threshold, lf_suspects_work *w, lf_suspect_list *list,
                             lf_error *err)
{
    if (!w->sized)
        return lf_suspects_by_size(s, threshold, &w->memo, list, err);
    if (lf_vec_reserve((void **)&list->item, &list->cap, list->count + w->by_size.count, sizeof *list->item))
        return lf_fail_nomem(err, "suspects");
    if (w->by_size.count) /* an empty list's item is NULL, which memcpy may not be given */
        memcpy(list->item + list->count, w->by_size.item, w->by_size.count * sizeof *list->item);
    list->count += w->by_size.count;
    lf_big_free(w->by_size.item); /* its findings are list's now */
    memset(&w->by_size, 0, sizeof w->by_size);
    return 0;
}

/* Whether size finding f tells a growth finding's story again: the object
 * is the growth's holder or the place it piles up at, or f's memory piles
 * up at one of those (a .NET series: "List<Timer> retains 17.84%" after
 * "Timer grows by 100 per snapshot, piles up at that List"). A class
 * finding is many top owners: never one growth's. */
static int told_by_growth(const lf_suspect_list *list, size_t growths, const lf_suspect *f)
{
    if (f->kind != LF_SUSPECT_OBJECT)
        return 0;
    for (size_t k = 0; k < growths; k++) {
        const lf_suspect *g = &list->item[k];
        if (g->kind != LF_SUSPECT_GROWTH || g->node == LF_NODE_NONE)
            continue;
        uint32_t g_point = g->acc.point != LF_NODE_NONE ? g->acc.point : g->node;
        if (f->node == g->node || f->node == g_point || f->acc.point == g->node || f->acc.point == g_point)
            return 1;
    }
    return 0;
}

/* Leaves out of list[growths..count) the size findings a growth finding
 * before them tells already. */
static void drop_told_twice(lf_suspect_list *list, size_t growths)
{
    size_t kept = growths;
    for (size_t k = growths; k < list->count; k++) {
        if (told_by_growth(list, growths, &list->item[k])) {
            lf_suspect_list_truncate(&(lf_suspect_list){list->item + k, 1, 1}, 0);
            continue;
        }
        list->item[kept++] = list->item[k];
    }
    list->count = kept;
}

int lf_suspects_finish(const lf_snapshot *s, const lf_trend *t, const double *workload, const lf_trend_rule *rule,
                       double threshold, size_t top, lf_suspects_work *w, lf_suspect_list *list, lf_error *err)
{
    if (t && t->series > 1 && lf_suspects_by_growth(t, s, workload, rule, &w->memo, list, err))
        return -1;
    lf_suspect_list minor = {0};
    size_t kept = 0;
    for (size_t k = 0; k < list->count; k++) /* the minor ones wait apart */
        if (!list->item[k].minor)
            list->item[kept++] = list->item[k];
        else if (lf_suspect_add(&minor, &list->item[k]))
            return lf_fail_nomem(err, "suspects");
    list->count = kept;
    int rc = add_size_findings(s, threshold, w, list, err);
    if (!rc)
        drop_told_twice(list, kept);
    if (!rc && top)
        lf_suspect_list_truncate(list, top);
    if (!rc && lf_vec_reserve((void **)&list->item, &list->cap, list->count + minor.count, sizeof *list->item))
        rc = lf_fail_nomem(err, "suspects");
    if (rc) {
        lf_suspect_list_free(&minor);
        return -1;
    }
    if (minor.count) /* an empty list's item is NULL, which memcpy may not be given */
        memcpy(list->item + list->count, minor.item, minor.count * sizeof *minor.item);
    list->count += minor.count;
    lf_big_free(minor.item);
    return rc ? -1 : lf_suspect_paths_using(s, list, w->paths, err);
}

int lf_suspects_find(const lf_snapshot *s, const lf_trend *t, const double *workload, const lf_trend_rule *rule,
                     double threshold, size_t top, lf_suspect_list *list, lf_error *err)
{
    lf_suspects_work w = {0};
    int rc = lf_suspects_finish(s, t, workload, rule, threshold, top, &w, list, err);
    lf_suspects_work_free(&w);
    return rc;
}
