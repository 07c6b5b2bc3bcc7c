/* report_tree.c - the page's dominator tree: only its top, so the page stays
 * small whatever the dump. Nodes are taken largest retained first among the
 * children of the nodes already taken (best first from the top owners, with
 * V8's synthetic levels skipped as `dominators` skips them); each node's
 * children left out become a node per class with their count and bytes.
 * Below a collection (an array of references, a V8 dictionary, a JDK
 * collection holding its entries) the children are what `dominators` shows
 * there (issue 47): the members large enough to
 * be shown one by one, then the rest by class through the entries and
 * buckets ("30,000 x Session"), never a bucket's head as an object of its
 * own: an entry chained behind another is dominated by it, so taking bucket
 * heads one by one left the group a part of the sessions. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/collections.h"
#include "../../core/analysis/dup_strings.h"
#include "../../core/analysis/domview.h"
#include "../../core/analysis/holders.h"
#include "../../core/base/vec.h"
#include "../cli/count_text.h"
#include "../cli/dom_roots.h"
#include "../cli/string_preview.h"
#include "report.h"
#include "../../core/base/bigmem.h"

#define NO_PARENT UINT32_MAX

typedef struct tree_node {
    uint32_t node;           /* node space; LF_NODE_NONE: the top or a "more" node */
    uint32_t parent;         /* index in tree.out, NO_PARENT for the top */
    uint32_t via;            /* top owners: the synthetic node above, or LF_NODE_NONE */
    uint32_t kids, shown;    /* children it may show one by one and how many were
                              * taken; a "more" node: how many it stands for */
    uint64_t retained, shown_retained;
    uint32_t cls;            /* a "more" node of one class: its class, else LF_NODE_NONE */
    uint8_t entries;         /* that class is the collection's own entries */
    uint8_t members;         /* its kids are a collection's members, in tree.listed */
    uint32_t group_first, group_count; /* members: the rest by class, in tree.groups */
} tree_node;

/* The largest child of out[parent] not taken yet: the one at pos of
 * [pos, end) (dominator-tree children, top rows and a collection's members
 * listed are largest first). */
typedef struct pending {
    uint64_t retained;
    uint32_t parent, pos, end;
} pending;

typedef struct tree {
    const lf_snapshot *s;
    uint64_t min;             /* a member shown one by one retains this (lf_view_min) */
    lf_top_view view;
    uint32_t *listed;         /* node space: the members collections show one by one */
    size_t listed_count, listed_cap;
    lf_class_group *groups;   /* the other members of each collection, by class */
    size_t group_count, group_cap;
    tree_node *out;
    size_t count, cap;
    pending *heap;
    size_t heap_count, heap_cap;
} tree;

static int before(const pending *a, const pending *b)
{
    if (a->retained != b->retained)
        return a->retained > b->retained;
    return a->parent != b->parent ? a->parent < b->parent : a->pos < b->pos;
}

static int heap_push(tree *t, pending p)
{
    if (lf_vec_reserve((void **)&t->heap, &t->heap_cap, t->heap_count + 1, sizeof *t->heap))
        return -1;
    size_t i = t->heap_count++;
    while (i > 0 && before(&p, &t->heap[(i - 1) / 2])) {
        t->heap[i] = t->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    t->heap[i] = p;
    return 0;
}

static pending heap_pop(tree *t)
{
    pending top = t->heap[0], last = t->heap[--t->heap_count];
    size_t i = 0, n = t->heap_count;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&t->heap[c + 1], &t->heap[c]))
            c++;
        if (!before(&t->heap[c], &last))
            break;
        t->heap[i] = t->heap[c];
        i = c;
    }
    if (n)
        t->heap[i] = last;
    return top;
}

/* The entry a top-view row stands for (the view is built without groups). */
static const lf_top_entry *row_entry(const tree *t, uint32_t row)
{
    const lf_top_row *r = &t->view.row[row];
    return &t->view.entry[r->count ? r->first : r->node];
}

/* Child pos of out[parent] (node space): a top-view row (its synthetic node
 * above into *via), a collection's member, or a dominator-tree child. */
static uint32_t child_at(const tree *t, uint32_t parent, uint32_t pos, uint32_t *via)
{
    if (parent == 0) {
        const lf_top_entry *e = row_entry(t, pos);
        if (via)
            *via = e->via;
        return e->node;
    }
    return t->out[parent].members ? t->listed[pos] : t->s->domtree_child[pos];
}

