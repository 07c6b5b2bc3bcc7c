/* v8_trace.c - allocation stacks of a V8 snapshot written with allocation
 * tracking (node --track-heap-objects, DevTools' "Allocation instrumentation
 * on timeline").
 *
 * "trace_function_infos" is a flat array of functions (name and script are
 * string indices; line and column are 1-based, 0 unknown: V8 adds 1 when it
 * writes them). "trace_tree" is V8's allocation call tree, nested:
 * [id, function_info_index, count, size, [children...]], its single
 * top-level node V8's "(root)", which is no frame. A node's
 * "trace_node_id" names the tree node of its allocation stack, 0 when not
 * recorded. Each tree node becomes a site: its function is the innermost
 * frame, its parent the caller. The tree is read with an explicit stack of
 * open arrays, never recursion. */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/bsearch.h"
#include "json_scan.h"
#include "../model/site_table.h"
#include "v8_internal.h"
#include "../base/vec.h"

void v8_trace_free(v8_trace *t)
{
    lf_big_free(t->info);
    lf_big_free(t->node);
    memset(t, 0, sizeof *t);
}

void v8_trace_info_field(v8_trace *t, unsigned i, const char *name, size_t len)
{
    t->info_fields = i + 1;
    t->info_kind[i] = lf_json_key_is(name, len, "name") ? V8T_NAME
                    : lf_json_key_is(name, len, "script_name") ? V8T_SCRIPT
                    : lf_json_key_is(name, len, "line") ? V8T_LINE
                    : lf_json_key_is(name, len, "column") ? V8T_COLUMN : V8T_SKIP;
}

void v8_trace_node_field(v8_trace *t, unsigned i, const char *name, size_t len)
{
    t->node_fields = i + 1;
    t->node_kind[i] = lf_json_key_is(name, len, "id") ? V8T_ID
                    : lf_json_key_is(name, len, "function_info_index") ? V8T_INFO
                    : lf_json_key_is(name, len, "children") ? V8T_CHILDREN : V8T_SKIP;
}

/* Whether the header names what is read: every field once, and the
 * children of a trace node as its last field (V8 writes them so). */
static int layout_ok(const uint8_t *kind, unsigned fields, uint8_t first, uint8_t last)
{
    unsigned seen = 0;
    for (unsigned f = 0; f < fields; f++)
        if (kind[f] != V8T_SKIP) {
            if (seen & 1u << kind[f])
                return 0;
            seen |= 1u << kind[f];
        }
    for (uint8_t k = first; k <= last; k++)
        if (!(seen & 1u << k))
            return 0;
    return 1;
}

int v8_trace_read_infos(lf_json *j, v8_trace *t)
{
    uint64_t at = j->pos;
    if (!layout_ok(t->info_kind, t->info_fields, V8T_NAME, V8T_COLUMN))
        return lf_fail_at(j->err, at, "unsupported snapshot layout",
                          "trace_function_info_fields lacks one of name, script_name, line, column");
    if (lf_json_expect(j, '[', "trace_function_infos"))
        return -1;
    t->infos_at = j->pos - 1;
    uint32_t row[4] = {0};
    unsigned field = 0;
    if (lf_json_peek(j) != ']')
        for (;;) {
            uint64_t v, value_at = (lf_json_ws(j), j->pos);
            if (lf_json_uint(j, &v))
                return -1;
            uint8_t kind = t->info_kind[field];
            if (kind != V8T_SKIP && v > UINT32_MAX)
                return lf_fail_at(j->err, value_at, "number too large", "in trace_function_infos");
            if (kind != V8T_SKIP)
                row[kind - V8T_NAME] = (uint32_t)v;
            if (++field == t->info_fields) {
                if (lf_vec_reserve((void **)&t->info, &t->info_cap, (t->info_count + 1) * 4, sizeof *t->info))
                    return lf_fail_nomem(j->err, "reading trace_function_infos");
                memcpy(t->info + t->info_count++ * 4, row, sizeof row);
                field = 0;
            }
            int more = lf_json_next(j, ']', "trace_function_infos");
            if (more < 0)
                return -1;
            if (more == 0)
                break;
        }
    else
        j->pos++;
    if (field != 0)
        return lf_fail_at(j->err, j->pos - 1, "wrong number of values",
                          "trace_function_infos ends inside a function");
    t->have_infos = 1;
    return 0;
}

