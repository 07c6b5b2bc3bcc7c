/* v8_places.c - where closures were defined: a V8 snapshot's "locations".
 *
 * "locations" is a flat array of entries laid out by
 * snapshot.meta.location_fields (V8: object_index, script_id, line, column).
 * object_index is a node index (ordinal * node field count), line and
 * column are 0-based. The entry names its script by V8's script id only;
 * the snapshot has no id -> name table, but a closure reaches its Script
 * object through internal edges (function -> "shared" -> "script" or
 * "script_or_debug_info"), and V8 names that node by the script's name. So
 * each closure's own script is followed, and a closure whose script object
 * is not there takes the name found for its script id, else "script <id>"
 * (docs/V8.md 1.2). Objects' entries (their constructors' places) are
 * checked and dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../model/idrank.h"
#include "json_scan.h"
#include "v8_internal.h"
#include "../base/vec.h"

void v8_places_free(v8_places *p)
{
    lf_big_free(p->loc);
    lf_big_free(p->located);
    memset(p, 0, sizeof *p);
}

void v8_places_field(v8_places *p, unsigned i, const char *name, size_t len)
{
    p->fields = i + 1;
    p->kind[i] = lf_json_key_is(name, len, "object_index") ? V8L_OBJECT
               : lf_json_key_is(name, len, "script_id") ? V8L_SCRIPT
               : lf_json_key_is(name, len, "line") ? V8L_LINE
               : lf_json_key_is(name, len, "column") ? V8L_COLUMN : V8L_SKIP;
}

/* Whether location_fields names each of the four once. */
static int layout_known(const v8_places *p)
{
    unsigned seen = 0;
    for (unsigned f = 0; f < p->fields; f++)
        if (p->kind[f] != V8L_SKIP) {
            if (seen & 1u << p->kind[f])
                return 0;
            seen |= 1u << p->kind[f];
        }
    return seen == (1u << V8L_OBJECT | 1u << V8L_SCRIPT | 1u << V8L_LINE | 1u << V8L_COLUMN);
}

/* One value of an entry into row (v8_loc order), checked where it is read
 * so that an error names the value's own offset. */
static int take_value(lf_json *j, const v8_places *p, unsigned field, uint64_t v, uint64_t at,
                      uint64_t node_count, unsigned node_fields, v8_loc *row)
{
    switch (p->kind[field]) {
    case V8L_OBJECT:
        if (v % node_fields)
            return lf_fail_at(j->err, at, "bad location", "object_index %llu is not a multiple of %u node fields",
                              (unsigned long long)v, node_fields);
        if (v / node_fields >= node_count)
            return lf_fail_at(j->err, at, "bad location", "object_index %llu past the %llu nodes",
                              (unsigned long long)v, (unsigned long long)node_count);
        row->node = (uint32_t)(v / node_fields);
        return 0;
    case V8L_SKIP:
        return 0;
    default:
        if (v > UINT32_MAX)
            return lf_fail_at(j->err, at, "number too large", "in locations");
        if (p->kind[field] == V8L_SCRIPT)
            row->script_id = (uint32_t)v;
        else if (p->kind[field] == V8L_LINE)
            row->line = (uint32_t)v;
        else
            row->column = (uint32_t)v;
        return 0;
    }
}

/* A number at j->pos (blanks skipped): lf_json_uint's loop without its
 * per-digit overflow test, as 82 MB of the 1 GB benchmark snapshot are
 * locations. A value is at most 2^40 or so (a node index), so one past
 * 2^60 is too large whatever its digits. */
static int read_value(lf_json *j, uint64_t *out)
{
    const uint8_t *d = j->data;
    const uint64_t start = j->pos, end = j->end;
    uint64_t p = start, v = 0;
    while (p < end && (unsigned)(d[p] - '0') < 10 && v < (1ull << 60))
        v = v * 10 + (unsigned)(d[p++] - '0');
    if (p < end && (unsigned)(d[p] - '0') < 10)
        return lf_fail_at(j->err, start, "number too large", "in locations");
    if (p == start)
        return lf_json_uint(j, out); /* not a number: its own message */
    j->pos = p;
    *out = v;
    return 0;
}

/* Keeps a whole entry when it places a closure. An object's entry is its
 * constructor's place, which its class already names, at 20 bytes an
 * object (millions in a big heap): only that it has one is kept, a bit,
 * because DevTools' Summary keys such objects apart from those of the same
 * name that have none (docs/V8.md 4.2). Entries grow with the bytes read (8
 * or more each): there is no count to trust. */
