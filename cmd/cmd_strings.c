/* cmd_strings.c - `leakfind strings`: strings with the same text, and the
 * largest strings (issue 37). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/analysis/dup_strings.h"
#include "cli/cli.h"
#include "commands.h"

static const char strings_usage[] =
    "usage: leakfind strings SNAPSHOT [options]\n"
    "\n"
    "Strings with the same text: one row per text held by two or more string\n"
    "objects, most wasted first: copies, wasted (the bytes all copies retain\n"
    "less one copy's: what sharing one copy would save), bytes (all copies),\n"
    "length (characters; V8: bytes of UTF-8), owner (the class holding most\n"
    "copies, their dominators') and owner_copies, and the text's first 60\n"
    "characters. Java: java.lang.String, Latin-1 and UTF-16 alike; V8: string\n"
    "nodes (V8 keeps the first 1,024 characters of a text) and concatenated\n"
    "strings, read as their parts joined (sliced strings are not read). Needs\n"
    "the dump itself: an .lfs keeps no texts.\n";

typedef struct strings_state {
    uint64_t top;
    int largest;
} strings_state;

static const cli_option strings_options[] = {
    {"top", 0, "N", CLI_COUNT, CLI_AT(strings_state, top),
     .help = "at most N rows (default 50; 0 = all)"},
    {"largest", 0, NULL, CLI_FLAG, CLI_AT(strings_state, largest),
     .help = "the largest strings instead, by retained size: id,\n"
             "retained, length, owner (its dominator's class), text"},
    {0},
};

static const cli_spec strings_spec = {strings_usage, strings_options, 17, NULL};

enum { PREVIEW_CHARS = 60 };

/* The text column: the first PREVIEW_CHARS characters, "..." when cut. */
static void write_text(out_writer *w, const lf_snapshot *s, uint32_t node)
{
    char buf[4 * PREVIEW_CHARS + 8];
    uint64_t chars;
    size_t len = lf_string_text(s, node, PREVIEW_CHARS, buf, sizeof buf - 4, &chars);
    if (chars > PREVIEW_CHARS) {
        memcpy(buf + len, "...", 3);
        len += 3;
    }
    out_str(w, buf, len);
}

static void write_class(out_writer *w, const lf_snapshot *s, uint32_t cls)
{
    if (cls == UINT32_MAX) {
        out_cstr(w, "(root)");
        return;
    }
    lf_str name = lf_snapshot_class_name(s, cls);
    out_str(w, name.ptr, name.len);
}

static void show_duplicates(out_writer *w, const lf_snapshot *s, const lf_string_set *set, uint64_t top)
{
    for (uint64_t i = 0; i < set->group_count && (top == 0 || i < top); i++) {
        const lf_dup_group *g = &set->group[i];
        const lf_string_obj *first = &set->str[g->first];
        out_u64(w, g->copies);
        out_bytes(w, g->wasted);
        out_bytes(w, g->bytes);
        out_u64(w, first->chars);
        write_class(w, s, g->owner_class);
        out_u64(w, g->owner_copies);
        write_text(w, s, first->node);
        out_row_end(w);
    }
}

static const lf_snapshot *sort_snapshot;

static int by_retained(const void *pa, const void *pb)
{
    const lf_string_obj *a = pa, *b = pb;
    uint64_t ra = lf_snapshot_retained(sort_snapshot, a->node), rb = lf_snapshot_retained(sort_snapshot, b->node);
    if (ra != rb)
        return ra > rb ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

static void show_largest(out_writer *w, const lf_snapshot *s, lf_string_set *set, uint64_t top)
{
    sort_snapshot = s;
    qsort(set->str, set->count, sizeof *set->str, by_retained);
    for (uint64_t i = 0; i < set->count && (top == 0 || i < top); i++) {
        const lf_string_obj *o = &set->str[i];
        uint32_t d = s->idom[o->node];
        cli_write_id(w, s, o->node);
        out_bytes(w, lf_snapshot_retained(s, o->node));
        out_u64(w, o->chars);
        write_class(w, s, d < s->object_count ? s->object_class[d] : UINT32_MAX);
        write_text(w, s, o->node);
        out_row_end(w);
    }
}

int cmd_strings(int argc, char **argv)
{
    cli_context ctx = {0};
    strings_state opt = {50, 0};
    const char *path;
    int rc = cli_parse_one(&ctx, argc, argv, &strings_spec, &opt, &path);
    if (rc >= 0)
        return rc;
    lf_snapshot s;
    if ((rc = cli_open_analyzed(&ctx, path, &s)))
        return rc;
    if (!lf_strings_readable(&s)) {
        if (s.source_format == LF_FORMAT_GCDUMP)
            cli_message("error", "'%s' keeps no string texts: a .gcdump records each string's size, not its "
                        "characters", path);
        else
            cli_message("error", "'%s' keeps no string texts: strings needs the HPROF dump or the V8 snapshot "
                        "itself (not an .lfs made from one, a cache or an OCaml snapshot) or a .NET core", path);
        lf_snapshot_free(&s);
        return EXIT_USAGE;
    }
    static const out_column dup_columns[] = {
        {"copies", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"wasted", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"bytes", OUT_U64, LF_CUT_END, OUT_SECONDARY},
        {"length", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"owner", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"owner_copies", OUT_U64, LF_CUT_END, OUT_OPTIONAL},
        {"text", OUT_STR, LF_CUT_END, OUT_KEY},
    };
    static const out_column largest_columns[] = {
        {"id", OUT_ID, LF_CUT_END, OUT_NORMAL},
        {"retained", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"length", OUT_U64, LF_CUT_END, OUT_NORMAL},
        {"owner", OUT_STR, LF_CUT_CLASS, OUT_KEY},
        {"text", OUT_STR, LF_CUT_END, OUT_KEY},
    };
    lf_string_set set;
    lf_error err;
    if (lf_strings_find(&s, ctx.threads, &set, &err)) {
        lf_snapshot_free(&s);
        return cli_input_error(path, &err);
    }
    out_writer *w = opt.largest ? out_begin(stdout, ctx.format, largest_columns, 5)
                                : out_begin(stdout, ctx.format, dup_columns, 7);
    if (opt.largest)
        show_largest(w, &s, &set, opt.top);
    else
        show_duplicates(w, &s, &set, opt.top);
    out_end(w);
    lf_strings_free(&set);
    lf_snapshot_free(&s);
    return EXIT_OK;
}
