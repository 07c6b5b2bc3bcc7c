/* suspects.c - size findings, accumulation points and paths (see suspects.h). */
#include "suspects.h"

#include <Judy.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accumulation_memo.h"
#include "class_kinds.h"
#include "collections.h"
#include "v8_table.h"
#include "domview.h"
#include "owners.h"
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

/* The child of node that holds the memory on, or LF_NODE_NONE: the largest
 * child (children are listed largest first) when it holds at least
 * LF_SUSPECT_DESCEND of node. */
static uint32_t main_child(const lf_snapshot *s, uint32_t node)
{
    uint32_t first = s->domtree_offset[node], end = s->domtree_offset[node + 1];
    if (first == end)
        return LF_NODE_NONE;
    uint32_t child = s->domtree_child[first];
    double share = LF_SUSPECT_DESCEND * (double)lf_snapshot_retained(s, node);
    return (double)lf_snapshot_retained(s, child) < share ? LF_NODE_NONE : child;
}

/* Walks down from node while one child holds most of it. A chain of one
 * class (a linked list, each link dominating the rest) stops at its head:
 * the memory accumulates along the chain, not at its end. */
static uint32_t descend(const lf_snapshot *s, uint32_t node)
{
    for (uint32_t child; (child = main_child(s, node)) != LF_NODE_NONE; node = child)
        if (s->object_class[child] == s->object_class[node])
            return node;
    return node;
}

/* node and the objects of its class below it, each held (in the dominator
 * tree) by one of them: the links of a chain, or the entries of a tree map
 * or a bucket chain that node heads. 0 when out of memory. */
static uint64_t chain_links(const lf_snapshot *s, uint32_t node)
{
    size_t depth = 0, cap = 0;
    uint32_t *stack = NULL;
    uint64_t links = 0;
    if (lf_vec_reserve((void **)&stack, &cap, 1, sizeof *stack))
        return 0;
    stack[depth++] = node;
    while (depth > 0) {
        uint32_t v = stack[--depth];
        links++;
        for (uint32_t i = s->domtree_offset[v]; i < s->domtree_offset[v + 1]; i++) {
            uint32_t child = s->domtree_child[i];
            if (!lf_same_class_as_dominator(s, child, v))
                continue;
            if (lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack)) {
                links = 0;
                depth = 0;
                break;
            }
            stack[depth++] = child;
        }
    }
    lf_big_free(stack);
    return links;
}

/* A chain's head: the links below it (their count, the class, what the
 * first retains). Returns 0 when point heads no chain. */
static int chain_below(const lf_snapshot *s, lf_accumulation *acc)
{
    uint32_t cls = s->object_class[acc->point], link = main_child(s, acc->point);
    /* a runtime collection's entries are counted as entries (spread_below) */
    if (link == LF_NODE_NONE || s->object_class[link] != cls || lf_is_runtime_entry(s, acc->point))
        return 0;
    acc->cls = cls;
    acc->bytes = lf_snapshot_retained(s, link);
    /* every link below, however short the tail, and a tree's every branch */
    acc->count = chain_links(s, acc->point) - 1;
    return 1;
}

static int tree_bin(const lf_snapshot *s, uint32_t v)
{
    lf_str name = lf_snapshot_class_name(s, s->object_class[v]);
    return name.len >= 8 && memcmp(name.ptr + name.len - 8, "$TreeBin", 8) == 0;
}

typedef struct class_bytes {
    uint32_t name;            /* the class's name: 500 loaders' Plugin are one */
    uint32_t cls;
    uint64_t bytes, count;
    uint8_t entries;          /* map entries, by the class of what they hold */
    uint8_t holding;          /* entries: each holds something alone (named by it) */
} class_bytes;