static int keep_entry(lf_json *j, v8_places *p, const v8_raw *raw, v8_loc row)
{
    int kind = v8_node_kind(raw, row.node);
    if (kind == V8N_OBJECT) {
        if (!p->located && !(p->located = lf_big_calloc((size_t)raw->node_count / 8 + 1, 1)))
            return lf_fail_nomem(j->err, "reading locations");
        p->located[row.node >> 3] |= (uint8_t)(1u << (row.node & 7));
        return 0;
    }
    if (kind != V8N_CLOSURE)
        return 0;
    if (p->count >= UINT32_MAX || lf_vec_reserve((void **)&p->loc, &p->cap, p->count + 1, sizeof *p->loc))
        return lf_fail_nomem(j->err, "reading locations");
    p->loc[p->count++] = row;
    return 0;
}

int v8_places_read(lf_json *j, v8_places *p, const v8_raw *raw, unsigned node_fields)
{
    uint64_t at = j->pos;
    if (p->have)
        return lf_fail_at(j->err, at, "unsupported snapshot layout", "locations twice");
    p->have = 1;
    if (!layout_known(p))
        return lf_json_skip(j); /* no location_fields (or not V8's): nothing to place */
    if (!raw->node_type || !node_fields)
        return lf_fail_at(j->err, at, "unsupported snapshot layout", "locations before the nodes");
    const uint64_t node_count = raw->node_count;
    if (lf_json_expect(j, '[', "locations"))
        return -1;
    v8_loc row = {0};
    unsigned field = 0;
    if (lf_json_peek(j) == ']') {
        j->pos++;
        return 0;
    }
    for (;;) {
        uint64_t v, value_at = (lf_json_ws(j), j->pos);
        if (read_value(j, &v) || take_value(j, p, field, v, value_at, node_count, node_fields, &row))
            return -1;
        if (++field == p->fields) {
            if (keep_entry(j, p, raw, row))
                return -1;
            field = 0;
        }
        int more = j->pos < j->end && j->data[j->pos] == ',' ? (j->pos++, 1) /* the usual case */
                                                            : lf_json_next(j, ']', "locations");
        if (more < 0)
            return -1;
        if (more == 0)
            break;
    }
    if (field != 0)
        return lf_fail_at(j->err, j->pos - 1, "wrong number of values", "locations ends inside an entry");
    return 0;
}

/* The target of v's first internal edge named `name` (a table string, -1:
 * the file has no such string), or UINT32_MAX. */
static uint32_t follow(const v8_raw *raw, uint32_t v, int64_t name)
{
    if (name < (int64_t)V8_STRING_BASE)
        return UINT32_MAX;
    const uint32_t want = (uint32_t)(name - V8_STRING_BASE);
    for (uint64_t e = v8_edges_begin(raw, v), end = v8_edges_end(raw, v); e < end; e++)
        if (v8_edge_kind(raw, e) == V8E_INTERNAL && v8_edge_name(raw, e) == want)
            return raw->edge_target[e];
    return UINT32_MAX;
}

/* The edge names the walk from a closure to its script follows. */
typedef struct script_walk {
    int64_t shared, script, script_or_debug_info, source;
} script_walk;

/* The name of closure v's script (a table string), 0 when not found: the
 * node reached must be a Script (it has its source), named. */
static uint32_t closure_script(const v8_raw *raw, const script_walk *w, uint32_t v)
{
    if (v8_node_kind(raw, v) != V8N_CLOSURE)
        return 0;
    uint32_t shared = follow(raw, v, w->shared);
    if (shared == UINT32_MAX)
        return 0;
    uint32_t script = follow(raw, shared, w->script_or_debug_info);
    if (script == UINT32_MAX)
        script = follow(raw, shared, w->script);
    if (script == UINT32_MAX || follow(raw, script, w->source) == UINT32_MAX)
        return 0;
    uint32_t name = raw->node_name[script];
    return raw->strings.offset[name + 1] > raw->strings.offset[name] ? name : 0;
}

/* script id -> name pairs, from the closures whose script was found. */
typedef struct script_name {
    uint32_t id, name;
} script_name;

/* (key << 32 | i) for a key and an entry number, as one sortable word: in
 * order, entries of one key keep their file order, and the first wins. */
static inline uint64_t keyed(uint32_t key, uint32_t i)
{
    return (uint64_t)key << 32 | i;
}

/* keys (made by keyed) sorted, then only the first of each key kept, in
 * place: *kept of them. -1: out of memory. */
