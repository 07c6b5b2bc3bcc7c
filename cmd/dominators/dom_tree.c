/* dom_tree.c - the dominator tree, depth first from the top owners, with the
 * rows that stand for several objects: a group of top owners of one class,
 * and one summary per parent for the children --top and --min hide. */
#include "dom_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/collections.h"
#include "../../core/analysis/domview.h"
#include "../../core/analysis/holders.h"
#include "../../core/base/vec.h"
#include "../cli/cli.h"
#include "../cli/count_text.h"
#include "../cli/dom_roots.h"
#include "../cli/string_preview.h"
#include "../../core/base/bigmem.h"

const out_column dom_columns[DOM_COLUMN_COUNT] = {
    {"depth", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
    {"idom", OUT_ID, LF_CUT_END, OUT_OPTIONAL},
    {"shallow", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
    {"retained_pct", OUT_PCT, LF_CUT_END, OUT_SECONDARY},
    {"class", OUT_STR, LF_CUT_CLASS, OUT_KEY},
    {"field", OUT_STR, LF_CUT_PATH, OUT_NORMAL},
    {"hidden", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"group", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
    {"root", OUT_STR, LF_CUT_PATH, OUT_KEY},
    {"location", OUT_STR_SOMETIMES, LF_CUT_END, OUT_SECONDARY},
    {"value", OUT_STR_SOMETIMES, LF_CUT_END, OUT_SECONDARY},
};

enum { ITEM_OBJECT, ITEM_TOP_OBJECT, ITEM_GROUP, ITEM_SUMMARY, ITEM_CLASS_GROUP };

typedef struct item {
    uint32_t kind;
    uint32_t depth;
    uint32_t at;      /* object: node; top object: entry; group: row; summary: summary */
    uint32_t parent;  /* summary: the node whose children it stands for, or LF_NODE_NONE */
    uint32_t passed;  /* levels above it that cost no depth: backing stores, dominant children */
} item;

typedef struct walk {
    out_writer *w;
    const lf_snapshot *s;
    const dom_tree_options *o;
    double heap;
    lf_holders holders;
    dom_roots roots;
    lf_top_view view;
    item *stack;
    size_t depth, cap;
    lf_hidden_summary *sum;
    size_t sum_count, sum_cap;
    lf_class_group *groups;   /* ITEM_CLASS_GROUP rows */
    size_t group_count, group_cap;
} walk;

static int push(walk *k, item it)
{
    if (lf_vec_reserve((void **)&k->stack, &k->cap, k->depth + 1, sizeof *k->stack))
        return -1;
    k->stack[k->depth++] = it;
    return 0;
}

/* Whether rows at `depth` may have their children shown; `passed` levels
 * of it were backing stores, which do not count against --depth. */
static int expands(const walk *k, uint32_t depth, uint32_t passed)
{
    uint64_t limit = k->o->depth + (k->o->start != LF_NODE_SUPER);
    return k->o->depth == 0 || depth - passed + 1 < limit;
}

/* A V8 collection's backing store (a Map's or Set's "table", an object's
 * "elements"): one level between the collection and its entries that would
 * use up the default depth before the entries show (Map -> table ->
 * {sourceCode} -> SourceCode). */
static int backing_store(walk *k, uint32_t v)
{
    if (k->s->source_format != LF_FORMAT_V8)
        return 0;
    lf_holder h = lf_holders_get(&k->holders, v);
    if (h.kind != LF_EDGE_KIND_INTERNAL && h.kind != LF_EDGE_KIND_FIELD)
        return 0;
    lf_str label = lf_snapshot_string(k->s, h.label);
    return (label.len == 5 && memcmp(label.ptr, "table", 5) == 0) ||
           (label.len == 8 && memcmp(label.ptr, "elements", 8) == 0);
}

/* A child that retains nearly all of its parent is the one thing worth
 * looking at below it (configBus -> _events -> the listeners array): it
 * costs no depth, so the default depth reaches what it holds (issue 33).
 * Not along a chain of one class (a linked list would be walked to its
 * end), and at most LF_FREE_LEVELS such levels on one path. */
enum { LF_FREE_LEVELS = 8, LF_DOMINANT_PERMILLE = 900 };

static int dominant_child(const walk *k, uint32_t parent, uint32_t child, uint32_t passed)
{
    const lf_snapshot *s = k->s;
    if (parent == LF_NODE_SUPER || passed >= LF_FREE_LEVELS ||
        s->object_class[parent] == s->object_class[child])
        return 0;
    uint64_t whole = lf_snapshot_retained(s, parent), part = lf_snapshot_retained(s, child);
    return whole > 0 && part >= k->o->min && part * 1000 >= whole * LF_DOMINANT_PERMILLE;
}

static int shown_here(const walk *k, size_t rank, uint64_t retained)
{
    return (k->o->top == 0 || rank < k->o->top) && retained >= k->o->min;
}

/* Pushes a summary row (nothing when it stands for no object). */
static int push_summary(walk *k, const lf_hidden_summary *h, uint32_t depth, uint32_t parent)
{
    if (h->count == 0)
        return 0;
    if (lf_vec_reserve((void **)&k->sum, &k->sum_cap, k->sum_count + 1, sizeof *k->sum))
        return -1;
    k->sum[k->sum_count] = *h;
    return push(k, (item){ITEM_SUMMARY, depth, (uint32_t)k->sum_count++, parent, 0});
}

/* Pushes a summary of nodes[0 .. count). */
static int push_summary_of(walk *k, const uint32_t *nodes, size_t count, uint32_t depth,
                           uint32_t parent)
{
    lf_hidden_summary h;
    if (count == 0)
        return 0;
    return lf_summarize_hidden(k->s, nodes, count, &h) ? -1 : push_summary(k, &h, depth, parent);
}

static void write_sizes(walk *k, uint64_t shallow, uint64_t retained)
{
    out_bytes(k->w, shallow);
    out_bytes(k->w, retained);
    out_pct(k->w, 100.0 * (double)retained / k->heap);
}

static void write_object(walk *k, uint32_t v, uint32_t depth, const lf_top_entry *top)
{
    const lf_snapshot *s = k->s;
    out_u64(k->w, depth);
    cli_write_id(k->w, s, v);
    cli_write_id(k->w, s, s->idom[v]); /* super-root: null */
    write_sizes(k, lf_snapshot_shallow(s, v), lf_snapshot_retained(s, v));
    out_indent(k->w, depth);
    lf_str cls = lf_snapshot_object_label(s, v);
    out_str(k->w, cls.ptr, cls.len);
    if (top) { /* a top owner: no field, the roots that hold it in `root` */
        out_str(k->w, "", 0);
        out_null(k->w);
        out_null(k->w);
        dom_roots_write(&k->roots, k->w, top->node, top->via);
    } else {
        lf_holder h = lf_holders_get(&k->holders, v);
        cli_write_holder(k->w, s, h, v);
        if (h.kind == LF_HOLDER_ROOT) { /* --root on a rooted object */
            out_null(k->w);
            out_null(k->w);
            cli_write_holder_root(k->w, s, h);
        }
    }
    cli_write_place(k->w, s, v, DOM_COLUMN_LOCATION);
    cli_write_string_preview(k->w, s, v);
    out_row_end(k->w);
}

static void write_summary(walk *k, const item *it)
{
    const lf_hidden_summary *h = &k->sum[it->at];
    char text[1024], num[32];
    size_t n = 0;
    cli_count_text(num, sizeof num, h->count);
    n += (size_t)snprintf(text, sizeof text, "... %s more:", num);
    for (unsigned c = 0; c < LF_SUMMARY_CLASSES && c < h->class_count; c++) {
        lf_str name = lf_snapshot_class_name(k->s, h->cls[c]);
        cli_count_text(num, sizeof num, h->cls_count[c]);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s %s %.*s", c ? "," : "", num,
                              (int)(name.len > 200 ? 200 : name.len), name.ptr);
    }
    if (h->class_count > LF_SUMMARY_CLASSES)
        n += (size_t)snprintf(text + n, sizeof text - n, ", ...");
    out_u64(k->w, it->depth);
    out_null(k->w);
    if (it->parent == LF_NODE_NONE)
        out_null(k->w);
    else
        cli_write_id(k->w, k->s, it->parent);
    write_sizes(k, h->shallow, h->retained);
    out_indent(k->w, it->depth);
    out_str(k->w, text, n < sizeof text ? n : sizeof text - 1);
    out_str(k->w, "", 0);
    out_u64(k->w, h->count);
    out_row_end(k->w);
}

static void write_group(walk *k, const lf_top_row *r, uint32_t depth)
{
    char text[512], num[32];
    lf_str name = lf_snapshot_class_name(k->s, r->cls);
    cli_count_text(num, sizeof num, r->count);
    int n = snprintf(text, sizeof text, "%s x %.*s", num, (int)(name.len > 400 ? 400 : name.len),
                     name.ptr);
    out_u64(k->w, depth);
    out_null(k->w);
    out_null(k->w);
    write_sizes(k, r->shallow, r->retained);
    out_indent(k->w, depth);
    out_str(k->w, text, n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    out_str(k->w, "", 0);
    out_null(k->w);
    out_u64(k->w, r->count);
    out_row_end(k->w);
}

/* Below an array of references (a list's elementData, a map's table, a
 * JavaScript Array), what it holds, looking through the collection's
 * entries and bucket chains (issue 32): the keys and values that pass --top
 * and --min and stand out (lf_collection_shown), one row each (they can be
 * expanded), then the rest by class:
 * "29,990 x Session", "30,000 x java.util.HashMap$Node (entries)", for
 * classes of two or more that pass --min; a summary of what is left. Group
 * rows summarise: their members are not listed. */
static int expand_collection(walk *k, uint32_t v, uint32_t depth, uint32_t passed)
{
    const lf_snapshot *s = k->s;
    lf_collection_members m;
    if (lf_collection_members_of(s, v, &m))
        return -1;
    size_t shown = lf_collection_shown(s, &m, k->o->top, k->o->min);
    if (lf_group_payload(s, &m, shown)) {
        lf_collection_members_free(&m);
        return -1;
    }
    lf_hidden_summary rest = {0};
    size_t grouped = 0;
    while (grouped < m.group_count && m.group[grouped].count >= 2 && m.group[grouped].retained >= k->o->min)
        grouped++;
    for (size_t i = grouped; i < m.group_count; i++) {
        rest.count += m.group[i].count;
        rest.shallow += m.group[i].shallow;
        rest.retained += m.group[i].retained;
        lf_summary_add_class(&rest, m.group[i].cls, m.group[i].count);
    }
    int rc = push_summary(k, &rest, depth + 1, v);
    for (size_t i = grouped; i > 0 && !rc; i--) {
        if (lf_vec_reserve((void **)&k->groups, &k->group_cap, k->group_count + 1, sizeof *k->groups)) {
            rc = -1;
            break;
        }
        k->groups[k->group_count] = m.group[i - 1];
        rc = push(k, (item){ITEM_CLASS_GROUP, depth + 1, (uint32_t)k->group_count++, v, 0});
    }
    for (size_t i = shown; i > 0 && !rc; i--)
        rc = push(k, (item){ITEM_OBJECT, depth + 1, m.payload[i - 1], 0, passed});
    lf_collection_members_free(&m);
    return rc;
}

/* The children of v that pass --top and --min, then a summary of the rest. */
static int expand_object(walk *k, uint32_t v, uint32_t depth, uint32_t passed)
{
    const lf_snapshot *s = k->s;
    if (v != LF_NODE_SUPER && k->o->group && lf_holds_members(s, v))
        return expand_collection(k, v, depth, passed);
    uint32_t slot = v == LF_NODE_SUPER ? s->object_count : v;
    uint32_t begin = s->domtree_offset[slot], end = s->domtree_offset[slot + 1], shown = 0;
    /* children are largest first: the shown ones are a prefix */
    while (begin + shown < end &&
           shown_here(k, shown, lf_snapshot_retained(s, s->domtree_child[begin + shown])))
        shown++;
    if (push_summary_of(k, s->domtree_child + begin + shown, end - begin - shown, depth + 1, v))
        return -1;
    for (uint32_t i = shown; i > 0; i--)
    {
        uint32_t child = s->domtree_child[begin + i - 1];
        uint32_t free_level = backing_store(k, child) || dominant_child(k, v, child, passed);
        if (push(k, (item){ITEM_OBJECT, depth + 1, child, 0, passed + free_level}))
            return -1;
    }
    return 0;
}

/* A group's instances, largest first, up to --top whatever their size (the
 * group passed --min, its members are what to look at next), with a summary
 * of those not shown: the group's sums less the shown ones'. */
static int expand_group(walk *k, const lf_top_row *r, uint32_t depth)
{
    const lf_snapshot *s = k->s;
    lf_hidden_summary rest = {r->count - r->kept, r->shallow, r->retained, 1, {r->cls}, {r->count - r->kept}};
    for (uint32_t i = r->first; i < r->first + r->kept; i++) {
        rest.shallow -= lf_snapshot_shallow(s, k->view.entry[i].node);
        rest.retained -= lf_snapshot_retained(s, k->view.entry[i].node);
    }
    if (push_summary(k, &rest, depth + 1, LF_NODE_NONE))
        return -1;
    for (uint32_t i = r->kept; i > 0; i--)
        if (push(k, (item){ITEM_TOP_OBJECT, depth + 1, r->first + i - 1, 0, 0}))
            return -1;
    return 0;
}

/* The top level: the rows of the top view, then the summary of every
 * object in no row. */
static int expand_top(walk *k)
{
    const lf_top_view *v = &k->view;
    if (push_summary(k, &v->hidden, 0, LF_NODE_NONE))
        return -1;
    for (size_t i = v->row_count; i > 0; i--) {
        const lf_top_row *r = &v->row[i - 1];
        item it = r->count ? (item){ITEM_GROUP, 0, (uint32_t)(i - 1), 0, 0}
                           : (item){ITEM_TOP_OBJECT, 0, r->node, 0, 0};
        if (push(k, it))
            return -1;
    }
    return 0;
}

/* "300 x Session" below a collection; "300 x java.util.HashMap$Node
 * entries" for its own structure (their shallow bytes). */
static void write_class_group(walk *k, const item *it)
{
    const lf_class_group *g = &k->groups[it->at];
    char text[512], num[32];
    lf_str name = lf_snapshot_class_name(k->s, g->cls);
    cli_count_text(num, sizeof num, g->count);
    int n = snprintf(text, sizeof text, "%s x %.*s%s", num, (int)(name.len > 400 ? 400 : name.len), name.ptr,
                     g->structure ? " (entries)" : "");
    out_u64(k->w, it->depth);
    out_null(k->w);
    cli_write_id(k->w, k->s, it->parent);
    write_sizes(k, g->shallow, g->retained);
    out_indent(k->w, it->depth);
    out_str(k->w, text, n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
    out_str(k->w, "", 0);
    out_null(k->w);
    out_u64(k->w, g->count);
    out_row_end(k->w);
}

static int visit(walk *k, const item *it)
{
    switch (it->kind) {
    case ITEM_SUMMARY:
        write_summary(k, it);
        return 0;
    case ITEM_CLASS_GROUP:
        write_class_group(k, it);
        return 0;
    case ITEM_GROUP: {
        const lf_top_row *r = &k->view.row[it->at];
        write_group(k, r, it->depth);
        /* a group row summarises: its members would push the single owners
         * after it off the first screen (issue 33) */
        return k->o->members && expands(k, it->depth, it->passed) ? expand_group(k, r, it->depth) : 0;
    }
    default: {
        const lf_top_entry *top = it->kind == ITEM_TOP_OBJECT ? &k->view.entry[it->at] : NULL;
        uint32_t v = top ? top->node : it->at;
        write_object(k, v, it->depth, top);
        return expands(k, it->depth, it->passed) ? expand_object(k, v, it->depth, it->passed) : 0;
    }
    }
}

int dom_show_tree(out_writer *w, const lf_snapshot *s, const dom_tree_options *o)
{
    walk k = {.w = w, .s = s, .o = o};
    k.heap = s->reachable_shallow ? (double)s->reachable_shallow : 1.0;
    lf_holders_init(&k.holders, s);
    dom_roots_init(&k.roots, s);
    int rc;
    if (o->start == LF_NODE_SUPER) {
        rc = lf_top_view_build(s, 1, o->group, o->top, o->min, &k.view);
        for (size_t i = 0; !rc && i < k.view.entry_count; i++)
            if (k.view.entry[i].via == LF_NODE_NONE)
                dom_roots_expect(&k.roots, k.view.entry[i].node);
        if (!rc)
            rc = expand_top(&k);
    } else {
        rc = push(&k, (item){ITEM_OBJECT, 0, o->start, 0, 0});
    }
    while (!rc && k.depth > 0) {
        item it = k.stack[--k.depth];
        rc = visit(&k, &it);
    }
    lf_big_free(k.stack);
    lf_big_free(k.sum);
    lf_big_free(k.groups);
    lf_top_view_free(&k.view);
    if (!rc && (dom_roots_failed(&k.roots) || lf_holders_failed(&k.holders)))
        rc = -1; /* a field written short */
    dom_roots_free(&k.roots);
    lf_holders_free(&k.holders);
    return rc;
}