static int by_class_name(const void *pa, const void *pb)
{
    const class_bytes *a = pa, *b = pb;
    if (a->entries != b->entries)
        return a->entries < b->entries ? -1 : 1;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* Adds child of point to c[n]: its class name, what it retains, and its
 * entries (chain_links; a tree map's root entry, when it is the point and
 * first is set, is one of them too). Returns 0 or -1 (memory). */
typedef struct class_list {
    class_bytes *item;
    size_t count, cap;
    uint64_t *stack;          /* add_links' walk, kept for the next bucket */
    size_t stack_cap;
} class_list;

static int add_item(const lf_snapshot *s, class_list *c, uint32_t cls, uint64_t bytes, uint64_t count, int entries,
                    int holding)
{
    /* a map's entries come class by class, mostly: one item a run */
    class_bytes *last = c->count ? &c->item[c->count - 1] : NULL;
    if (last && last->cls == cls && last->entries == (uint8_t)entries && last->holding == (uint8_t)holding) {
        last->bytes += bytes;
        last->count += count;
        return 0;
    }
    if (lf_vec_reserve((void **)&c->item, &c->cap, c->count + 1, sizeof *c->item))
        return -1;
    c->item[c->count++] =
        (class_bytes){cls < s->class_count ? s->class_name[cls] : UINT32_MAX, cls, bytes, count, (uint8_t)entries,
                      (uint8_t)holding};
    return 0;
}

/* A map's entry below the point and the entries chained below it (a
 * bucket's, a tree bin's or a tree map's), each as one item: the class of
 * what it holds (lf_entry_content; its own when it holds nothing alone)
 * and the bytes it retains without the entries below it. */
static int add_links(const lf_snapshot *s, uint32_t head, int head_shape, class_list *c)
{
    size_t depth = 0;
    uint32_t bin_cls = UINT32_MAX; /* the last class asked whether it is a tree bin */
    int bin = 0;
    /* each link with its kind of entry (lf_entry_shape), a link of its
     * dominator's class being its dominator's kind */
    int rc = lf_vec_reserve((void **)&c->stack, &c->stack_cap, 1, sizeof *c->stack);
    if (rc == 0)
        c->stack[depth++] = (uint64_t)head_shape << 32 | head;
    while (depth > 0 && rc == 0) {
        uint32_t v = (uint32_t)c->stack[--depth];
        int shape = (int)(c->stack[depth] >> 32);
        uint64_t own = lf_snapshot_retained(s, v);
        for (uint32_t i = s->domtree_offset[v]; i < s->domtree_offset[v + 1] && rc == 0; i++) {
            uint32_t child = s->domtree_child[i];
            /* an OCaml cell's next is of its class: its key and data are no entries */
            int same = lf_same_class_as_dominator(s, child, v);
            int child_shape = same || shape == LF_ENTRY_BUCKET || shape == LF_ENTRY_LIST ? shape
                                                                                        : lf_entry_shape(s, child);
            if (!same && (child_shape == LF_ENTRY_NONE || shape != LF_ENTRY_FIELDS))
                continue; /* its key, its value */
            own -= lf_snapshot_retained(s, child);
            if ((rc = lf_vec_reserve((void **)&c->stack, &c->stack_cap, depth + 1, sizeof *c->stack)) == 0)
                c->stack[depth++] = (uint64_t)child_shape << 32 | child;
        }
        uint32_t content = lf_entry_content_of(s, v, shape);
        if (s->object_class[v] != bin_cls)
            bin_cls = s->object_class[v], bin = tree_bin(s, v);
        if (rc == 0) /* a tree bin holds entries and is none */
            rc = add_item(s, c, s->object_class[content != LF_NODE_NONE ? content : v], own, !bin, LF_ACC_ENTRIES,
                          content != LF_NODE_NONE);
    }
    return rc;
}

/* The nodes an array references itself, its elements, made when first
 * asked (a map's table, whose children are its entries, never is): an
 * object that several elements share is dominated by the array too, and is
 * none of them. */
typedef struct element_set {
    uint32_t array;           /* LF_NODE_NONE: no array, no elements */
    int made, failed;
    Pvoid_t set;              /* Judy1 of nodes */
} element_set;

/* Whether array v holds keys and values side by side: a .NET Dictionary's
 * entry structs, the table of a JVM map that keeps no entry objects. */
static int keys_and_values(const lf_snapshot *s, uint32_t v)
{
    static const char *const maps[] = {"java.util.IdentityHashMap", "java.util.ImmutableCollections$MapN",
                                       "clojure.lang.PersistentArrayMap"};
    if (lf_class_kind(s, s->object_class[v]) & CLASS_STRUCT_ENTRIES)
        return 1;
    uint32_t d = s->idom[v];
    if (d >= s->object_count || s->object_class[d] >= s->class_count)
        return 0;
    lf_str name = lf_snapshot_class_name(s, s->object_class[d]);
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        if (lf_name_is(name, maps[i]))
            return 1;
    return 0;
}

static element_set elements_of(const lf_snapshot *s, uint32_t v)
{
    /* keys and values side by side: their classes are grouped one by one */
    int array = lf_is_reference_array(s, v) && !keys_and_values(s, v);
    return (element_set){array ? v : LF_NODE_NONE, 0, 0, NULL};
}

static int is_element(const lf_snapshot *s, element_set *x, uint32_t child)
{
    int set = 0;
    if (x->array == LF_NODE_NONE)
        return 0;
    for (uint64_t e = lf_snapshot_edges_begin(s, x->array); !x->made && e < lf_snapshot_edges_end(s, x->array); e++) {
        J1S(set, x->set, (Word_t)lf_edge_node(s->edge_target[e]));
        x->failed |= set == JERR;
    }
    x->made = 1;
    J1T(set, x->set, (Word_t)child);
    return set;
}

static void elements_free(element_set *x)
{
    Word_t freed;
    J1FA(freed, x->set);
    (void)freed;
}

/* A child of the point: a map's entry, else a group of its class, or when
 * it is one of the elements in one group of every class (LF_ACC_ELEMENTS). */
static int add_entry(const lf_snapshot *s, uint32_t point, uint32_t child, int first, element_set *elements,
                     class_list *c)
{
    int shape = lf_entry_shape(s, child);
    if (shape != LF_ENTRY_NONE)
        return add_links(s, child, shape, c);
    uint64_t links = chain_links(s, child);
    if (links == 0)
        return -1;
    links += lf_same_class_as_dominator(s, child, point) && first;
    /* an Array's own shape and internal arrays are none of its elements */
    int element = !lf_is_v8_machinery(s, s->object_class[child]) && is_element(s, elements, child);
    if (elements->failed)
        return -1;
    return add_item(s, c, s->object_class[child], lf_snapshot_retained(s, child), links,
                    element ? LF_ACC_ELEMENTS : LF_ACC_CHILDREN, element);
}

/* The entries of a V8 Map's or Set's table: a key and its value are one
 * entry, of the class of its value (its key's in a set, or when only the
 * key is the table's alone), retaining what of the two the table alone
 * holds. */
static int add_v8_entries(const lf_snapshot *s, uint32_t table, int keys_only, class_list *c)
{
    lf_v8_table_walk w;
    uint32_t key, value;
    lf_v8_table_begin(&w, s, table, keys_only);
    while (lf_v8_table_next(&w, &key, &value)) {
        if (key >= s->object_count)
            key = LF_NODE_NONE; /* a small integer, or dangling */
        if (value >= s->object_count)
            value = LF_NODE_NONE;
        int own_key = key != LF_NODE_NONE && s->idom[key] == table;
        int own_value = value != LF_NODE_NONE && s->idom[value] == table;
        uint32_t content = own_value ? value : own_key ? key : value != LF_NODE_NONE ? value : key;
        uint64_t bytes =
            (own_key ? lf_snapshot_retained(s, key) : 0) + (own_value ? lf_snapshot_retained(s, value) : 0);
        if (content != LF_NODE_NONE &&
            add_item(s, c, s->object_class[content], bytes, 1, LF_ACC_ENTRIES, own_key || own_value))
            return -1;
    }
    return 0;
}

/* A V8 object used as a dictionary: each value it holds alone is an entry
 * (its property's name is the key), and the key strings in its properties
 * store add their bytes to the entries (no count, no class of their own). */
static int add_dictionary_member(const lf_snapshot *s, uint32_t child, class_list *c)
{
    int store = lf_is_backing_store(s, child);
    if (!store && lf_is_v8_machinery(s, s->object_class[child]))
        return add_item(s, c, s->object_class[child], lf_snapshot_retained(s, child), 1, LF_ACC_CHILDREN, 0);
    if (!store)
        return add_item(s, c, s->object_class[child], lf_snapshot_retained(s, child), 1, LF_ACC_ENTRIES, 1);
    for (uint32_t i = s->domtree_offset[child]; i < s->domtree_offset[child + 1]; i++) {
        uint32_t key = s->domtree_child[i];
        if (add_item(s, c, s->object_class[key], lf_snapshot_retained(s, key), 0, LF_ACC_ENTRIES, 0))
            return -1;
    }
    return 0;
}

/* A backing store below the point (a V8 Map's table, whose size went to
 * the Map): its children are the collection's entries. */
static int add_entries(const lf_snapshot *s, uint32_t point, uint32_t store, class_list *c)
{
    int keys_only;
    if (lf_v8_collection_table(s, point, &keys_only) == store)
        return add_v8_entries(s, store, keys_only, c);
    int rc = 0;
    element_set elements = elements_of(s, store);
    for (uint32_t i = s->domtree_offset[store]; i < s->domtree_offset[store + 1] && rc == 0; i++)
        rc = add_entry(s, store, s->domtree_child[i], 0, &elements, c);
    elements_free(&elements);
    return rc;
}

/* What accumulates at a point that heads no chain: its
 * children that retain less than `apart` (the others are findings of their
 * own), grouped by class name; the class whose children retain the most
 * (ties: more children, smaller class). A child heading a chain of its class
 * (a bucket chain, a subtree of a tree map whose root is the point) counts
 * every link: entries, not buckets. */
static int spread_below(const lf_snapshot *s, lf_accumulation *acc, uint64_t apart)
{
    uint32_t first = s->domtree_offset[acc->point], end = s->domtree_offset[acc->point + 1];
    class_list list = {NULL, 0, 0, NULL, 0};
    /* a tree map's root entry: it and the entries below it; a V8 Map's
     * or Set's table: its entries; a V8 dictionary: its values and keys */
    int rc = 0, entry = lf_entry_shape(s, acc->point), keys_only;
    uint32_t d = s->idom[acc->point];
    int table = d < s->object_count && lf_v8_collection_table(s, d, &keys_only) == acc->point;
    element_set elements = elements_of(s, acc->point);
    int dictionary = entry == LF_ENTRY_NONE && !table && lf_is_v8_dictionary(s, acc->point);
    if (entry != LF_ENTRY_NONE)
        rc = add_links(s, acc->point, entry, &list);
    else if (table)
        rc = add_v8_entries(s, acc->point, keys_only, &list);
    for (uint32_t i = first; i < end && entry == LF_ENTRY_NONE && !table && rc == 0; i++) {
        uint32_t child = s->domtree_child[i];
        if (lf_snapshot_retained(s, child) >= apart)
            continue;
        if (dictionary)
            rc = add_dictionary_member(s, child, &list);
        else
            rc = lf_is_backing_store(s, child) ? add_entries(s, acc->point, child, &list)
                                               : add_entry(s, acc->point, child, i == first, &elements, &list);
    }
    elements_free(&elements);
    lf_big_free(list.stack);
    if (rc) {
        lf_big_free(list.item);
        return -1;
    }
    class_bytes *c = list.item;
    size_t n = list.count;
    if (n)
        qsort(c, n, sizeof *c, by_class_name);
    acc->cls = LF_NODE_NONE;
    acc->count = acc->bytes = 0;
    acc->entries = 0;
    acc->others = 0;
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t bytes = 0, count = 0, named_bytes = 0;
        uint32_t named = c[i].cls, names = 0;
        /* other children: one group per class name; a map's entries, an
         * array's elements: one group, named by the class whose members
         * retain the most */
        for (j = i; j < n && c[j].entries == c[i].entries && (c[i].entries || c[j].name == c[i].name);) {
            uint64_t of_name = 0, of_count = 0, held = 0;
            size_t k = j;
            for (; k < n && c[k].entries == c[j].entries && c[k].name == c[j].name; k++) {
                of_name += c[k].bytes;
                of_count += c[k].count;
                held += c[k].holding ? c[k].count : 0;
            }
            if (of_name > named_bytes)
                named_bytes = of_name, named = c[j].cls;
            bytes += of_name;
            count += of_count;
            /* a class other entries hold; not an entry's own, holding
             * nothing alone (a tree bin; a value held elsewhere too) */
            names += held > 0;
            j = k;
        }
        if (acc->cls == LF_NODE_NONE || bytes > acc->bytes || (bytes == acc->bytes && count > acc->count)) {
            acc->cls = named;
            acc->count = count;
            acc->bytes = bytes;
            acc->entries = c[i].entries;
            acc->others = c[i].entries && names > 1 ? names - 1 : 0;
        }
    }
    lf_big_free(c);
    return 0;
}

