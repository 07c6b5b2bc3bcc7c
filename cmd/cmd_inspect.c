/* cmd_inspect.c - `leakfind inspect`: one object as a person wants to see
 * it: what it is and what it retains, who holds it (its dominator and its
 * shortest path from a GC root), its fields with their values, and with
 * --referrers every object that points at it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../graph/paths.h"
#include "cli/cli.h"
#include "cli/which_object.h"
#include "cli/object_id.h"
#include "cli/path_rows.h"
#include "commands.h"
#include "inspect/inspect_rows.h"

static const char inspect_usage[] =
    "usage: leakfind inspect SNAPSHOT ID [options]\n"
    "\n"
    "One object: its class, shallow and retained size, its immediate dominator,\n"
    "its shortest strong path from a GC root, and its values. ID is what\n"
    "'dominators' and 'path' print: 0x7f3a1c08 (Java), @12345 (V8), 42 (text graph).\n"
    "Java: every field (superclasses' too) decoded from the dump, references with\n"
    "the object they name, Strings, char[] and byte[] as text, a class's static\n"
    "fields, an array's elements. V8: properties and elements by name and edge\n"
    "type, strings and numbers as text, a closure's captured variables (section\n"
    "context). .lfs and text graphs hold references only: their edges.\n"
    "Rows: section (object, dominator, path, field, static, element, context,\n"
    "edge, referrer, note), index, name, kind, value, id, class, shallow, retained.\n";

typedef struct inspect_state {
    int referrers, all;
    uint64_t max_string, elements;
} inspect_state;

static const cli_option inspect_options[] = {
    {"referrers", 0, NULL, CLI_FLAG, CLI_AT(inspect_state, referrers),
     .help = "also every object that points at it, by which field"},
    {"max-string", 0, "N", CLI_COUNT, CLI_AT(inspect_state, max_string),
     .help = "characters of a text shown (default 200; the rest is\n"
             "said as \"[... N more chars]\")",
     .max = 1u << 24, .what = "a number of characters up to 16777216"},
    {"elements", 0, "N", CLI_COUNT, CLI_AT(inspect_state, elements),
     .help = "array elements (and referrers) shown (default 20)"},
    {"all", 0, NULL, CLI_FLAG, CLI_AT(inspect_state, all), .help = "every element and referrer"},
    {0},
};

static const cli_spec inspect_spec = {inspect_usage, inspect_options, 22, NULL};

/* The shortest strong path from a GC root (a weak one when there is none),
 * one row per hop: its depth, the field holding it, the root at depth 0. */
static int path_rows_of(const inspect_ctx *c, const lf_reverse *rev, uint32_t node)
{
    const lf_snapshot *s = c->s;
    uint8_t *is_root = calloc((size_t)s->object_count / 8 + 1, 1);
    uint32_t *hops = malloc(((size_t)s->object_count + 1) * sizeof *hops);
    uint64_t *root_index = path_root_index(s);
    lf_path_search ps = {0};
    int rc = is_root && hops && root_index ? 0 : -1;
    for (uint32_t r = 0; r < s->root_count && rc == 0; r++)
        is_root[s->root[r].node / 8] |= (uint8_t)(1u << (s->root[r].node % 8));
    if (rc == 0)
        rc = lf_path_search_init(&ps, rev, is_root);
    int64_t len = 0, weak = 0;
    if (rc == 0 && (len = lf_shortest_root_path(&ps, node, 0, NULL, NULL, hops)) == 0)
        weak = (len = lf_shortest_root_path(&ps, node, LF_PATH_FOLLOW_WEAK, NULL, NULL, hops)) > 0;
    lf_edge_question *q = rc == 0 ? malloc(((size_t)len + 1) * sizeof *q) : NULL;
    lf_edge_answer *a = q ? malloc(((size_t)len + 1) * sizeof *a) : NULL;
    for (int64_t k = 1; a && k < len; k++)
        q[k - 1] = (lf_edge_question){hops[k - 1], hops[k]};
    if (!a || lf_edge_batch_answer(s, q, len ? (size_t)len - 1 : 0, a))
        rc = -1;
    if (rc == 0 && len == 0)
        inspect_note(c, "unreachable: no path of references from a GC root");
    else if (rc == 0 && weak)
        inspect_note(c, "reachable only through weak references: not kept alive");
    for (int64_t k = 0; k < len && rc == 0; k++) {
        out_cstr(c->w, "path");
        out_u64(c->w, (uint64_t)k);
        if (k == 0) {
            out_null(c->w);
            path_write_root(c->w, s, root_index, hops[0]);
        } else {
            cli_write_hop(c->w, s, a[k - 1], "(weak) ");
            out_null(c->w);
        }
        out_null(c->w);
        inspect_object(c, hops[k]);
        out_row_end(c->w);
    }
    lf_path_search_free(&ps);
    free(is_root), free(hops), free(root_index), free(q), free(a);
    return rc;
}

