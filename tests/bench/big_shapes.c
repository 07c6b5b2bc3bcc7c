/* big_shapes.c - BigHeap's object shapes, planned then written. */
#include "big_shapes.h"

#include <stdio.h>
#include <string.h>

#define MAX_MAP BIG_PLANTED_MAX
#define MAX_TABLE 8192
#define MAX_LIST 2001
#define MAX_TREE 202

typedef struct str_plan {
    uint64_t id, bytes_id;
    uint32_t len;
    char text[12];
} str_plan;

typedef struct value_plan {
    uint64_t id, stamp, ref, other;
    uint32_t vid;
} value_plan;

void big_gen_init(big_gen *g, big_out *out, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    g->out = out;
    g->rng = seed;
}

static uint64_t next_random(big_gen *g)
{
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint32_t big_below(big_gen *g, uint32_t n) { return (uint32_t)(((next_random(g) >> 32) * n) >> 32); }

static uint64_t popular(big_gen *g) { return g->popular[big_below(g, BIG_POPULAR)]; }

/* java.lang.String.hashCode of Latin-1 text */
static uint32_t java_hash(const char *s, uint32_t len)
{
    uint32_t h = 0;
    for (uint32_t i = 0; i < len; i++)
        h = 31 * h + (uint8_t)s[i];
    return h;
}

static void plan_str(big_gen *g, str_plan *s, const char *text)
{
    s->len = (uint32_t)strnlen(text, sizeof s->text);
    memcpy(s->text, text, s->len);
    s->id = bo_alloc(g->out, BC_STRING, big_instance_size(BC_STRING));
    s->bytes_id = bo_alloc(g->out, BC_BYTES, big_array_size(1, s->len));
    g->made += 2;
}

static void plan_random_str(big_gen *g, str_plan *s)
{
    char text[12];
    snprintf(text, sizeof text, "s%u", big_below(g, 1u << 30));
    plan_str(g, s, text);
}

static void write_str(big_gen *g, const str_plan *s)
{
    uint8_t data[14], *p = data;
    uint32_t hash = java_hash(s->text, s->len);
    p = pk_u1(p, hash == 0);  /* hashIsZero */
    p = pk_u4(p, hash);       /* computed: these strings are map keys or were */
    p = pk_u1(p, 0);          /* coder: Latin-1 */
    p = pk_id(p, s->bytes_id);
    bo_instance(g->out, s->id, BC_STRING, data, (uint32_t)(p - data));
    bo_bytes(g->out, s->bytes_id, s->text, s->len);
}

uint64_t big_string(big_gen *g, const char *text)
{
    str_plan s;
    plan_str(g, &s, text);
    write_str(g, &s);
    return s.id;
}

uint64_t big_str(big_gen *g)
{
    str_plan s;
    plan_random_str(g, &s);
    write_str(g, &s);
    return s.id;
}

/* BigHeap.value: ref is a popular object (1/2), the last unit (3/10) or
 * null; other a popular object (1/3) or null. */
static void plan_value(big_gen *g, value_plan *v)
{
    v->id = bo_alloc(g->out, BC_VALUE, big_instance_size(BC_VALUE));
    v->vid = (uint32_t)next_random(g);
    v->stamp = 0;
    uint32_t k = big_below(g, 10);
    v->ref = k < 5 ? popular(g) : k < 8 ? g->recent : 0;
    v->other = big_below(g, 3) == 0 ? popular(g) : 0;
    g->made++;
}

static void write_value(big_gen *g, const value_plan *v)
{
    uint8_t data[28], *p = data;
    p = pk_id(p, v->other);
    p = pk_id(p, v->ref);
    p = pk_u8(p, v->stamp);
    p = pk_u4(p, v->vid);
    bo_instance(g->out, v->id, BC_VALUE, data, (uint32_t)(p - data));
}

static uint64_t shape_value(big_gen *g)
{
    value_plan v;
    plan_value(g, &v);
    write_value(g, &v);
    return v.id;
}

static uint64_t shape_weak(big_gen *g)
{
    uint64_t id = bo_alloc(g->out, BC_WEAKREF, big_instance_size(BC_WEAKREF));
    uint64_t referent = g->recent ? g->recent : popular(g);
    uint8_t data[32], *p = data;
    p = pk_id(p, 0); /* discovered */
    p = pk_id(p, 0); /* next */
    p = pk_id(p, 0); /* queue */
    p = pk_id(p, referent);
    bo_instance(g->out, id, BC_WEAKREF, data, (uint32_t)(p - data));
    g->made++;
    return id;
}

/* A chain of Links, each at the address after the one before. */
static uint64_t shape_chain(big_gen *g)
{
    uint32_t n = 1 + big_below(g, big_below(g, 20) == 0 ? 100000 : 2000);
    uint64_t size = big_instance_size(BC_LINK), head = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t id = bo_alloc(g->out, BC_LINK, size);
        head = i == 0 ? id : head;
        uint8_t data[12], *p = data;
        p = pk_u4(p, i); /* value */
        p = pk_id(p, i + 1 < n ? id + size : 0);
        bo_instance(g->out, id, BC_LINK, data, (uint32_t)(p - data));
    }
    g->made += n;
    return head;
}

