/* v8_interfaces.c - names plain JS objects by their shape, as DevTools does.
 *
 * Chrome DevTools (HeapSnapshot.ts, inferInterfaceDefinitions and
 * applyInterfaceDefinitions) splits the many objects of class "Object" by
 * their properties: every plain object's property names, in order and up to
 * 120 characters, make a candidate name "{a, b, c}"; candidates that at least
 * 2 objects and one in a thousand plain objects share become interfaces,
 * most popular first; each plain object then takes the interface with the
 * most properties that are all among its own (the earlier one on a tie), or
 * stays "Object". Lengths and orders are JavaScript's: UTF-16 code units. */
#include <stdlib.h>
#include <string.h>

#include "v8_internal.h"
#include "../base/vec.h"
#include "../base/bigmem.h"

#define MAX_NAME_UNITS 120
#define MIN_OBJECTS 2
#define MIN_PROPORTION 1000.0

static const char *table_bytes(const lf_strtab *t, uint32_t s, size_t *len)
{
    *len = (size_t)(t->offset[s + 1] - t->offset[s]);
    return t->bytes + t->offset[s];
}

static const char *bytes_of(const v8_raw *raw, uint32_t s, size_t *len)
{
    return table_bytes(&raw->strings, s, len);
}

/* The next UTF-16 code unit of a UTF-8 string (a supplementary character
 * gives its two surrogates in turn, *pending holding the second). */
static unsigned next_unit(const unsigned char *s, size_t len, size_t *i, unsigned *pending)
{
    if (*pending) {
        unsigned u = *pending;
        *pending = 0;
        return u;
    }
    unsigned c = s[(*i)++], cp = c;
    int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    cp = more == 3 ? c & 7 : more == 2 ? c & 15 : more == 1 ? c & 31 : c;
    while (more-- > 0 && *i < len)
        cp = cp << 6 | (s[(*i)++] & 0x3f);
    if (cp >= 0x10000) {
        cp -= 0x10000;
        *pending = 0xdc00 | (cp & 0x3ff);
        return 0xd800 | (cp >> 10);
    }
    return cp;
}

/* JavaScript's string order (code units) of two strings. */
static int js_compare(const v8_raw *raw, uint32_t a, uint32_t b)
{
    if (a == b)
        return 0;
    size_t la, lb, i = 0, j = 0;
    const unsigned char *x = (const unsigned char *)bytes_of(raw, a, &la);
    const unsigned char *y = (const unsigned char *)bytes_of(raw, b, &lb);
    unsigned pa = 0, pb = 0;
    while ((i < la || pa) && (j < lb || pb)) {
        unsigned u = next_unit(x, la, &i, &pa), v = next_unit(y, lb, &j, &pb);
        if (u != v)
            return u < v ? -1 : 1;
    }
    int a_left = i < la || pa, b_left = j < lb || pb;
    return a_left - b_left;
}

static size_t utf16_length(const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xc0) != 0x80)
            n += c >= 0xf0 ? 2 : 1;
    }
    return n;
}

/* DevTools' formatPropertyName: names with , ' " { } are shown as JSON strings. */
static int format_name(const char *s, size_t len, char **buf, size_t *cap, size_t *out_len)
{
    int quote = 0;
    for (size_t i = 0; i < len; i++)
        quote |= s[i] == ',' || s[i] == '\'' || s[i] == '"' || s[i] == '{' || s[i] == '}';
    if (lf_vec_reserve((void **)buf, cap, len * 6 + 3, 1))
        return -1;
    size_t o = 0;
    if (!quote) {
        memcpy(*buf, s, len);
        *out_len = len;
        return 0;
    }
    char *b = *buf;
    b[o++] = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        static const char hex[] = "0123456789abcdef";
        if (c == '"' || c == '\\') {
            b[o++] = '\\';
            b[o++] = (char)c;
        } else if (c < 0x20) {
            const char *short_form = c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\n' ? "\\n"
                                   : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
            if (short_form) {
                memcpy(b + o, short_form, 2);
                o += 2;
            } else {
                memcpy(b + o, "\\u00", 4);
                b[o + 4] = hex[c >> 4];
                b[o + 5] = hex[c & 15];
                o += 6;
            }
        } else {
            b[o++] = (char)c;
        }
    }
    b[o++] = '"';
    *out_len = o;
    return 0;
}