/* chain_below, asked of the memo first. */
static int chain_at(const lf_snapshot *s, lf_accumulation_memo *memo, lf_accumulation *acc)
{
    if (lf_accumulation_memo_get(memo, acc->point, LF_MEMO_CHAIN, acc))
        return 1;
    if (!chain_below(s, acc))
        return 0;
    lf_accumulation_memo_put(memo, LF_MEMO_CHAIN, acc);
    return 1;
}

/* What accumulates at acc->point: the chain it heads, else what spreads
 * out below it (spread_below), asked of the memo first. */
static int what_accumulates(const lf_snapshot *s, lf_accumulation_memo *memo, lf_accumulation *acc, uint64_t apart)
{
    acc->entries = 0;
    acc->others = 0;
    if (chain_at(s, memo, acc) || lf_accumulation_memo_get(memo, acc->point, apart, acc))
        return 0;
    if (spread_below(s, acc, apart))
        return -1;
    lf_accumulation_memo_put(memo, apart, acc);
    return 0;
}

/* The point as a person names it: a collection's backing store (a
 * HashMap's table, an ArrayList's elementData) is its collection, up to
 * the finding's own node (DESIGN 13). What accumulates was found at the
 * store, whose children are the entries. */
static void as_collection(const lf_snapshot *s, uint32_t node, lf_accumulation *acc)
{
    while (acc->point != node && s->idom[acc->point] < s->object_count &&
           (lf_is_backing_store(s, acc->point) || lf_is_runtime_entry(s, acc->point)))
        acc->point = s->idom[acc->point];
}

