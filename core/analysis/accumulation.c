/* accumulation.c - where a finding's memory spreads out and what piles up
 * there (accumulation.h). */
#include "accumulation.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "class_kinds.h"
#include "collections.h"
#include "dotnet_entries.h"
#include "paired_table.h"
#include "v8_table.h"
#include "../base/bigmem.h"
#include "../base/vec.h"

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
uint32_t lf_accumulation_descend(const lf_snapshot *s, uint32_t node)
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
    uint32_t d = s->idom[v];
    return (lf_class_kind(s, s->object_class[v]) & CLASS_STRUCT_ENTRIES) ||
           (d < s->object_count && s->object_class[d] < s->class_count &&
            (lf_class_kind(s, s->object_class[d]) & CLASS_PAIRED_TABLE));
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

/* One entry of a table, its key and value (LF_NODE_NONE: none), retaining
 * what of the two the table alone holds, of the class of its value, or of
 * its key when it has none, or (owned_first) when only the key is the
 * table's alone. */
static int add_pair(const lf_snapshot *s, uint32_t table, uint32_t key, uint32_t value, int owned_first,
                    class_list *c)
{
    int own_key = key != LF_NODE_NONE && s->idom[key] == table;
    int own_value = value != LF_NODE_NONE && s->idom[value] == table;
    uint32_t content = owned_first && !own_value && own_key ? key : value != LF_NODE_NONE ? value : key;
    uint64_t bytes = (own_key ? lf_snapshot_retained(s, key) : 0) + (own_value ? lf_snapshot_retained(s, value) : 0);
    if (content == LF_NODE_NONE)
        return 0;
    return add_item(s, c, s->object_class[content], bytes, 1, LF_ACC_ENTRIES, own_key || own_value);
}

/* The entries of a V8 Map's or Set's table: a key and its value are one
 * entry, of the class of its value (its key's in a set, or when only the
 * key is the table's alone). */
static int add_v8_entries(const lf_snapshot *s, uint32_t table, int keys_only, class_list *c)
{
    lf_v8_table_walk w;
    uint32_t key, value;
    lf_v8_table_begin(&w, s, table, keys_only);
    while (lf_v8_table_next(&w, &key, &value))
        if (add_pair(s, table, key < s->object_count ? key : LF_NODE_NONE, /* a small integer, or dangling */
                     value < s->object_count ? value : LF_NODE_NONE, 1, c))
            return -1;
    return 0;
}

/* A .NET Dictionary's or HashSet's entries (dotnet_entries.h): a key and
 * its value are one entry, of the class of its value (its key's when it has
 * none). */
static int add_dotnet_entries(const lf_snapshot *s, uint32_t array, lf_dotnet_entries_walk *w, class_list *c)
{
    uint32_t key, value;
    while (lf_dotnet_entries_next(w, &key, &value))
        if (add_pair(s, array, key, value, 0, c))
            return -1;
    return 0;
}

/* A JVM table of keys and values side by side (paired_table.h): a key and
 * its value are one entry, of the class of its value (its key's when it
 * has none). */