/* --- the property tree ------------------------------------------------------ */

typedef struct tree {
    /* children by (node, property rank) in an open-addressing table */
    uint64_t *key;               /* node << 32 | rank; 0 = empty (ranks start at 1) */
    uint32_t *child;
    size_t mask;
    uint32_t *greatest;          /* node -> greatest property rank leaving it, or NONE */
    uint32_t *match;             /* node -> interface index, or NONE */
    uint32_t nodes, cap;
} tree;

#define NONE 0xffffffffu

static size_t slot_of(const tree *t, uint64_t key)
{
    size_t s = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & t->mask;
    while (t->key[s] && t->key[s] != key)
        s = (s + 1) & t->mask;
    return s;
}

static uint32_t tree_next(const tree *t, uint32_t node, uint32_t rank)
{
    size_t s = slot_of(t, (uint64_t)node << 32 | rank);
    return t->key[s] ? t->child[s] : NONE;
}

static int tree_grow_nodes(tree *t)
{
    if (t->nodes < t->cap)
        return 0;
    uint32_t cap = t->cap ? t->cap * 2 : 64;
    uint32_t *g = realloc(t->greatest, cap * sizeof *g), *m = g ? realloc(t->match, cap * sizeof *m) : NULL;
    if (g)
        t->greatest = g;
    if (!m)
        return -1;
    t->match = m;
    t->cap = cap;
    return 0;
}

static void tree_free(tree *t)
{
    free(t->key);
    free(t->child);
    free(t->greatest);
    free(t->match);
}

/* --- candidates and their application ---------------------------------------- */

typedef struct candidates {
    lf_strtab names;            /* interface name -> candidate index, in order of first use */
    uint64_t *count;
    uint32_t *prop_start;       /* candidate -> first in props; the names' order */
    uint32_t *props;
    size_t count_cap, start_cap, props_len, props_cap;
} candidates;

static int by_js_order(const void *a, const void *b, void *raw)
{
    return js_compare(raw, *(const uint32_t *)a, *(const uint32_t *)b);
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Ranks in increasing order: an object has a handful of properties, for
 * which insertion sort beats qsort's calls. */
static void sort_ranks(uint32_t *r, size_t n)
{
    if (n > 32) {
        qsort(r, n, sizeof *r, by_value);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint32_t x = r[i];
        size_t j = i;
        for (; j > 0 && r[j - 1] > x; j--)
            r[j] = r[j - 1];
        r[j] = x;
    }
}

static int by_popularity(const void *a, const void *b, void *counts)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const uint64_t *c = counts;
    if (c[x] != c[y])
        return c[x] > c[y] ? -1 : 1;
    return x < y ? -1 : x > y; /* a stable sort: first seen first */
}

/* One run of the inference: the candidates, the interfaces chosen among
 * them, their tree, and scratch; shapes_free releases all of it. */
typedef struct shapes {
    v8_raw *raw;
    uint32_t *class_string;     /* node -> class string, rewritten for plain objects */
    uint32_t object;            /* the class string "Object" of plain objects */
    int64_t proto;              /* the file's "__proto__", or -1: not a property that counts */
    candidates c;
    uint64_t plain;             /* plain objects */
    uint32_t *order;            /* candidates, most popular first */
    uint32_t chosen;            /* the first `chosen` of order are the interfaces */
    int64_t *class_of_def;      /* interface -> its class string */
    tree t;
    char *name, *formatted;
    size_t name_cap, formatted_cap;
    uint32_t *props, *states, *state_mark;  /* state_mark: tree node -> stamp of the last object there */
    size_t props_cap, states_cap;
    uint32_t stamp;             /* the objects walked so far */
    /* The chosen interfaces' properties numbered 1.. in JavaScript's order
     * (string -> rank; 0: in no interface). Objects' properties are sorted
     * and the tree walked by these integers: comparing the strings' UTF-16
     * units per object took most of the naming's time (the Express heap). */
    uint32_t *rank_of;
    uint32_t rank_strings;      /* strings rank_of covers */
} shapes;

static void shapes_free(shapes *s)
{
    lf_strtab_free(&s->c.names);
    lf_big_free(s->c.count);
    lf_big_free(s->c.prop_start);
    lf_big_free(s->c.props);
    free(s->order);
    free(s->class_of_def);
    tree_free(&s->t);
    lf_big_free(s->name);
    lf_big_free(s->formatted);
    lf_big_free(s->props);
    lf_big_free(s->states);
    free(s->state_mark);
    lf_big_free(s->rank_of);
}