int lf_accumulation_find(const lf_snapshot *s, lf_accumulation_memo *memo, uint32_t node, lf_accumulation *acc,
                         lf_error *err)
{
    acc->point = descend(s, node);
    if (what_accumulates(s, memo, acc, UINT64_MAX))
        return lf_fail_nomem(err, "accumulation point");
    as_collection(s, node, acc);
    return 0;
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

/* One candidate of the size findings: its accumulation point, the children
 * there that are candidates of their own (pushed on the stack), and the
 * finding when what is left still retains at least t. Children that are
 * alike are no candidates: the point holds them, and is the finding. */
static int examine(const lf_snapshot *s, lf_accumulation_memo *memo, lf_holders *holders, uint32_t node, uint64_t t,
                   lf_suspect_list *list, uint32_t **stack, size_t *depth, size_t *cap)
{
    lf_suspect f = {.kind = LF_SUSPECT_OBJECT, .node = node, .cls = s->object_class[node], .instances = 1,
                    .retained = lf_snapshot_retained(s, node), .holder_row = -1};
    f.acc.point = descend(s, node);
    if (chain_at(s, memo, &f.acc)) {
        as_collection(s, node, &f.acc); /* a LinkedList's first node: the list */
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
        if (lf_vec_reserve((void **)stack, cap, *depth + 1, sizeof **stack))
            return -1;
        (*stack)[(*depth)++] = child;
        apart += lf_snapshot_retained(s, child);
    }
    size_t pushed = *depth - below;
    if (alike(s, holders, *stack + below, pushed)) {
        *depth = below;
        apart = 0;
    }
    if (apart > 0 && f.retained - apart < t)
        return 0;
    if (what_accumulates(s, memo, &f.acc, apart > 0 ? t : UINT64_MAX))
        return -1;
    as_collection(s, node, &f.acc);
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
        if (lf_vec_reserve((void **)&stack, &cap, depth + 1, sizeof *stack))
            rc = -1;
        else
            stack[depth++] = node;
    }
    lf_holders holders; /* a few questions: answered one by one */
    lf_holders_init(&holders, s);
    while (depth > 0 && !rc)
        rc = examine(s, memo, &holders, stack[--depth], t, list, &stack, &depth, &cap);
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