typedef struct map_entry {
    str_plan key;
    value_plan value;
    uint64_t node, next;
    uint32_t hash;
} map_entry;

/* One map's plan at a time: the generator is single-threaded. */
static map_entry map_entries[MAX_MAP];
static uint64_t map_table[MAX_TABLE];

/* HashMap's table: 16 slots, doubled while more than 3/4 full. */
static uint32_t table_capacity(uint32_t n)
{
    uint32_t cap = 16;
    while (n > cap / 4 * 3)
        cap *= 2;
    return cap;
}

/* Addresses in the order HashMap.put allocates: the key, its bytes, the
 * value, the node; each node goes at the head of its bucket's list. */
static void plan_map_entries(big_gen *g, uint32_t n, uint32_t cap, int planted)
{
    memset(map_table, 0, cap * sizeof map_table[0]);
    for (uint32_t i = 0; i < n; i++) {
        map_entry *e = &map_entries[i];
        if (planted) {
            char text[12];
            snprintf(text, sizeof text, "k%09u", i);
            plan_str(g, &e->key, text);
            e->value = (value_plan){bo_alloc(g->out, BC_VALUE, big_instance_size(BC_VALUE)), 0, 0, 0, i};
            g->made++;
        } else {
            plan_random_str(g, &e->key);
            plan_value(g, &e->value);
        }
        e->node = bo_alloc(g->out, BC_NODE, big_instance_size(BC_NODE));
        e->hash = java_hash(e->key.text, e->key.len);
        uint32_t bucket = (e->hash ^ (e->hash >> 16)) & (cap - 1);
        e->next = map_table[bucket];
        map_table[bucket] = e->node;
        g->made++;
    }
}

static void write_map_object(big_gen *g, uint64_t id, uint64_t table, uint32_t n, uint32_t cap)
{
    uint8_t data[48], *p = data;
    p = pk_u4(p, 0x3f400000); /* loadFactor 0.75f */
    p = pk_u4(p, cap / 4 * 3);
    p = pk_u4(p, n); /* modCount */
    p = pk_u4(p, n); /* size */
    p = pk_id(p, 0); /* entrySet */
    p = pk_id(p, table);
    p = pk_id(p, 0); /* AbstractMap.values */
    p = pk_id(p, 0); /* AbstractMap.keySet */
    bo_instance(g->out, id, BC_HASHMAP, data, (uint32_t)(p - data));
}

static uint64_t write_map(big_gen *g, uint32_t n, int planted)
{
    uint32_t cap = table_capacity(n);
    uint64_t id = bo_alloc(g->out, BC_HASHMAP, big_instance_size(BC_HASHMAP));
    uint64_t table = bo_alloc(g->out, BC_NODES, big_array_size(4, cap));
    g->made += 2;
    plan_map_entries(g, n, cap, planted);
    write_map_object(g, id, table, n, cap);
    bo_obj_array(g->out, table, BC_NODES, cap, map_table);
    for (uint32_t i = 0; i < n; i++) {
        const map_entry *e = &map_entries[i];
        write_str(g, &e->key);
        write_value(g, &e->value);
        uint8_t data[28], *p = data;
        p = pk_id(p, e->next);
        p = pk_id(p, e->value.id);
        p = pk_id(p, e->key.id);
        p = pk_u4(p, e->hash ^ (e->hash >> 16));
        bo_instance(g->out, e->node, BC_NODE, data, (uint32_t)(p - data));
    }
    return id;
}

uint64_t big_planted_map(big_gen *g, uint32_t entries)
{
    return write_map(g, entries <= BIG_PLANTED_MAX ? entries : BIG_PLANTED_MAX, 1);
}

