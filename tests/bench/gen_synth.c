/* gen_synth.c - writes a synthetic heap of N objects as a leakfind snapshot,
 * shaped like a managed heap: class objects every instance points to, a few
 * thousand roots, hash maps (table, entries, keys, values), array lists,
 * binary trees with parent pointers, long linked chains, weak references and
 * a pool of shared objects; about 2.5 references per object.
 * With "ladder" for SEED: the shape that made Semi-NCA quadratic (issue 39,
 * see ladder below) instead.
 * usage: gen_synth OBJECTS OUT.lfs [SEED | ladder] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/lfs/lfs.h"
#include "../../core/model/strtab.h"

typedef struct gen_edge {
    uint32_t from, to;
    uint32_t label;
    uint8_t kind, weak;
} gen_edge;

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t bound)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return bound ? (uint32_t)((rng >> 11) % bound) : 0;
}

enum { C_CLASS, C_HASHMAP, C_NODE, C_STRING, C_BYTES, C_OBJARR, C_ARRAYLIST, C_TREE, C_CHAIN,
       C_WEAKREF, C_THREAD, C_VALUE0 };
#define VALUE_CLASSES 150

static uint32_t n_max, n_used;
static uint64_t *obj_id;
static uint32_t *obj_shallow; /* sizes in 4 bytes, the big ones in shallow_big */
static lf_size_table shallow_big;
static uint32_t *obj_class;
static gen_edge *edges;
static uint64_t edge_count, edge_cap;
static lf_root *roots;
static uint32_t root_count, root_cap;
static uint32_t class_node[C_VALUE0 + VALUE_CLASSES];
static uint64_t next_address = 0x700000000ull;
static uint32_t s_class, s_table, s_key, s_value, s_next, s_left, s_right, s_parent, s_elements,
    s_referent, s_ref, s_static, s_thread, s_sticky;

static uint32_t new_object(uint32_t cls, uint64_t shallow)
{
    if (n_used == n_max)
        return UINT32_MAX;
    uint32_t v = n_used++;
    obj_id[v] = next_address;
    next_address += (shallow + 7) & ~7ull;
    if (lf_size_store(obj_shallow, &shallow_big, v, shallow))
        abort();
    obj_class[v] = cls;
    return v;
}

static void edge(uint32_t from, uint32_t to, uint8_t kind, uint32_t label, int weak)
{
    if (from == UINT32_MAX || to == UINT32_MAX)
        return;
    if (edge_count == edge_cap) {
        edge_cap *= 2;
        edges = realloc(edges, edge_cap * sizeof *edges);
        if (!edges) {
            fprintf(stderr, "gen_synth: out of memory\n");
            exit(4);
        }
    }
    edges[edge_count++] = (gen_edge){from, to, label, kind, (uint8_t)weak};
}

static void root(uint32_t node, uint32_t kind, uint32_t name)
{
    if (root_count == root_cap) {
        root_cap *= 2;
        roots = realloc(roots, root_cap * sizeof *roots);
    }
    roots[root_count++] = (lf_root){node, kind, name, 0};
}

/* An instance: points to its class object, as HPROF instances do. */
static uint32_t instance(uint32_t cls, uint64_t shallow)
{
    uint32_t v = new_object(cls, shallow);
    edge(v, class_node[cls], LF_EDGE_KIND_INTERNAL, s_class, 0);
    return v;
}

static uint32_t recent(void)
{
    uint32_t window = n_used < 50000 ? n_used : 50000;
    return n_used - 1 - rnd(window);
}

/* Popular objects (enum constants, interned strings, singletons): a fixed pool
 * that many objects point at, as on a real heap. */
#define POPULAR 50000
static uint32_t popular[POPULAR];
static uint32_t popular_count;

static uint32_t shared_target(void)
{
    uint32_t p = rnd(100);
    if (p < 50 && popular_count)
        return popular[rnd(popular_count)];
    if (p < 95)
        return recent();
    return rnd(n_used); /* a far reference anywhere in the heap */
}

static uint32_t value_object(void)
{
    uint32_t v = instance(C_VALUE0 + rnd(VALUE_CLASSES), 16 + 8 * rnd(6));
    for (int k = 0; k < 2; k++) /* sharing and cycles */
        if (rnd(10) < 6 && n_used > 1)
            edge(v, shared_target(), LF_EDGE_KIND_FIELD, s_ref, 0);
    return v;
}

static uint32_t string_object(void)
{
    uint32_t str = instance(C_STRING, 24);
    uint32_t bytes = instance(C_BYTES, 16 + 8 * (1 + rnd(8)));
    edge(str, bytes, LF_EDGE_KIND_FIELD, s_value, 0);
    return str;
}