static int first_per_key(uint64_t *keys, size_t count, size_t *kept)
{
    if (lf_sort_u64(keys, count))
        return -1;
    size_t out = 0;
    for (size_t i = 0; i < count; i++) /* keys[i - 1] is unchanged when out < i */
        if (i == 0 || keys[i] >> 32 != keys[i - 1] >> 32)
            keys[out++] = keys[i];
    *kept = out;
    return 0;
}

/* The names found, sorted by id, one per id (the first found), in place;
 * their new count. keys has room for count entries. */
static size_t one_name_per_id(script_name *names, size_t count, uint64_t *keys, lf_error *err)
{
    for (size_t i = 0; i < count; i++)
        keys[i] = keyed(names[i].id, (uint32_t)i);
    size_t out;
    if (first_per_key(keys, count, &out))
        return lf_fail_nomem(err, "reading locations"), SIZE_MAX;
    /* the kept names into keys first: names[i] may be needed after slot i
     * of names is written */
    for (size_t k = 0; k < out; k++)
        keys[k] = keyed(names[keys[k] & UINT32_MAX].name, (uint32_t)(keys[k] >> 32));
    for (size_t k = 0; k < out; k++)
        names[k] = (script_name){(uint32_t)keys[k], (uint32_t)(keys[k] >> 32)};
    return out;
}

static uint32_t name_of_script(const script_name *names, size_t count, uint32_t id)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (names[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && names[lo].id == id ? names[lo].name : 0;
}

/* Each place's script: its closure's own, else any found for its id, else
 * "script <id>" (interned: many entries share a script). */
static int name_scripts(v8_raw *raw, lf_place *place, const uint32_t *script_id, size_t count,
                        script_name *names, uint64_t *keys, lf_error *err)
{
    script_walk w = {v8_file_string(raw, "shared", 6), v8_file_string(raw, "script", 6),
                     v8_file_string(raw, "script_or_debug_info", 20), v8_file_string(raw, "source", 6)};
    size_t named = 0;
    for (size_t i = 0; i < count; i++)
        if ((place[i].script = closure_script(raw, &w, place[i].node)) != 0)
            names[named++] = (script_name){script_id[i], place[i].script};
    if ((named = one_name_per_id(names, named, keys, err)) == SIZE_MAX)
        return -1;
    for (size_t i = 0; i < count; i++) {
        if (place[i].script || (place[i].script = name_of_script(names, named, script_id[i])) != 0)
            continue;
        char buf[32];
        int len = snprintf(buf, sizeof buf, "script %u", script_id[i]);
        int64_t s = lf_strtab_intern(&raw->strings, buf, (size_t)len);
        if (s < 0)
            return lf_fail_nomem(err, "reading locations");
        place[i].script = (uint32_t)s;
    }
    return 0;
}

/* The entries in node order, a node's first only: keys[0..*count) as
 * keyed(node, entry number), sorted (radix: the qsort with a comparator
 * was 3% of the Express snapshot's run, alone on its core). */
static int entries_by_node(const v8_places *p, uint64_t *keys, size_t *count)
{
    for (size_t i = 0; i < p->count; i++)
        keys[i] = keyed(p->loc[i].node, (uint32_t)i);
    return first_per_key(keys, p->count, count);
}

int v8_places_resolve(v8_raw *raw, v8_places *p, lf_place **out, uint32_t *out_count, lf_error *err)
{
    *out = NULL;
    *out_count = 0;
    if (!p || !p->count)
        return 0;
    /* V8 writes them in the order it met the objects, not node order; a
     * node listed twice keeps its first entry */
    uint64_t *keys = lf_big_malloc(p->count * sizeof *keys);
    size_t count = 0;
    if (!keys || entries_by_node(p, keys, &count)) {
        lf_big_free(keys);
        return lf_fail_nomem(err, "reading locations");
    }
    lf_place *place = lf_big_malloc(count * sizeof *place);
    uint32_t *script_id = lf_big_malloc(count * sizeof *script_id);
    script_name *names = lf_big_malloc(count * sizeof *names);
    int rc = place && script_id && names ? 0 : lf_fail_nomem(err, "reading locations");
    for (size_t i = 0; !rc && i < count; i++) {
        const v8_loc *l = &p->loc[keys[i] & UINT32_MAX];
        place[i] = (lf_place){l->node, raw->node_name[l->node], 0, l->line, l->column};
        script_id[i] = l->script_id;
    }
    if (!rc)
        rc = name_scripts(raw, place, script_id, count, names, keys, err);
    lf_big_free(keys);
    lf_big_free(script_id);
    lf_big_free(names);
    if (rc) {
        lf_big_free(place);
        return -1;
    }
    *out = place;
    *out_count = (uint32_t)count;
    return 0;
}