/* One trace node up to its children's '[': its fields but the last. */
static int read_tree_node(lf_json *j, v8_trace *t, uint32_t parent)
{
    v8_trace_node node = {.parent = parent};
    for (unsigned f = 0; f + 1 < t->node_fields; f++) {
        uint64_t v, value_at = (lf_json_ws(j), j->pos);
        if (lf_json_uint(j, &v) || lf_json_expect(j, ',', "trace_tree"))
            return -1;
        if (t->node_kind[f] == V8T_ID && v > UINT32_MAX)
            return lf_fail_at(j->err, value_at, "trace node id out of range", NULL);
        if (t->node_kind[f] == V8T_ID)
            node.id = (uint32_t)v;
        else if (t->node_kind[f] == V8T_INFO) {
            node.info = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
            node.info_at = value_at;
        }
    }
    if (t->node_count >= UINT32_MAX - 1 ||
        lf_vec_reserve((void **)&t->node, &t->node_cap, t->node_count + 1, sizeof *t->node))
        return lf_fail_nomem(j->err, "reading trace_tree");
    t->node[t->node_count++] = node;
    return lf_json_expect(j, '[', "trace_tree");
}

int v8_trace_read_tree(lf_json *j, v8_trace *t)
{
    if (!layout_ok(t->node_kind, t->node_fields, V8T_ID, V8T_CHILDREN) ||
        t->node_kind[t->node_fields - 1] != V8T_CHILDREN)
        return lf_fail_at(j->err, j->pos, "unsupported snapshot layout",
                          "trace_node_fields must hold id and function_info_index, children last");
    if (lf_json_expect(j, '[', "trace_tree"))
        return -1;
    /* open[k]: the row + 1 whose children the k-th open array holds (0: the top level) */
    uint32_t *open = NULL;
    size_t depth = 0, cap = 0;
    int rc = -1;
    if (lf_vec_reserve((void **)&open, &cap, 1, sizeof *open)) {
        lf_fail_nomem(j->err, "reading trace_tree");
        goto out;
    }
    open[depth++] = 0;
    int at_close = lf_json_peek(j) == ']';
    for (;;) {
        if (!at_close) {
            if (read_tree_node(j, t, open[depth - 1]))
                goto out;
            if (lf_vec_reserve((void **)&open, &cap, depth + 1, sizeof *open)) {
                lf_fail_nomem(j->err, "reading trace_tree");
                goto out;
            }
            open[depth++] = (uint32_t)t->node_count;
            at_close = lf_json_peek(j) == ']';
            continue;
        }
        j->pos++; /* the ']' of the innermost open array */
        if (--depth == 0)
            break;
        /* that array was a row's last field: the row ends, its array goes on */
        int more = lf_json_next(j, ']', "trace_tree");
        if (more < 0)
            goto out;
        at_close = more == 0;
        if (more == 0)
            j->pos--; /* the ']' is the enclosing array's, taken above */
    }
    t->have_tree = 1;
    rc = 0;
out:
    lf_big_free(open);
    return rc;
}

/* The frame of function info k, interned on first use. */
static int64_t info_frame(const v8_trace *t, lf_site_table *st, uint32_t *frame_of, uint32_t k,
                          uint32_t file_strings, uint32_t cut, lf_error *err)
{
    if (frame_of[k] != UINT32_MAX)
        return frame_of[k];
    const uint32_t *info = t->info + (size_t)k * 4;
    uint32_t name = info[0], script = info[1];
    if (cut != UINT32_MAX) {
        name = name < file_strings ? name : cut;
        script = script < file_strings ? script : cut;
    } else if (name >= file_strings || script >= file_strings) {
        return lf_fail_at(err, t->infos_at, "string index out of range",
                          "trace function %u names string %u of %u", k,
                          name >= file_strings ? name : script, file_strings);
    }
    int64_t f = lf_site_table_frame(st, V8_STRING_BASE + name, V8_STRING_BASE + script, info[2], info[3]);
    if (f < 0)
        return lf_fail_nomem(err, "reading allocation sites");
    frame_of[k] = (uint32_t)f;
    return f;
}

/* site_of[r]: the site of trace node row r (its stack without the root). */
static int tree_sites(const v8_trace *t, lf_site_table *st, uint32_t *site_of, uint32_t file_strings,
                      uint32_t cut, lf_error *err)
{
    uint32_t *frame_of = malloc((t->info_count + 1) * sizeof *frame_of);
    if (!frame_of)
        return lf_fail_nomem(err, "reading allocation sites");
    memset(frame_of, 0xff, (t->info_count + 1) * sizeof *frame_of);
    int rc = 0;
    for (size_t r = 0; r < t->node_count && rc == 0; r++) {
        const v8_trace_node *n = &t->node[r];
        if (n->info >= t->info_count) {
            rc = lf_fail_at(err, n->info_at, "trace function index out of range",
                            "trace node %u names function %u of %zu", n->id, n->info, t->info_count);
            break;
        }
        if (n->parent == 0) {
            site_of[r] = LF_SITE_NONE; /* V8's root: the stack starts below it */
            continue;
        }
        int64_t f = info_frame(t, st, frame_of, n->info, file_strings, cut, err);
        int64_t s = f < 0 ? -1 : lf_site_table_site(st, site_of[n->parent - 1], (uint32_t)f);
        if (s < 0)
            rc = f < 0 ? -1 : lf_fail_nomem(err, "reading allocation sites");
        else
            site_of[r] = (uint32_t)s;
    }
    free(frame_of);
    return rc;
}