static int add_node(tree *t, tree_node n)
{
    if (lf_vec_reserve((void **)&t->out, &t->cap, t->count + 1, sizeof *t->out))
        return -1;
    t->out[t->count++] = n;
    return 0;
}

/* A collection's members (n->node holds them): the first `dominators` shows
 * one by one, listed apart, their positions into [*first, *first +
 * n->kids); the rest by class, kept for add_more, so the collection is
 * walked once. Returns 0 or -1 (memory). */
static int list_members(tree *t, tree_node *n, uint32_t *first)
{
    const lf_snapshot *s = t->s;
    lf_collection_members m;
    if (lf_collection_members_of(s, n->node, &m))
        return -1;
    size_t shown = lf_collection_shown(s, &m, LF_VIEW_TOP, t->min);
    int rc = lf_group_payload(s, &m, shown) ||
             lf_vec_reserve((void **)&t->listed, &t->listed_cap, t->listed_count + shown, sizeof *t->listed) ||
             lf_vec_reserve((void **)&t->groups, &t->group_cap, t->group_count + m.group_count, sizeof *t->groups);
    if (!rc) {
        /* an empty list may be NULL on either side, which memcpy may not be given */
        if (shown)
            memcpy(t->listed + t->listed_count, m.payload, shown * sizeof *m.payload);
        if (m.group_count)
            memcpy(t->groups + t->group_count, m.group, m.group_count * sizeof *m.group);
        n->members = 1;
        *first = (uint32_t)t->listed_count;
        n->kids = (uint32_t)shown;
        n->group_first = (uint32_t)t->group_count;
        n->group_count = (uint32_t)m.group_count;
        t->listed_count += shown;
        t->group_count += m.group_count;
    }
    lf_collection_members_free(&m);
    return rc ? -1 : 0;
}

/* What n may show one by one: below a collection, its members that
 * `dominators` shows alone; else its dominator-tree children. */
static int children_of(tree *t, tree_node *n, uint32_t *first)
{
    const lf_snapshot *s = t->s;
    if (lf_holds_members(s, n->node))
        return list_members(t, n, first);
    *first = s->domtree_offset[n->node];
    n->kids = s->domtree_offset[n->node + 1] - *first;
    return 0;
}

/* Takes the largest pending child; queues its next sibling and first child. */
static int take_next(tree *t)
{
    const lf_snapshot *s = t->s;
    pending p = heap_pop(t);
    uint32_t via = LF_NODE_NONE, first = 0;
    uint32_t v = child_at(t, p.parent, p.pos, &via), at = (uint32_t)t->count;
    uint64_t retained = lf_snapshot_retained(s, v);
    tree_node n = {v, p.parent, via, 0, 0, retained, 0, LF_NODE_NONE, 0, 0, 0, 0};
    if (children_of(t, &n, &first) || add_node(t, n))
        return -1;
    t->out[p.parent].shown++;
    t->out[p.parent].shown_retained += retained;
    if (p.pos + 1 < p.end) {
        uint64_t next = p.parent == 0 ? t->view.row[p.pos + 1].retained
                                      : lf_snapshot_retained(s, child_at(t, p.parent, p.pos + 1, NULL));
        if (heap_push(t, (pending){next, p.parent, p.pos + 1, p.end}))
            return -1;
    }
    if (n.kids && heap_push(t, (pending){lf_snapshot_retained(s, child_at(t, at, first, NULL)), at, first,
                                         first + n.kids}))
        return -1;
    return 0;
}

/* group[0..count) as children of out[i]: the largest GROUPS classes a node
 * each, the rest one "more" node. Returns 0 or -1 (memory). */
static int add_groups(tree *t, size_t i, const lf_class_group *group, size_t count)
{
    enum { GROUPS = 4 };
    uint64_t rest_count = 0, rest_retained = 0;
    int rc = 0;
    for (size_t g = 0; g < count && !rc; g++) {
        const lf_class_group *c = &group[g];
        if (g >= GROUPS) {
            rest_count += c->count;
            rest_retained += c->retained;
            continue;
        }
        rc = add_node(t, (tree_node){LF_NODE_NONE, (uint32_t)i, LF_NODE_NONE, (uint32_t)c->count, 0, c->retained, 0,
                                     c->cls, (uint8_t)c->structure, 0, 0, 0});
    }
    if (!rc && rest_count)
        rc = add_node(t, (tree_node){LF_NODE_NONE, (uint32_t)i, LF_NODE_NONE, (uint32_t)rest_count, 0, rest_retained,
                                     0, LF_NODE_NONE, 0, 0, 0, 0});
    return rc;
}