/* Every object with an edge to node, a row per such edge, the first
 * `elements` referrers (the reverse index lists a holder once per edge). */
static void referrer_rows(const inspect_ctx *c, const lf_reverse *rev, uint32_t node)
{
    const lf_snapshot *s = c->s;
    uint64_t shown = 0, holders = 0;
    uint32_t last = LF_NODE_NONE;
    char label[4096];
    for (uint64_t i = lf_reverse_begin(rev, node); i < lf_reverse_end(rev, node); i++) {
        uint32_t from = lf_edge_node(rev->source[i]);
        if (from == last)
            continue;
        last = from;
        if (holders++ >= c->elements)
            continue;
        for (uint64_t e = lf_snapshot_edges_begin(s, from); e < lf_snapshot_edges_end(s, from); e++) {
            if (lf_edge_node(s->edge_target[e]) != node)
                continue;
            size_t n = lf_snapshot_edge_label(s, e, label, sizeof label);
            inspect_cells(c, "referrer", UINT64_MAX, label, n,
                          lf_edge_is_weak(s->edge_target[e]) ? "weak" : "strong", NULL, 0);
            inspect_object(c, from);
            out_row_end(c->w);
            shown++;
        }
    }
    if (holders > c->elements) {
        snprintf(label, sizeof label, "%llu more referrers (--elements N or --all)",
                 (unsigned long long)(holders - c->elements));
        inspect_note(c, label);
    } else if (holders == 0) {
        inspect_note(c, "no object refers to it");
    }
    (void)shown;
}

static int inspect_rows_all(const inspect_ctx *c, uint32_t node, const inspect_state *opt, const char *path,
                            const lf_reverse *rev)
{
    if (inspect_header_rows(c, node) || path_rows_of(c, rev, node)) {
        cli_message("error", "out of memory");
        return EXIT_SYSTEM;
    }
    int rc = inspect_value_rows(c, node, path);
    if (rc == EXIT_OK && opt->referrers)
        referrer_rows(c, rev, node);
    return rc;
}

int cmd_inspect(int argc, char **argv)
{
    cli_context ctx = {0};
    inspect_state opt = {0, 0, 200, 20};
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, argc, argv, &inspect_spec, &opt, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (npos == 1) {
        rc = cli_which_object(&ctx, pos[0], "");
        free(pos);
        return rc;
    }
    if (npos != 2) {
        free(pos);
        return cli_usage_error(&ctx, "inspect takes SNAPSHOT and one object ID");
    }
    const char *path = pos[0];
    lf_snapshot s;
    uint32_t node = LF_NODE_NONE;
    if ((rc = cli_open_analyzed(&ctx, path, &s)) != EXIT_OK) {
        free(pos);
        return rc;
    }
    lf_reverse rev = {0};
    lf_graph g = lf_snapshot_graph(&s);
    inspect_ctx c = {NULL, &s, opt.max_string, opt.all ? UINT64_MAX : opt.elements, NULL, 0, NULL, 0};
    c.text_cap = 4 * opt.max_string + 8;
    c.cell_cap = 4 * c.text_cap + 64; /* each byte at worst \xNN, and the cut note */
    c.text = malloc(c.text_cap);
    c.cell = malloc(c.cell_cap);
    rc = cli_find_object(&ctx, &s, pos[1], "an ID", "", &node);
    if (rc == EXIT_OK && (!c.text || !c.cell || lf_reverse_build(&g, &rev))) {
        cli_message("error", "out of memory");
        rc = EXIT_SYSTEM;
    }
    if (rc == EXIT_OK) {
        c.w = out_begin(stdout, ctx.format, inspect_columns, INSPECT_COLUMNS);
        out_table_sections(c.w, 0); /* section */
        rc = inspect_rows_all(&c, node, &opt, path, &rev);
        out_end(c.w);
    }
    lf_reverse_free(&rev);
    free(c.text), free(c.cell), free(pos);
    lf_snapshot_free(&s);
    return rc;
}