static uint32_t hash_map(uint32_t size)
{
    uint32_t map = instance(C_HASHMAP, 48);
    uint32_t cap = 16;
    while (cap < size * 4 / 3)
        cap *= 2;
    uint32_t table = instance(C_OBJARR, 16 + 4ull * cap);
    edge(map, table, LF_EDGE_KIND_FIELD, s_table, 0);
    uint32_t prev = UINT32_MAX;
    for (uint32_t i = 0; i < size; i++) {
        uint32_t node = instance(C_NODE, 32);
        if (prev != UINT32_MAX && rnd(8) == 0)
            edge(prev, node, LF_EDGE_KIND_FIELD, s_next, 0); /* a bucket chain */
        else
            edge(table, node, LF_EDGE_KIND_ELEMENT, rnd(cap), 0);
        edge(node, string_object(), LF_EDGE_KIND_FIELD, s_key, 0);
        edge(node, value_object(), LF_EDGE_KIND_FIELD, s_value, 0);
        prev = node;
    }
    return map;
}

static uint32_t array_list(uint32_t size)
{
    uint32_t list = instance(C_ARRAYLIST, 24);
    uint32_t arr = instance(C_OBJARR, 16 + 4ull * size);
    edge(list, arr, LF_EDGE_KIND_FIELD, s_elements, 0);
    for (uint32_t i = 0; i < size; i++)
        edge(arr, rnd(5) ? value_object() : string_object(), LF_EDGE_KIND_ELEMENT, i, 0);
    return list;
}

/* A heap-shaped binary tree: node i's parent is node (i-1)/2; the caller
 * links children and parent pointers once all nodes exist. */
static uint32_t tree(uint32_t size)
{
    uint32_t first = instance(C_TREE, 40);
    for (uint32_t i = 1; i < size; i++)
        instance(C_TREE, 40);
    return first;
}

static uint32_t chain(uint32_t length)
{
    uint32_t head = instance(C_CHAIN, 24), prev = head;
    for (uint32_t i = 1; i < length; i++) {
        uint32_t c = instance(C_CHAIN, 24);
        edge(prev, c, LF_EDGE_KIND_FIELD, s_next, 0);
        prev = c;
    }
    return head;
}

/* The ladder (issue 39): a rooted holder -> spine 0 -> spine 1 -> ... ->
 * spine k-1, each spine node -> its leaf, and the holder -> every leaf, the
 * spine edge first, as an OCaml module block holds its top-level closures
 * while each closure's environment holds the next. The DFS runs down the
 * spine and reaches leaf i from spine i; its semidominator is the holder,
 * i spine links up, and so is its idom. Semi-NCA climbed those i links for
 * every leaf: k^2/2 steps. */
static void ladder(uint32_t holder_name, uint32_t s_root)
{
    uint32_t holder = instance(C_VALUE0, 120);
    root(holder, s_root, holder_name);
    uint32_t k = (n_max - n_used) / 2;
    uint32_t spine = n_used;
    for (uint32_t i = 0; i < k; i++)
        instance(C_CHAIN, 24);
    uint32_t leaf = n_used;
    for (uint32_t i = 0; i < k; i++)
        instance(C_VALUE0 + 1, 32);
    if (k) /* first of the holder's fields: the DFS takes the spine first */
        edge(holder, spine, LF_EDGE_KIND_FIELD, s_next, 0);
    for (uint32_t i = 0; i < k; i++) {
        edge(holder, leaf + i, LF_EDGE_KIND_FIELD, s_ref, 0);
        if (i + 1 < k)
            edge(spine + i, spine + i + 1, LF_EDGE_KIND_FIELD, s_next, 0);
        edge(spine + i, leaf + i, LF_EDGE_KIND_FIELD, s_value, 0);
    }
    n_max = n_used; /* an odd object left over is not made */
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_synth OBJECTS OUT.lfs [SEED]\n");
        return 2;
    }
    n_max = (uint32_t)strtoul(argv[1], NULL, 10);
    int ladder_shape = argc > 3 && strcmp(argv[3], "ladder") == 0;
    if (argc > 3 && !ladder_shape)
        rng ^= strtoull(argv[3], NULL, 10) * 0x9e3779b97f4a7c15ull;
    obj_id = malloc((size_t)n_max * 8);
    obj_shallow = malloc((size_t)n_max * 4);
    obj_class = malloc((size_t)n_max * 4);
    edge_cap = (uint64_t)n_max * 5 / 2 + 1024;
    edges = malloc(edge_cap * sizeof *edges);
    root_cap = 1024;
    roots = malloc(root_cap * sizeof *roots);
    lf_strtab strings;
    lf_strtab_init(&strings);