/* Orders sorted id keys. */
static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Trace node ids -> sites: a table by id (site + 1, 0: no such id) when the
 * ids are dense (V8 numbers them 1, 2, ...), else sorted (id << 32 | row)
 * keys. *dense gets the table, or NULL and *sorted the keys; a repeated id
 * is an error. */
static int id_index(const v8_trace *t, const uint32_t *site_of, uint32_t **dense, uint64_t *max_io,
                    uint64_t **sorted, lf_error *err)
{
    uint64_t max = 0;
    for (size_t r = 0; r < t->node_count; r++)
        max = t->node[r].id > max ? t->node[r].id : max;
    *max_io = max;
    *dense = NULL;
    *sorted = NULL;
    if (max <= 2 * (uint64_t)t->node_count + 1024) {
        uint32_t *by_id = calloc(max + 1, sizeof *by_id);
        if (!by_id)
            return lf_fail_nomem(err, "reading allocation sites");
        for (size_t r = 0; r < t->node_count; r++) {
            uint32_t id = t->node[r].id;
            if (by_id[id]) {
                free(by_id);
                return lf_fail_at(err, t->node[r].info_at, "duplicate trace node id", "%u", id);
            }
            by_id[id] = site_of[r] + 1;
        }
        *dense = by_id;
        return 0;
    }
    uint64_t *keys = malloc(t->node_count * sizeof *keys);
    if (!keys)
        return lf_fail_nomem(err, "reading allocation sites");
    for (size_t r = 0; r < t->node_count; r++)
        keys[r] = (uint64_t)t->node[r].id << 32 | r;
    qsort(keys, t->node_count, sizeof *keys, compare_keys);
    for (size_t k = 1; k < t->node_count; k++)
        if (keys[k] >> 32 == keys[k - 1] >> 32) {
            uint64_t r = keys[k] & UINT32_MAX;
            free(keys);
            return lf_fail_at(err, t->node[r].info_at, "duplicate trace node id", "%u", t->node[r].id);
        }
    *sorted = keys;
    return 0;
}

/* raw->node_trace in place: trace node id -> site. Ids not in the tree
 * become "no site"; returns how many there were. */
static uint64_t node_sites(const v8_raw *raw, size_t tree_nodes, const uint32_t *site_of,
                           const uint32_t *dense, uint64_t max, const uint64_t *sorted)
{
    uint32_t *site = raw->node_trace;
    uint64_t unknown = 0;
    for (uint32_t v = 0; v < raw->node_count; v++) {
        uint32_t id = site[v];
        if (id == 0)
            continue;
        if (dense) {
            uint32_t s1 = id <= max ? dense[id] : 0;
            site[v] = s1 ? s1 - 1 : LF_SITE_NONE;
            unknown += s1 == 0;
            continue;
        }
        uint64_t k = lf_lower_bound_u64(sorted, tree_nodes, (uint64_t)id << 32);
        int found = k < tree_nodes && sorted[k] >> 32 == id;
        site[v] = found ? site_of[sorted[k] & UINT32_MAX] : LF_SITE_NONE;
        unknown += !found;
    }
    return unknown;
}

int v8_trace_sites(v8_raw *raw, uint32_t file_strings, uint32_t cut, lf_snapshot *out, lf_error *err)
{
    const v8_trace *t = raw->trace;
    if (!raw->node_trace || !t || !t->have_tree || !t->have_infos)
        return 0; /* no allocation data: object_site stays NULL */
    lf_site_table st;
    uint32_t *site_of = malloc((t->node_count + 1) * sizeof *site_of);
    uint32_t *dense = NULL;
    uint64_t *sorted = NULL, max = 0;
    int rc = -1;
    if (lf_site_table_init(&st)) {
        free(site_of);
        return lf_fail_nomem(err, "reading allocation sites");
    }
    if (!site_of) {
        lf_fail_nomem(err, "reading allocation sites");
        goto out;
    }
    if (tree_sites(t, &st, site_of, file_strings, cut, err) ||
        id_index(t, site_of, &dense, &max, &sorted, err))
        goto out;
    out->stats.warnings += node_sites(raw, t->node_count, site_of, dense, max, sorted);
    if (!lf_snapshot_own(out, raw->node_trace)) {
        lf_fail_nomem(err, "reading allocation sites");
        goto out;
    }
    out->object_site = raw->node_trace;
    raw->node_trace = NULL;
    if (lf_site_table_give(&st, out)) {
        lf_fail_nomem(err, "reading allocation sites");
        goto out;
    }
    rc = 0;
out:
    lf_site_table_free(&st);
    free(site_of);
    free(dense);
    free(sorted);
    return rc;
}
