/* v8_string_text.c - a V8 string's text, concatenations joined
 * (v8_string_text.h). A concatenation is walked depth first with a stack of
 * its own (left-deep trees from `s += x` in a loop are thousands deep). */
#include "v8_string_text.h"

#include <stdlib.h>
#include <string.h>

#include "../v8/v8_values.h"

#define MAX_PARTS 4096

static int class_is(const lf_snapshot *s, uint32_t cls, const char *name)
{
    lf_str n = lf_snapshot_class_name(s, cls);
    return n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0;
}

int lf_v8_string_kind(const lf_snapshot *s, uint32_t cls)
{
    if (cls >= s->class_count)
        return 0;
    return class_is(s, cls, "(string)") ? 1 : class_is(s, cls, "(concatenated string)") ? 2 : 0;
}

/* The parts of a concatenation: its "first" and "second" edges' targets. */
static void parts_of(const lf_snapshot *s, uint32_t node, uint32_t *first, uint32_t *second)
{
    *first = *second = LF_NODE_NONE;
    char label[16];
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < lf_snapshot_edges_end(s, node); e++) {
        size_t n = lf_snapshot_edge_label(s, e, label, sizeof label);
        uint32_t to = s->edge_target[e] & ~LF_EDGE_WEAK;
        if (n == 5 && memcmp(label, "first", 5) == 0)
            *first = to;
        else if (n == 6 && memcmp(label, "second", 6) == 0)
            *second = to;
    }
}

size_t lf_v8_text_prefix(lf_str text, size_t room)
{
    size_t n = text.len < room ? text.len : room;
    while (n > 0 && n < text.len && ((unsigned char)text.ptr[n] & 0xc0) == 0x80)
        n--;
    return n;
}

int lf_v8_plain_texts(const lf_snapshot *s, const uint32_t *node, size_t n, lf_str *text, lf_error *err)
{
    uint32_t *name = malloc((n + 1) * sizeof *name);
    uint8_t *type = malloc(n + 1);
    int rc = name && type ? lf_v8_node_names(lf_v8_lazy(s), s, node, n, name, type, err)
                          : lf_fail_nomem(err, "reading strings");
    for (size_t i = 0; rc == 0 && i < n; i++)
        text[i] = lf_snapshot_string(s, name[i]);
    free(name);
    free(type);
    return rc;
}

/* Appends leaf's name to buf as far as it fits, on a character boundary. */
static void append_leaf(const lf_snapshot *s, uint32_t leaf, char *buf, size_t cap, size_t *len,
                        uint64_t *full)
{
    uint32_t name;
    uint8_t type;
    lf_error err;
    if (lf_v8_node_names(lf_v8_lazy(s), s, &leaf, 1, &name, &type, &err))
        return;
    lf_str text = lf_snapshot_string(s, name);
    *full += text.len;
    size_t n = lf_v8_text_prefix(text, cap - 1 - *len);
    memcpy(buf + *len, text.ptr, n);
    *len += n;
}

size_t lf_v8_string_text(const lf_snapshot *s, uint32_t node, char *buf, size_t cap, uint64_t *full)
{
    uint32_t stack[MAX_PARTS + 2]; /* each part pushed once: no deeper than the parts */
    size_t depth = 0, len = 0, parts = 0;
    *full = 0;
    if (!lf_v8_lazy(s) || cap == 0 || !lf_v8_string_kind(s, s->object_class[node]))
        return 0;
    stack[depth++] = node;
    while (depth) {
        uint32_t v = stack[--depth];
        int kind = lf_v8_string_kind(s, s->object_class[v]);
        uint32_t first = LF_NODE_NONE, second = LF_NODE_NONE;
        if (kind == 2)
            parts_of(s, v, &first, &second);
        if (kind == 1) {
            append_leaf(s, v, buf, cap, &len, full);
        } else if (first == LF_NODE_NONE || second == LF_NODE_NONE || (parts += 2) > MAX_PARTS) {
            *full = 0; /* a part not known (a sliced string), or too many: no text */
            buf[0] = '\0';
            return 0;
        } else {
            stack[depth++] = second;
            stack[depth++] = first;
        }
    }
    buf[len] = '\0';
    return len;
}