#define STR(s) ((uint32_t)lf_strtab_intern(&strings, (s), strlen(s)))
    s_class = STR("<class>");
    s_table = STR("table");
    s_key = STR("key");
    s_value = STR("value");
    s_next = STR("next");
    s_left = STR("left");
    s_right = STR("right");
    s_parent = STR("parent");
    s_elements = STR("elementData");
    s_referent = STR("referent");
    s_ref = STR("ref");
    s_static = STR("static field");
    s_thread = STR("thread");
    s_sticky = STR("sticky class");
    static const char *base_names[] = {"java.lang.Class", "java.util.HashMap",
                                       "java.util.HashMap$Node", "java.lang.String", "byte[]",
                                       "java.lang.Object[]", "java.util.ArrayList",
                                       "com.example.TreeNode", "com.example.ChainLink",
                                       "java.lang.ref.WeakReference", "java.lang.Thread"};
    uint32_t class_count = C_VALUE0 + VALUE_CLASSES;
    uint32_t *class_name = malloc(class_count * sizeof *class_name);
    char name[64];
    for (uint32_t c = 0; c < class_count; c++) {
        if (c < C_VALUE0)
            class_name[c] = STR(base_names[c]);
        else {
            snprintf(name, sizeof name, "com.example.model.Value%u", c - C_VALUE0);
            class_name[c] = STR(name);
        }
    }
    for (uint32_t c = 0; c < class_count; c++) { /* class objects, rooted */
        class_node[c] = new_object(C_CLASS, 96 + 8 * rnd(20));
        root(class_node[c], s_sticky, class_name[c]);
    }
    if (ladder_shape)
        ladder(STR("Ladder.holder"), s_static);
    while (n_used < n_max) {
        uint32_t holder;
        if (rnd(100) < 2 || n_used < 1000) {
            holder = instance(rnd(2) ? C_THREAD : C_VALUE0 + rnd(VALUE_CLASSES), 120);
            snprintf(name, sizeof name, "Holder%u.field", root_count);
            root(holder, rnd(3) ? s_static : s_thread, STR(name));
        } else {
            holder = recent();
        }
        uint32_t made = UINT32_MAX, p = rnd(100);
        if (p < 35)
            made = hash_map(1 + rnd(rnd(10) ? 16 : 400));
        else if (p < 65)
            made = array_list(1 + rnd(rnd(10) ? 20 : 2000));
        else if (p < 80) {
            uint32_t size = 3 + rnd(200);
            uint32_t first = tree(size);
            for (uint32_t i = 1; first != UINT32_MAX && i < size && first + i < n_used; i++) {
                uint32_t parent = first + (i - 1) / 2;
                edge(parent, first + i, LF_EDGE_KIND_FIELD, i % 2 ? s_left : s_right, 0);
                edge(first + i, parent, LF_EDGE_KIND_FIELD, s_parent, 0);
            }
            made = first;
        } else if (p < 82)
            made = chain(1 + rnd(rnd(20) ? 2000 : 100000));
        else if (p < 90) {
            made = instance(C_WEAKREF, 32);
            edge(made, rnd(n_used), LF_EDGE_KIND_FIELD, s_referent, 1);
        } else
            made = value_object();
        edge(holder, made, LF_EDGE_KIND_FIELD, s_ref, 0);
    }
    /* edges -> CSR (counting sort by source; order within a node kept) */
    const uint32_t n = n_used;
    uint64_t *edge_offset = calloc((size_t)n + 1, 8);
    for (uint64_t e = 0; e < edge_count; e++)
        edge_offset[edges[e].from]++;
    lf_edge_counts_to_offsets((lf_edge_offsets_mut){NULL, edge_offset}, n);
    uint32_t *target = malloc(edge_count * 4 + 4), *label = malloc(edge_count * 4 + 4);
    uint8_t *kind = malloc(edge_count + 1);
    for (uint64_t e = 0; e < edge_count; e++) {
        uint64_t at = edge_offset[edges[e].from]++;
        target[at] = edges[e].to | (edges[e].weak ? LF_EDGE_WEAK : 0);
        label[at] = edges[e].label;
        kind[at] = edges[e].kind;
    }
    free(edges);
    for (uint32_t v = n; v > 0; v--)
        edge_offset[v] = edge_offset[v - 1];
    edge_offset[0] = 0;

    lf_snapshot s;
    memset(&s, 0, sizeof s);
    s.format = LF_FORMAT_LFS;
    s.source_format = LF_FORMAT_LFS;
    s.object_count = n;
    s.edge_count = edge_count;
    s.class_count = class_count;
    s.root_count = root_count;
    s.string_count = strings.count;
    s.object_id = obj_id;
    s.object_class = obj_class;
    s.object_shallow = lf_sizes_of(obj_shallow, &shallow_big);
    s.edge_offset.wide = edge_offset; /* the writer stores them narrow when they fit */
    s.edge_target = target;
    s.edge_label = label;
    s.edge_kind = kind;
    s.class_name = class_name;
    s.root = roots;
    s.string_offset = strings.offset;
    s.string_bytes = strings.bytes;
    lf_error err;
    if (lf_lfs_write(&s, argv[2], &err)) {
        char msg[400];
        lf_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "gen_synth: %s\n", msg);
        return 4;
    }
    printf("%u objects, %llu references (%.2f per object), %u roots\n", n,
           (unsigned long long)edge_count, (double)edge_count / n, root_count);
    return 0;
}