/* The children of out[i] not taken, by class: of a collection, its members
 * after those taken (the first `shown` of them), through its structure
 * (issue 32, "29,990 x Session"); of another object, its dominator-tree
 * children after those taken. Returns 0 or -1 (memory). */
static int add_more_by_class(tree *t, size_t i)
{
    const lf_snapshot *s = t->s;
    const tree_node n = t->out[i];
    if (n.members && n.shown == n.kids) /* every member listed was taken: the groups kept are the rest */
        return add_groups(t, i, t->groups + n.group_first, n.group_count);
    /* the budget ran out before a member listed was taken (walked again), or
     * another object's children */
    lf_collection_members m;
    uint32_t first = s->domtree_offset[n.node] + n.shown;
    int rc = n.members ? lf_collection_members_of(s, n.node, &m)
                       : lf_collection_members_below(s, s->domtree_child + first, n.kids - n.shown, 0, &m);
    if (!rc)
        rc = lf_group_payload(s, &m, n.members ? n.shown : 0) || add_groups(t, i, m.group, m.group_count) ? -1 : 0;
    lf_collection_members_free(&m);
    return rc;
}

/* The "more" nodes of each node whose children were not all taken: by
 * class below an object, one for the top level's rest. */
static int add_more(tree *t)
{
    size_t taken = t->count;
    for (size_t i = 0; i < taken; i++) {
        const tree_node *n = &t->out[i];
        if (n->shown == n->kids && !n->members)
            continue;
        if (n->node != LF_NODE_NONE) {
            if (add_more_by_class(t, i))
                return -1;
            continue;
        }
        tree_node more = {LF_NODE_NONE, (uint32_t)i, LF_NODE_NONE, n->kids - n->shown, 0,
                          n->retained - n->shown_retained, 0, LF_NODE_NONE, 0, 0, 0, 0};
        if (add_node(t, more))
            return -1;
    }
    return 0;
}

static int build(tree *t, uint32_t limit)
{
    const lf_snapshot *s = t->s;
    if (lf_top_view_build(s, 1, 0, 0, 0, &t->view))
        return -1;
    uint64_t heap = 0;
    for (size_t r = 0; r < t->view.row_count; r++)
        heap += t->view.row[r].retained;
    uint32_t rows = (uint32_t)t->view.row_count;
    if (add_node(t, (tree_node){LF_NODE_NONE, NO_PARENT, LF_NODE_NONE, rows, 0, heap, 0, LF_NODE_NONE, 0, 0, 0, 0}))
        return -1;
    if (rows && heap_push(t, (pending){t->view.row[0].retained, 0, 0, rows}))
        return -1;
    while (t->heap_count > 0 && t->count <= limit)
        if (take_next(t))
            return -1;
    return add_more(t);
}

/* A top owner's field: the roots that name it, or the synthetic nodes
 * above it (V8), as `dominators` writes them. */
static void write_root_field(FILE *f, dom_roots *roots, const tree_node *n)
{
    char text[4096];
    size_t len = dom_roots_text(roots, n->node, n->via, text, sizeof text);
    report_json_cut(f, (lf_str){text, len}, REPORT_TREE_LABEL_MAX);
}

static void write_field(FILE *f, const lf_snapshot *s, lf_holders *h, uint32_t v)
{
    lf_holder hold = lf_holders_get(h, v);
    char text[1024];
    size_t len = hold.kind == LF_HOLDER_ROOT ? 0 : lf_snapshot_label_text(s, hold.kind, hold.label, text, sizeof text);
    report_json_cut(f, (lf_str){text, len < sizeof text ? len : sizeof text - 1}, REPORT_TREE_LABEL_MAX);
}

