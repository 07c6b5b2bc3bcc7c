/* textgraph.c - reader for the text graph format. */
#include "textgraph.h"

#include <string.h>

#include "../model/builder.h"

#define MAX_FIELDS 66 /* alloc: record, id and up to 64 frames */

typedef struct text_field {
    const char *ptr;
    size_t len;
} text_field;

static int field_is(text_field f, const char *word)
{
    size_t n = strlen(word);
    return f.len == n && memcmp(f.ptr, word, n) == 0;
}

/* Parses a decimal or 0x-hex unsigned 64-bit number; 0 on success. */
static int parse_u64(text_field f, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    if (f.len > 2 && f.ptr[0] == '0' && (f.ptr[1] == 'x' || f.ptr[1] == 'X')) {
        if (f.len > 18)
            return -1;
        for (i = 2; i < f.len; i++) {
            char c = f.ptr[i];
            unsigned d;
            if (c >= '0' && c <= '9')
                d = (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f')
                d = (unsigned)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                d = (unsigned)(c - 'A' + 10);
            else
                return -1;
            v = v << 4 | d;
        }
        *out = v;
        return 0;
    }
    if (f.len == 0)
        return -1;
    for (i = 0; i < f.len; i++) {
        char c = f.ptr[i];
        if (c < '0' || c > '9')
            return -1;
        unsigned d = (unsigned)(c - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int all_digits(text_field f)
{
    if (f.len == 0)
        return 0;
    for (size_t i = 0; i < f.len; i++)
        if (f.ptr[i] < '0' || f.ptr[i] > '9')
            return 0;
    return 1;
}

int lf_textgraph_detect(const uint8_t *data, uint64_t size)
{
    uint64_t i = 0;
    while (i < size) {
        if (data[i] == '#' || data[i] == '\n' || data[i] == '\r') { /* skip this line */
            while (i < size && data[i] != '\n')
                i++;
            i++;
            continue;
        }
        if (size - i < 5)
            return 0;
        return (memcmp(data + i, "node\t", 5) == 0 || memcmp(data + i, "edge\t", 5) == 0 ||
                memcmp(data + i, "root\t", 5) == 0);
    }
    return 0;
}

static int builder_failed(lf_error *err, uint64_t line, int code, const char *what)
{
    switch (code) {
    case LF_BUILDER_NOMEM:
        return lf_fail_nomem(err, "reading the text graph");
    case LF_BUILDER_DUPLICATE:
        return lf_fail_line(err, line, "duplicate %s", what);
    default:
        return lf_fail_line(err, line, "too many %ss", what);
    }
}

/* Splits "function (file:line:column)" (file, line, column optional, from
 * the right, so a file may hold ':') into builder strings; -1: bad number. */
static int parse_frame(lf_builder *b, text_field f, int64_t *function, int64_t *file,
                       uint64_t *line, uint64_t *column)
{
    text_field fn = f, where = {f.ptr, 0};
    *line = *column = 0;
    const char *open = f.len && f.ptr[f.len - 1] == ')' ? memchr(f.ptr, '(', f.len) : NULL;
    while (open && memchr(open + 1, '(', (size_t)(f.ptr + f.len - open - 1)))
        open = memchr(open + 1, '(', (size_t)(f.ptr + f.len - open - 1));
    if (open && open > f.ptr && open[-1] == ' ') {
        fn.len = (size_t)(open - 1 - f.ptr);
        where.ptr = open + 1;
        where.len = (size_t)(f.ptr + f.len - 1 - where.ptr);
        uint64_t number[2];
        int numbers = 0;
        while (numbers < 2) {
            const char *colon = memrchr(where.ptr, ':', where.len);
            text_field tail = {colon ? colon + 1 : where.ptr, colon ? (size_t)(where.ptr + where.len - colon - 1) : 0};
            if (!colon || parse_u64(tail, &number[numbers]) || number[numbers] > UINT32_MAX)
                break;
            where.len = (size_t)(colon - where.ptr);
            numbers++;
        }
        if (numbers == 2) {
            *line = number[1];
            *column = number[0];
        } else if (numbers == 1) {
            *line = number[0];
        }
    }
    *function = lf_builder_string(b, fn.ptr, fn.len);
    *file = lf_builder_string(b, where.ptr, where.len);
    return *function < 0 ? (int)*function : *file < 0 ? (int)*file : 0;
}

/* alloc <id> <frame>...: the object's allocation stack, innermost first. */
static int parse_alloc(lf_builder *b, const text_field *f, int nf, uint64_t line, lf_error *err)
{
    uint64_t id;
    if (nf < 3)
        return lf_fail_line(err, line, "an alloc record has an id and at least one frame");
    if (parse_u64(f[1], &id))
        return lf_fail_line(err, line, "bad object id in alloc");
    int64_t site = 0;
    for (int i = nf - 1; i >= 2; i--) {
        int64_t function, file, frame = -1;
        uint64_t at_line, at_column;
        int code = parse_frame(b, f[i], &function, &file, &at_line, &at_column);
        if (!code)
            frame = lf_builder_frame(b, (uint32_t)function, (uint32_t)file, (uint32_t)at_line,
                                     (uint32_t)at_column);
        if (frame >= 0)
            site = lf_builder_site(b, (uint32_t)site, (uint32_t)frame);
        if (code < 0 || frame < 0 || site < 0)
            return builder_failed(err, line, code < 0 ? code : frame < 0 ? (int)frame : (int)site,
                                  "site");
    }
    int code = lf_builder_object_site(b, id, (uint32_t)site, 0);
    return code ? builder_failed(err, line, code, "site") : 0;
}

/* node <id> <shallow> <class> */
static int parse_node(lf_builder *b, const text_field *f, int nf, uint64_t line, lf_error *err)
{
    uint64_t id, shallow;
    if (nf != 4)
        return lf_fail_line(err, line, "a node record has 4 fields, this one has %d", nf);
    if (parse_u64(f[1], &id))
        return lf_fail_line(err, line, "bad object id '%.*s'", (int)(f[1].len > 40 ? 40 : f[1].len), f[1].ptr);
    if (parse_u64(f[2], &shallow))
        return lf_fail_line(err, line, "bad shallow size '%.*s'", (int)(f[2].len > 40 ? 40 : f[2].len), f[2].ptr);
    if (f[3].len == 0)
        return lf_fail_line(err, line, "empty class name");
    int64_t cls = lf_builder_class(b, f[3].ptr, f[3].len);
    int code = cls < 0 ? (int)cls : lf_builder_object(b, id, (uint32_t)cls, shallow);
    return code ? builder_failed(err, line, code, "object id") : 0;
}

/* edge <from> <to> <strong|weak> [<field-or-index>] */
static int parse_edge(lf_builder *b, const text_field *f, int nf, uint64_t line, lf_error *err)
{
    uint64_t from, to;
    if (nf != 4 && nf != 5)
        return lf_fail_line(err, line, "an edge record has 4 or 5 fields, this one has %d", nf);
    if (parse_u64(f[1], &from) || parse_u64(f[2], &to))
        return lf_fail_line(err, line, "bad object id in edge");
    int weak;
    if (field_is(f[3], "strong"))
        weak = 0;
    else if (field_is(f[3], "weak"))
        weak = 1;
    else
        return lf_fail_line(err, line, "edge strength must be 'strong' or 'weak'");
    lf_edge_kind kind = LF_EDGE_KIND_NONE;
    uint64_t label = 0;
    if (nf == 5 && all_digits(f[4])) {
        if (parse_u64(f[4], &label) || label > UINT32_MAX)
            return lf_fail_line(err, line, "array index out of range");
        kind = LF_EDGE_KIND_ELEMENT;
    } else if (nf == 5 && f[4].len > 0) {
        int64_t str = lf_builder_string(b, f[4].ptr, f[4].len);
        if (str < 0)
            return builder_failed(err, line, (int)str, "string");
        kind = LF_EDGE_KIND_FIELD;
        label = (uint64_t)str;
    }
    int code = lf_builder_edge(b, from, to, weak, kind, (uint32_t)label);
    return code ? builder_failed(err, line, code, "edge") : 0;
}

/* root <id> <kind> [<name>] */
static int parse_root(lf_builder *b, const text_field *f, int nf, uint64_t line, lf_error *err)
{
    uint64_t id;
    if (nf != 3 && nf != 4)
        return lf_fail_line(err, line, "a root record has 3 or 4 fields, this one has %d", nf);
    if (parse_u64(f[1], &id))
        return lf_fail_line(err, line, "bad object id in root");
    if (f[2].len == 0)
        return lf_fail_line(err, line, "empty root kind");
    int64_t kind = lf_builder_string(b, f[2].ptr, f[2].len);
    int64_t name = nf == 4 ? lf_builder_string(b, f[3].ptr, f[3].len) : 0;
    int code = kind < 0 ? (int)kind : name < 0 ? (int)name
                                               : lf_builder_root(b, id, (uint32_t)kind, (uint32_t)name);
    return code ? builder_failed(err, line, code, "root") : 0;
}

/* Splits [p, line_end) at TABs; the field count, or -1 when over MAX_FIELDS. */
static int split_fields(const char *p, const char *line_end, text_field *f)
{
    int nf = 0;
    for (const char *s = p;;) {
        const char *tab = memchr(s, '\t', (size_t)(line_end - s));
        const char *fe = tab ? tab : line_end;
        if (nf == MAX_FIELDS)
            return -1;
        f[nf].ptr = s;
        f[nf].len = (size_t)(fe - s);
        nf++;
        if (!tab)
            return nf;
        s = tab + 1;
    }
}

static int parse_record(lf_builder *b, const text_field *f, int nf, uint64_t line, lf_error *err)
{
    if (field_is(f[0], "node"))
        return parse_node(b, f, nf, line, err);
    if (field_is(f[0], "edge"))
        return parse_edge(b, f, nf, line, err);
    if (field_is(f[0], "root"))
        return parse_root(b, f, nf, line, err);
    if (field_is(f[0], "alloc"))
        return parse_alloc(b, f, nf, line, err);
    return lf_fail_line(err, line, "unknown record '%.*s' (expected node, edge, root or alloc)",
                        (int)(f[0].len > 20 ? 20 : f[0].len), f[0].ptr);
}

int lf_textgraph_parse(const uint8_t *data, uint64_t size, lf_snapshot *out, lf_error *err)
{
    lf_builder *b = lf_builder_new();
    if (!b)
        return lf_fail_nomem(err, "reading the text graph");
    const char *p = (const char *)data, *end = p + size;
    uint64_t line = 0;
    for (; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        const char *next = nl ? nl + 1 : end;
        if (line_end > p && line_end[-1] == '\r')
            line_end--;
        if (line == 0 && line_end - p == 12 && memcmp(p, "#!stable-ids", 12) == 0)
            lf_builder_set_flags(b, LF_SNAP_IDS_STABLE); /* ids name the same objects across snapshots */
        if (line_end != p && *p != '#') {
            text_field f[MAX_FIELDS];
            int nf = split_fields(p, line_end, f);
            int rc = nf < 0 ? lf_fail_line(err, line + 1, "too many fields")
                            : parse_record(b, f, nf, line + 1, err);
            if (rc) {
                lf_builder_free(b);
                return rc;
            }
        }
        p = next;
    }
    if (lf_builder_finish(b, out, err))
        return -1;
    out->format = LF_FORMAT_TEXT;
    out->source_format = LF_FORMAT_TEXT;
    return 0;
}