static int is_plain(const shapes *s, uint32_t v)
{
    return v8_node_kind(s->raw, v) == V8N_OBJECT && s->class_string[v] == s->object;
}

/* Appends property prop to the name in s->name (len bytes, units code
 * units so far) and to the candidates' property list: 1 when the name is
 * full (120 units), -1 when out of memory. */
static int append_property(shapes *s, uint32_t prop, size_t *len, size_t *units)
{
    candidates *c = &s->c;
    size_t plen, flen;
    const char *p = bytes_of(s->raw, prop, &plen);
    if (format_name(p, plen, &s->formatted, &s->formatted_cap, &flen))
        return -1;
    size_t funits = utf16_length(s->formatted, flen);
    if (*units > 1 && *units + funits > MAX_NAME_UNITS)
        return 1;
    if (lf_vec_reserve((void **)&s->name, &s->name_cap, *len + flen + 3, 1) ||
        lf_vec_reserve((void **)&c->props, &c->props_cap, c->props_len + 1, sizeof *c->props))
        return -1;
    if (*units != 1) {
        memcpy(s->name + *len, ", ", 2);
        *len += 2;
        *units += 2;
    }
    memcpy(s->name + *len, s->formatted, flen);
    *len += flen;
    *units += funits;
    c->props[c->props_len++] = prop;
    return 0;
}

/* Plain object v's candidate "{a, b}", counted; an object without
 * properties has none. */
static int count_candidate(shapes *s, uint32_t v)
{
    const v8_raw *raw = s->raw;
    candidates *c = &s->c;
    size_t len = 1, units = 1, first_prop = c->props_len;
    if (lf_vec_reserve((void **)&s->name, &s->name_cap, 2, 1))
        return -1;
    s->name[0] = '{';
    for (uint64_t e = v8_edges_begin(raw, v); e < v8_edges_end(raw, v); e++) {
        if (v8_edge_kind(raw, e) != V8E_PROPERTY)
            continue;
        uint32_t prop = V8_STRING_BASE + v8_edge_name(raw, e);
        if ((int64_t)prop == s->proto)
            continue;
        int full = append_property(s, prop, &len, &units);
        if (full < 0)
            return -1;
        if (full)
            break;
    }
    if (c->props_len == first_prop)
        return 0; /* no properties: not a meaningful interface */
    s->name[len++] = '}';
    uint32_t before = c->names.count;
    int64_t k = lf_strtab_intern(&c->names, s->name, len);
    if (k < 0)
        return -1;
    if (c->names.count > before) { /* a new candidate */
        if (lf_vec_reserve((void **)&c->count, &c->count_cap, (size_t)k + 1, sizeof *c->count) ||
            lf_vec_reserve((void **)&c->prop_start, &c->start_cap, (size_t)k + 2, sizeof *c->prop_start))
            return -1;
        c->count[k] = 0;
        c->prop_start[k] = (uint32_t)first_prop;
        c->prop_start[k + 1] = (uint32_t)c->props_len;
    } else {
        c->props_len = first_prop; /* known: its properties are stored already */
    }
    c->count[k]++;
    return 0;
}

static int collect_candidates(shapes *s)
{
    if (lf_strtab_init(&s->c.names))
        return -1;
    for (uint32_t v = 0; v < s->raw->node_count; v++) {
        if (!is_plain(s, v))
            continue;
        s->plain++;
        if (count_candidate(s, v))
            return -1;
    }
    return 0;
}

/* The candidates by popularity; those at least MIN_OBJECTS and one in
 * MIN_PROPORTION plain objects share are chosen. */
static int choose_interfaces(shapes *s)
{
    /* The string table's slot 0 is the empty string: candidates start at 1. */
    uint32_t candidate_count = s->c.names.count;
    s->order = malloc((candidate_count + 1) * sizeof *s->order);
    if (!s->order)
        return -1;
    uint32_t defs = 0;
    for (uint32_t k = 1; k < candidate_count; k++)
        s->order[defs++] = k;
    qsort_r(s->order, defs, sizeof *s->order, by_popularity, s->c.count);
    double min_count = (double)s->plain / MIN_PROPORTION;
    if (min_count < MIN_OBJECTS)
        min_count = MIN_OBJECTS;
    s->chosen = 0;
    while (s->chosen < defs && (double)s->c.count[s->order[s->chosen]] >= min_count)
        s->chosen++;
    return 0;
}