static uint64_t shape_map(big_gen *g)
{
    return write_map(g, 1 + big_below(g, big_below(g, 10) == 0 ? 400 : 16), 0);
}

typedef struct list_element {
    str_plan str;       /* when is_str */
    value_plan value;   /* otherwise */
    int is_str;
} list_element;

static list_element list_elements[MAX_LIST];
static uint64_t list_ids[MAX_LIST];

/* An ArrayList of n strings (1/5) and values, its array exactly full. */
static uint64_t shape_list(big_gen *g)
{
    uint32_t n = 1 + big_below(g, big_below(g, 10) == 0 ? 2000 : 20);
    uint64_t id = bo_alloc(g->out, BC_ARRAYLIST, big_instance_size(BC_ARRAYLIST));
    uint64_t array = bo_alloc(g->out, BC_OBJECTS, big_array_size(4, n));
    g->made += 2;
    for (uint32_t i = 0; i < n; i++) {
        list_element *e = &list_elements[i];
        e->is_str = big_below(g, 5) == 0;
        if (e->is_str)
            plan_random_str(g, &e->str);
        else
            plan_value(g, &e->value);
        list_ids[i] = e->is_str ? e->str.id : e->value.id;
    }
    uint8_t data[16], *p = data;
    p = pk_u4(p, n);     /* size */
    p = pk_id(p, array); /* elementData */
    p = pk_u4(p, n);     /* AbstractList.modCount */
    bo_instance(g->out, id, BC_ARRAYLIST, data, (uint32_t)(p - data));
    bo_obj_array(g->out, array, BC_OBJECTS, n, list_ids);
    for (uint32_t i = 0; i < n; i++) {
        if (list_elements[i].is_str)
            write_str(g, &list_elements[i].str);
        else
            write_value(g, &list_elements[i].value);
    }
    return id;
}

typedef struct tree_node {
    uint64_t id, payload;
    uint32_t payload_len;
} tree_node;

static tree_node tree_nodes[MAX_TREE];

/* A binary heap-shaped tree: node i's children are 2i+1 and 2i+2, its
 * parent (i-1)/2; a quarter of the nodes carry a byte[16..79] payload. */
static uint64_t shape_tree(big_gen *g)
{
    static const uint8_t filler[80] = "payload bytes, the same in every tree: their content does not matter here";
    uint32_t n = 3 + big_below(g, 200);
    for (uint32_t i = 0; i < n; i++) {
        tree_node *t = &tree_nodes[i];
        t->id = bo_alloc(g->out, BC_TREE, big_instance_size(BC_TREE));
        t->payload_len = big_below(g, 4) == 0 ? 16 + big_below(g, 64) : 0;
        t->payload = t->payload_len ? bo_alloc(g->out, BC_BYTES, big_array_size(1, t->payload_len)) : 0;
        g->made += 1 + (t->payload_len != 0);
    }
    for (uint32_t i = 0; i < n; i++) {
        const tree_node *t = &tree_nodes[i];
        uint8_t data[36], *p = data;
        p = pk_id(p, t->payload);
        p = pk_u4(p, i); /* key */
        p = pk_id(p, i > 0 ? tree_nodes[(i - 1) / 2].id : 0);
        p = pk_id(p, 2 * i + 2 < n ? tree_nodes[2 * i + 2].id : 0);
        p = pk_id(p, 2 * i + 1 < n ? tree_nodes[2 * i + 1].id : 0);
        bo_instance(g->out, t->id, BC_TREE, data, (uint32_t)(p - data));
        if (t->payload)
            bo_bytes(g->out, t->payload, filler, t->payload_len);
    }
    return tree_nodes[0].id;
}

/* BigHeap's main loop, one turn: a unit of a random shape, which becomes
 * the recent one and now and then replaces a popular object. */
uint64_t big_unit(big_gen *g, uint64_t *dropped)
{
    uint32_t shape = big_below(g, 100);
    uint64_t made = shape < 35   ? shape_map(g)
                    : shape < 65 ? shape_list(g)
                    : shape < 80 ? shape_tree(g)
                    : shape < 82 ? shape_chain(g)
                    : shape < 90 ? shape_weak(g)
                                 : shape_value(g);
    g->recent = made;
    *dropped = 0;
    if (big_below(g, 64) == 0) {
        uint64_t *slot = &g->popular[big_below(g, BIG_POPULAR)];
        *dropped = *slot < g->first_unit ? *slot : 0;
        *slot = made;
    }
    return made;
}