static int add_paired_entries(const lf_snapshot *s, uint32_t table, lf_paired_table_walk *w, class_list *c)
{
    uint32_t key, value;
    int rc = 0;
    while (rc == 0 && lf_paired_table_next(w, &key, &value))
        rc = add_pair(s, table, key, value, 0, c);
    lf_paired_table_end(w);
    return rc;
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

/* The entries of an array that holds keys and values side by side (a .NET
 * Dictionary's entry structs, a JVM map's paired table) into c: 0 when
 * added, 1 when array is none, -1 out of memory. */
static int add_side_by_side(const lf_snapshot *s, uint32_t array, class_list *c)
{
    lf_dotnet_entries_walk pairs;
    if (lf_dotnet_entries_begin(&pairs, s, array) == 0)
        return add_dotnet_entries(s, array, &pairs, c) ? -1 : 0;
    lf_paired_table_walk table;
    int rc = lf_paired_table_begin(&table, s, array);
    return rc != 0 ? rc : add_paired_entries(s, array, &table, c) ? -1 : 0;
}

/* A backing store below the point (a V8 Map's table, whose size went to
 * the Map): its children are the collection's entries. */
static int add_entries(const lf_snapshot *s, uint32_t point, uint32_t store, class_list *c)
{
    int keys_only;
    if (lf_v8_collection_table(s, point, &keys_only) == store)
        return add_v8_entries(s, store, keys_only, c);
    int rc = add_side_by_side(s, store, c);
    if (rc <= 0)
        return rc;
    rc = 0;
    element_set elements = elements_of(s, store);
    for (uint32_t i = s->domtree_offset[store]; i < s->domtree_offset[store + 1] && rc == 0; i++)
        rc = add_entry(s, store, s->domtree_child[i], 0, &elements, c);
    elements_free(&elements);
    return rc;
}

/* The point's members into list: a tree map's root entry, it and the
 * entries below it; a V8 Map's or Set's table, or an array of keys and
 * values side by side, its entries; a V8 dictionary, its values and keys;
 * else its children that retain less than `apart`. 0 or -1 (memory). */
static int members_of(const lf_snapshot *s, uint32_t point, uint64_t apart, class_list *list)
{
    uint32_t first = s->domtree_offset[point], end = s->domtree_offset[point + 1];
    int entry = lf_entry_shape(s, point), keys_only;
    uint32_t d = s->idom[point];
    int table = d < s->object_count && lf_v8_collection_table(s, d, &keys_only) == point;
    if (entry != LF_ENTRY_NONE)
        return add_links(s, point, entry, list);
    if (table)
        return add_v8_entries(s, point, keys_only, list);
    int rc = add_side_by_side(s, point, list);
    if (rc <= 0)
        return rc;
    rc = 0;
    element_set elements = elements_of(s, point);
    int dictionary = lf_is_v8_dictionary(s, point);
    for (uint32_t i = first; i < end && rc == 0; i++) {
        uint32_t child = s->domtree_child[i];
        if (lf_snapshot_retained(s, child) >= apart)
            continue;
        if (dictionary)
            rc = add_dictionary_member(s, child, list);
        else
            rc = lf_is_backing_store(s, child) ? add_entries(s, point, child, list)
                                               : add_entry(s, point, child, i == first, &elements, list);
    }
    elements_free(&elements);
    return rc;
}

/* The group of the members (sorted by class name) that retains the most
 * into acc (ties: more members, smaller class): one group per class name;
 * a map's entries, an array's elements: one group, named by the class
 * whose members retain the most. */
static void largest_group(const class_bytes *c, size_t n, lf_accumulation *acc)
{
    acc->cls = LF_NODE_NONE;
    acc->count = acc->bytes = 0;
    acc->entries = 0;
    acc->others = 0;
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t bytes = 0, count = 0, named_bytes = 0;
        uint32_t named = c[i].cls, names = 0;
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
}

/* What accumulates at a point that heads no chain: its members
 * (members_of), grouped by class name (largest_group). A child heading a
 * chain of its class (a bucket chain, a subtree of a tree map whose root
 * is the point) counts every link: entries, not buckets. */
static int spread_below(const lf_snapshot *s, lf_accumulation *acc, uint64_t apart)
{
    class_list list = {NULL, 0, 0, NULL, 0};
    int rc = members_of(s, acc->point, apart, &list);
    lf_big_free(list.stack);
    if (rc) {
        lf_big_free(list.item);
        return -1;
    }
    if (list.count)
        qsort(list.item, list.count, sizeof *list.item, by_class_name);
    largest_group(list.item, list.count, acc);
    lf_big_free(list.item);
    return 0;
}

/* chain_below, asked of the memo first. */
int lf_accumulation_chain(const lf_snapshot *s, lf_accumulation_memo *memo, lf_accumulation *acc)
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
int lf_accumulation_spread(const lf_snapshot *s, lf_accumulation_memo *memo, lf_accumulation *acc, uint64_t apart)
{
    acc->entries = 0;
    acc->others = 0;
    if (lf_accumulation_chain(s, memo, acc) || lf_accumulation_memo_get(memo, acc->point, apart, acc))
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
void lf_accumulation_as_collection(const lf_snapshot *s, uint32_t node, lf_accumulation *acc)
{
    while (acc->point != node && s->idom[acc->point] < s->object_count &&
           (lf_is_backing_store(s, acc->point) || lf_is_runtime_entry(s, acc->point)))
        acc->point = s->idom[acc->point];
}

int lf_accumulation_find(const lf_snapshot *s, lf_accumulation_memo *memo, uint32_t node, lf_accumulation *acc,
                         lf_error *err)
{
    acc->point = lf_accumulation_descend(s, node);
    if (lf_accumulation_spread(s, memo, acc, UINT64_MAX))
        return lf_fail_nomem(err, "accumulation point");
    lf_accumulation_as_collection(s, node, acc);
    return 0;
}