/* The child of node `at` by property prop, made when missing. */
static int tree_step(tree *t, uint32_t at, uint32_t rank, uint32_t *next_out)
{
    uint32_t next = tree_next(t, at, rank);
    if (next == NONE) {
        if (tree_grow_nodes(t))
            return -1;
        next = t->nodes++;
        t->greatest[next] = NONE;
        t->match[next] = NONE;
        size_t s = slot_of(t, (uint64_t)at << 32 | rank);
        t->key[s] = (uint64_t)at << 32 | rank;
        t->child[s] = next;
        if (t->greatest[at] == NONE || t->greatest[at] < rank)
            t->greatest[at] = rank;
    }
    *next_out = next;
    return 0;
}

/* s->rank_of: the distinct properties of the chosen interfaces, sorted in
 * JavaScript's order once. */
static int rank_properties(shapes *s)
{
    const candidates *c = &s->c;
    size_t total = 0;
    for (uint32_t i = 0; i < s->chosen; i++)
        total += c->prop_start[s->order[i] + 1] - c->prop_start[s->order[i]];
    uint32_t *props = malloc((total + 1) * sizeof *props);
    s->rank_strings = s->raw->strings.count;
    s->rank_of = lf_big_calloc((size_t)s->rank_strings + 1, sizeof *s->rank_of);
    if (!props || !s->rank_of) {
        free(props);
        return -1;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < s->chosen; i++)
        for (uint32_t p = c->prop_start[s->order[i]]; p < c->prop_start[s->order[i] + 1]; p++)
            props[n++] = c->props[p];
    qsort(props, n, sizeof *props, by_value);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        if (distinct == 0 || props[distinct - 1] != props[i])
            props[distinct++] = props[i];
    qsort_r(props, distinct, sizeof *props, by_js_order, (void *)s->raw);
    for (size_t r = 0; r < distinct; r++)
        s->rank_of[props[r]] = (uint32_t)r + 1;
    free(props);
    return 0;
}

/* The tree of the chosen interfaces' sorted property lists: a path from
 * node 0 spells one, its last node matches it (the first chosen wins). */
static int build_tree(shapes *s)
{
    const candidates *c = &s->c;
    tree *t = &s->t;
    size_t total_props = 0;
    for (uint32_t i = 0; i < s->chosen; i++)
        total_props += c->prop_start[s->order[i] + 1] - c->prop_start[s->order[i]];
    size_t slots = 16;
    while (slots < 2 * total_props + 2)
        slots *= 2;
    t->key = calloc(slots, sizeof *t->key);
    t->child = malloc(slots * sizeof *t->child);
    t->mask = slots - 1;
    if (!t->key || !t->child || tree_grow_nodes(t))
        return -1;
    t->nodes = 1;
    t->greatest[0] = NONE;
    t->match[0] = NONE;
    for (uint32_t i = 0; i < s->chosen; i++) {
        uint32_t k = s->order[i], start = c->prop_start[k], count = c->prop_start[k + 1] - start;
        if (lf_vec_reserve((void **)&s->props, &s->props_cap, count + 1, sizeof *s->props))
            return -1;
        for (uint32_t p = 0; p < count; p++)
            s->props[p] = s->rank_of[c->props[start + p]];
        sort_ranks(s->props, count);
        uint32_t at = 0;
        for (uint32_t p = 0; p < count; p++)
            if (tree_step(t, at, s->props[p], &at))
                return -1;
        if (t->match[at] == NONE)
            t->match[at] = i;
    }
    return 0;
}

/* The ranks of plain object v's properties, in increasing order, into
 * s->props. A property in no interface leads nowhere in the tree: left out,
 * it changes no match. */
static int sorted_properties(shapes *s, uint32_t v, size_t *count_out)
{
    const v8_raw *raw = s->raw;
    size_t count = 0;
    for (uint64_t e = v8_edges_begin(raw, v); e < v8_edges_end(raw, v); e++)
        if (v8_edge_kind(raw, e) == V8E_PROPERTY) {
            uint32_t prop = V8_STRING_BASE + v8_edge_name(raw, e);
            uint32_t rank = prop < s->rank_strings ? s->rank_of[prop] : 0;
            if (!rank)
                continue;
            if (lf_vec_reserve((void **)&s->props, &s->props_cap, count + 1, sizeof *s->props))
                return -1;
            s->props[count++] = rank;
        }
    sort_ranks(s->props, count);
    *count_out = count;
    return 0;
}