/* A string object's preview, as `dominators` shows it; null for others. */
static void write_value(FILE *f, const lf_snapshot *s, uint32_t v)
{
    char text[4 * CLI_PREVIEW_CHARS + 8], cell[4 * sizeof text + 48];
    size_t len;
    uint64_t chars;
    if (!lf_string_preview(s, v, CLI_PREVIEW_CHARS, text, sizeof text, &len, &chars)) {
        fputs("null", f);
        return;
    }
    uint64_t cut = chars > CLI_PREVIEW_CHARS ? chars - CLI_PREVIEW_CHARS : 0;
    report_json_str(f, cell, cli_escape_text(text, len, cut, cell, sizeof cell));
}

/* The rest of a row that stands for objects: the top, a class ("3,000 x
 * Session") or the rest ("12 more"). */
static void write_count_row(FILE *f, const lf_snapshot *s, const tree_node *n)
{
    char text[512], num[32];
    lf_str name = n->cls == LF_NODE_NONE ? (lf_str){"", 0} : lf_snapshot_class_name(s, n->cls);
    cli_count_text(num, sizeof num, n->kids);
    int len = n->parent == NO_PARENT    ? snprintf(text, sizeof text, "all reachable objects")
              : n->cls == LF_NODE_NONE ? snprintf(text, sizeof text, "%s more", num)
                                       : snprintf(text, sizeof text, "%s x %.*s%s", num,
                                                  (int)(name.len > 300 ? 300 : name.len), name.ptr,
                                                  n->entries ? " (entries)" : "");
    len = len < 0 ? 0 : len < (int)sizeof text ? len : (int)sizeof text - 1;
    report_json_str(f, text, (size_t)len);
    fprintf(f, ",\"\",null,%llu,null,%u,null,0,", (unsigned long long)n->retained,
            n->parent == NO_PARENT ? 0 : n->kids);
    if (n->cls == LF_NODE_NONE)
        fputs("null", f);
    else
        report_json_cut(f, name, REPORT_TREE_LABEL_MAX);
    putc(']', f);
}

/* [parent, label, field, shallow, retained, id, more, value, members, cls]:
 * more is the count a "more" node stands for, else 0; value a string's
 * preview; members 1 when the node's children are what a collection holds;
 * cls the class name of a "more" node of one class, else null. */
static int write_rows(FILE *f, tree *t)
{
    const lf_snapshot *s = t->s;
    lf_holders h;
    lf_holders_init(&h, s);
    dom_roots roots;
    dom_roots_init(&roots, s);
    for (size_t i = 0; i < t->count; i++)
        if (t->out[i].parent == 0 && t->out[i].node != LF_NODE_NONE && t->out[i].via == LF_NODE_NONE)
            dom_roots_expect(&roots, t->out[i].node);
    for (size_t i = 0; i < t->count; i++) {
        const tree_node *n = &t->out[i];
        fprintf(f, "%s\n[%d,", i ? "," : "", n->parent == NO_PARENT ? -1 : (int)n->parent);
        if (n->node == LF_NODE_NONE) {
            write_count_row(f, s, n);
            continue;
        }
        report_json_cut(f, lf_snapshot_object_label(s, n->node), REPORT_TREE_LABEL_MAX);
        putc(',', f);
        if (n->parent == 0)
            write_root_field(f, &roots, n);
        else
            write_field(f, s, &h, n->node);
        fprintf(f, ",%llu,%llu,", (unsigned long long)lf_snapshot_shallow(s, n->node),
                (unsigned long long)n->retained);
        report_json_id(f, s, n->node);
        fputs(",0,", f);
        write_value(f, s, n->node);
        fprintf(f, ",%d,null]", n->members);
    }
    int rc = dom_roots_failed(&roots) || lf_holders_failed(&h) ? -1 : 0;
    dom_roots_free(&roots);
    lf_holders_free(&h);
    return rc;
}

int report_write_tree(FILE *f, const lf_snapshot *s, uint32_t nodes)
{
    tree t = {.s = s, .min = lf_view_min(s)};
    int rc = build(&t, nodes);
    if (!rc) {
        fprintf(f, "{\"limit\":%u,\"rows\":[", nodes);
        rc = write_rows(f, &t);
        fputs("]}", f);
    }
    lf_big_free(t.out);
    lf_big_free(t.heap);
    lf_big_free(t.listed);
    lf_big_free(t.groups);
    lf_top_view_free(&t.view);
    return rc;
}