/* Which interface plain object v takes: the one with the most properties,
 * all among v's (the earlier on a tie), or NONE. The tree is walked with
 * every subset of v's sorted properties at once: states are the nodes
 * reached, dropped once no greater property can follow them. */
static int best_interface(shapes *s, uint32_t v, uint32_t *best_out)
{
    const tree *t = &s->t;
    size_t count;
    if (sorted_properties(s, v, &count))
        return -1;
    uint32_t best = t->match[0]; /* NONE: "Object" */
    uint32_t best_props = 0;
    size_t live = 0;
    if (lf_vec_reserve((void **)&s->states, &s->states_cap, 1, sizeof *s->states))
        return -1;
    const uint32_t stamp = ++s->stamp;
    s->states[live++] = 0;
    s->state_mark[0] = stamp;
    for (size_t p = 0; p < count && live; p++) {
        const uint32_t prop = s->props[p]; /* a rank */
        size_t round = live;
        for (size_t k = 0; k < round; k++) {
            uint32_t node = s->states[k];
            uint32_t next = tree_next(t, node, prop);
            if (t->greatest[node] == NONE || prop >= t->greatest[node])
                s->states[k] = NONE; /* nothing can follow from here */
            if (next == NONE || s->state_mark[next] == stamp)
                continue;
            s->state_mark[next] = stamp;
            if (lf_vec_reserve((void **)&s->states, &s->states_cap, live + 1, sizeof *s->states))
                return -1;
            s->states[live++] = next;
            uint32_t m = t->match[next];
            if (m != NONE) {
                uint32_t def = s->order[m];
                uint32_t mp = s->c.prop_start[def + 1] - s->c.prop_start[def];
                if (best == NONE || mp > best_props || (mp == best_props && m < best)) {
                    best = m;
                    best_props = mp;
                }
            }
        }
        size_t kept = 0;
        for (size_t k = 0; k < live; k++)
            if (s->states[k] != NONE)
                s->states[kept++] = s->states[k];
        live = kept;
    }
    *best_out = best;
    return 0;
}

/* Each plain object takes its best interface, named in the snapshot's table. */
static int apply_interfaces(shapes *s)
{
    s->state_mark = calloc(s->t.nodes, sizeof *s->state_mark);
    s->class_of_def = malloc(s->chosen * sizeof *s->class_of_def);
    if (!s->state_mark || !s->class_of_def)
        return -1;
    for (uint32_t i = 0; i < s->chosen; i++) {
        size_t len;
        const char *name = table_bytes(&s->c.names, s->order[i], &len);
        s->class_of_def[i] = lf_strtab_intern(&s->raw->strings, name, len);
        if (s->class_of_def[i] < 0)
            return -1;
    }
    for (uint32_t v = 0; v < s->raw->node_count; v++) {
        if (!is_plain(s, v))
            continue;
        uint32_t best;
        if (best_interface(s, v, &best))
            return -1;
        if (best != NONE)
            s->class_string[v] = (uint32_t)s->class_of_def[best];
    }
    return 0;
}

int v8_infer_interfaces(v8_raw *raw, uint32_t *class_string, lf_error *err)
{
    /* Plain objects are named "Object": their class string (made canonical by
     * class_names) is the one the table finds. Property names are the file's
     * strings, each written once. */
    int64_t object = lf_strtab_find(&raw->strings, "Object", 6);
    if (object < 0)
        return 0; /* no plain objects */
    shapes s;
    memset(&s, 0, sizeof s);
    s.raw = raw;
    s.class_string = class_string;
    s.object = (uint32_t)object;
    s.proto = v8_file_string(raw, "__proto__", 9);
    int rc = collect_candidates(&s);
    if (!rc)
        rc = choose_interfaces(&s);
    if (!rc && s.chosen > 0)
        rc = rank_properties(&s);
    if (!rc && s.chosen > 0)
        rc = build_tree(&s);
    if (!rc && s.chosen > 0)
        rc = apply_interfaces(&s);
    shapes_free(&s);
    return rc ? lf_fail_nomem(err, "naming objects by shape") : 0;
}
