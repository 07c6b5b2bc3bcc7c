/* fastser.c - FastSerialization primitives (fastser.h). */
#include "fastser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/utf8.h"

int fs_need(fs_cursor *c, uint64_t n, const char *what, lf_error *err)
{
    uint64_t left = c->size - c->pos;
    if (n > left)
        return lf_fail_at(err, c->pos, "truncated .gcdump", "%s: need %llu bytes, %llu left", what,
                          (unsigned long long)n, (unsigned long long)left);
    return 0;
}

int fs_u8(fs_cursor *c, uint8_t *v, const char *what, lf_error *err)
{
    if (fs_need(c, 1, what, err))
        return -1;
    *v = c->data[c->pos++];
    return 0;
}

int fs_i32(fs_cursor *c, int32_t *v, const char *what, lf_error *err)
{
    if (fs_need(c, 4, what, err))
        return -1;
    uint32_t u = (uint32_t)c->data[c->pos] | (uint32_t)c->data[c->pos + 1] << 8 |
                 (uint32_t)c->data[c->pos + 2] << 16 | (uint32_t)c->data[c->pos + 3] << 24;
    memcpy(v, &u, sizeof u);
    c->pos += 4;
    return 0;
}

int fs_i64(fs_cursor *c, int64_t *v, const char *what, lf_error *err)
{
    int32_t lo, hi;
    if (fs_need(c, 8, what, err) || fs_i32(c, &lo, what, err) || fs_i32(c, &hi, what, err))
        return -1;
    uint64_t u = (uint64_t)(uint32_t)lo | (uint64_t)(uint32_t)hi << 32;
    memcpy(v, &u, sizeof u);
    return 0;
}

int fs_count(fs_cursor *c, uint64_t min_item_bytes, uint32_t *count, const char *what, lf_error *err)
{
    uint64_t at = c->pos;
    int32_t n;
    if (fs_i32(c, &n, what, err))
        return -1;
    if (n < 0)
        return lf_fail_at(err, at, "bad .gcdump", "%s: a count of %d", what, n);
    uint64_t left = c->size - c->pos;
    if ((uint64_t)n * min_item_bytes > left)
        return lf_fail_at(err, at, "truncated .gcdump",
                          "%s: %d of at least %llu bytes each, %llu bytes left", what, n,
                          (unsigned long long)min_item_bytes, (unsigned long long)left);
    *count = (uint32_t)n;
    return 0;
}

/* ---- strings: a count of UTF-16 code units, each 1, 2 or 3 bytes */

static int decode_unit(fs_cursor *c, uint32_t *unit, const char *what, lf_error *err)
{
    uint8_t b = c->data[c->pos];
    size_t n = b < 0x80 ? 1 : b < 0xe0 ? 2 : 3;
    if (fs_need(c, n, what, err))
        return -1;
    const uint8_t *p = c->data + c->pos;
    *unit = n == 1 ? b : n == 2 ? (uint32_t)(b & 0x1f) << 6 | (p[1] & 0x3f)
                                : (uint32_t)(b & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
    c->pos += n;
    return 0;
}

/* The units, joined where a high surrogate has its low one after it; each
 * is read once, the one after a high surrogate looked at before it is taken. */
static int decode_units(fs_cursor *c, fs_string *s, uint32_t units, const char *what, lf_error *err)
{
    int64_t next = -1;
    for (uint32_t i = 0; i < units; i++) {
        uint32_t u;
        if (next >= 0) {
            u = (uint32_t)next;
        } else if (fs_need(c, 1, what, err) || decode_unit(c, &u, what, err)) {
            return -1;
        }
        next = -1;
        if (u >= 0xd800 && u < 0xdc00 && i + 1 < units) {
            uint32_t after;
            if (fs_need(c, 1, what, err) || decode_unit(c, &after, what, err))
                return -1;
            next = after;
        }
        int took_next;
        s->len += lf_utf8_put(s->text + s->len, lf_utf16_code_point(u, next, &took_next));
        if (took_next) {
            next = -1;
            i++;
        }
    }
    s->text[s->len] = 0;
    return 0;
}

int fs_read_string(fs_cursor *c, fs_string *s, const char *what, lf_error *err)
{
    uint64_t at = c->pos;
    int32_t units;
    if (fs_i32(c, &units, what, err))
        return -1;
    s->len = 0;
    s->is_null = units == -1;
    if (units == -1) {
        if (s->text)
            s->text[0] = 0;
        return 0;
    }
    if (units < 0 || (uint64_t)units > c->size - c->pos)
        return lf_fail_at(err, at, "bad .gcdump", "%s: a string of %d characters, %llu bytes left", what,
                          units, (unsigned long long)(c->size - c->pos));
    size_t want = (size_t)units * 3 + 1; /* a unit is at most 3 bytes of UTF-8, a pair 4 */
    if (want > s->cap) {
        char *grown = realloc(s->text, want);
        if (!grown)
            return lf_fail_nomem(err, "a .gcdump string");
        s->text = grown;
        s->cap = want;
    }
    return decode_units(c, s, (uint32_t)units, what, err);
}

int fs_skip_string(fs_cursor *c, const char *what, lf_error *err)
{
    uint64_t at = c->pos;
    int32_t units;
    if (fs_i32(c, &units, what, err))
        return -1;
    if (units == -1)
        return 0;
    if (units < 0 || (uint64_t)units > c->size - c->pos)
        return lf_fail_at(err, at, "bad .gcdump", "%s: a string of %d characters, %llu bytes left", what,
                          units, (unsigned long long)(c->size - c->pos));
    for (int32_t i = 0; i < units; i++) {
        uint32_t u;
        if (fs_need(c, 1, what, err) || decode_unit(c, &u, what, err))
            return -1;
    }
    return 0;
}

void fs_string_free(fs_string *s)
{
    free(s->text);
    *s = (fs_string){0};
}

/* ---- type records */

static int expect_tag(fs_cursor *c, uint8_t want, const char *what, lf_error *err)
{
    uint64_t at = c->pos;
    uint8_t tag;
    if (fs_u8(c, &tag, what, err))
        return -1;
    if (tag != want)
        return lf_fail_at(err, at, "bad .gcdump", "%s: tag 0x%02x where 0x%02x belongs", what, tag, want);
    return 0;
}

static int read_type_record(fs_cursor *c, fs_types *seen, fs_type *type, lf_error *err)
{
    uint64_t at = c->pos - 1; /* its BeginObject: what later references name */
    fs_string name = {0};
    if (expect_tag(c, FS_TAG_NULL, "a type record", err) ||
        fs_i32(c, &type->version, "a type's version", err) ||
        fs_i32(c, &type->min_reader_version, "a type's minimum reader version", err) ||
        fs_read_string(c, &name, "a type's name", err)) {
        fs_string_free(&name);
        return -1;
    }
    snprintf(type->name, sizeof type->name, "%s", name.is_null ? "" : name.text);
    fs_string_free(&name);
    if (expect_tag(c, FS_TAG_END_OBJECT, "the end of a type record", err))
        return -1;
    if (seen->count < sizeof seen->at / sizeof seen->at[0]) {
        seen->at[seen->count] = at;
        seen->type[seen->count++] = *type;
    }
    return 0;
}

int fs_read_type(fs_cursor *c, fs_types *seen, fs_type *type, lf_error *err)
{
    uint64_t at = c->pos;
    uint8_t tag;
    if (fs_u8(c, &tag, "a type reference", err))
        return -1;
    if (tag == FS_TAG_BEGIN_OBJECT)
        return read_type_record(c, seen, type, err);
    if (tag != FS_TAG_OBJECT_REF)
        return lf_fail_at(err, at, "bad .gcdump", "a type reference: tag 0x%02x", tag);
    int32_t label;
    if (fs_i32(c, &label, "a type reference", err))
        return -1;
    for (size_t i = 0; i < seen->count; i++)
        if (seen->at[i] == (uint32_t)label) {
            *type = seen->type[i];
            return 0;
        }
    return lf_fail_at(err, at, "bad .gcdump", "a type reference to offset %u, where no type was read",
                      (uint32_t)label);
}

/* ---- forward references and tagged fields */

static int read_forward_table(fs_cursor *c, lf_error *err)
{
    c->forward_read = 1;
    if (c->size < FS_HEADER_LEN + 8)
        return lf_fail_at(err, c->size, "truncated .gcdump", "no trailer at the end of the file");
    fs_cursor t = {c->data, c->size, c->size - 4, NULL, 0, 1};
    int32_t trailer, table;
    if (fs_i32(&t, &trailer, "the trailer's offset", err))
        return -1;
    t.pos = (uint32_t)trailer;
    if (t.pos >= c->size || fs_i32(&t, &table, "the forward-reference table's offset", err))
        return lf_fail_at(err, c->size - 4, "bad .gcdump", "the trailer's offset %u is not in the file",
                          (uint32_t)trailer);
    t.pos = (uint32_t)table;
    uint32_t count;
    if (t.pos >= c->size || fs_count(&t, 4, &count, "the forward-reference table", err))
        return lf_fail_at(err, (uint32_t)trailer, "bad .gcdump",
                          "the forward-reference table's offset %u is not in the file", (uint32_t)table);
    c->forward = t.data + t.pos;
    c->forward_count = count;
    return 0;
}

int fs_forward(fs_cursor *c, int32_t idx, uint64_t *offset, lf_error *err)
{
    if (!c->forward_read && read_forward_table(c, err))
        return -1;
    if (idx < 0 || (uint32_t)idx >= c->forward_count)
        return lf_fail_at(err, c->pos, "bad .gcdump", "forward reference %d of %u", idx, c->forward_count);
    const uint8_t *p = c->forward + (size_t)idx * 4;
    *offset = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    if (*offset > c->size)
        return lf_fail_at(err, c->pos, "bad .gcdump", "forward reference %d to offset %llu, past the end",
                          idx, (unsigned long long)*offset);
    return 0;
}

/* The bytes a tagged field's value takes after its tag; -1: not a value. */
static int64_t tagged_value_bytes(uint8_t tag)
{
    switch (tag) {
    case FS_TAG_NULL: return 0;
    case FS_TAG_BYTE: return 1;
    case FS_TAG_INT16: return 2;
    case FS_TAG_INT32:
    case FS_TAG_OBJECT_REF:
    case FS_TAG_FORWARD_REF:
    case FS_TAG_FORWARD_DEF: return 4;
    case FS_TAG_INT64: return 8;
    default: return -1;
    }
}

/* One step of the scan; depth counts the objects opened inside. */
static int skip_one_tag(fs_cursor *c, uint8_t tag, int64_t *depth, lf_error *err)
{
    uint64_t at = c->pos - 1;
    int64_t bytes = tagged_value_bytes(tag);
    if (bytes >= 0)
        return fs_need(c, (uint64_t)bytes, "a tagged field", err) ? -1 : (c->pos += (uint64_t)bytes, 0);
    int32_t n;
    uint64_t to;
    switch (tag) {
    case FS_TAG_BEGIN_OBJECT:
    case FS_TAG_BEGIN_PRIVATE: (*depth)++; return 0;
    case FS_TAG_END_OBJECT: (*depth)--; return 0;
    case FS_TAG_STRING: return fs_skip_string(c, "a tagged string", err);
    case FS_TAG_BLOB:
        if (fs_i32(c, &n, "a blob's size", err))
            return -1;
        if (n < 0 || fs_need(c, (uint64_t)n, "a blob", err))
            return n < 0 ? lf_fail_at(err, at, "bad .gcdump", "a blob of %d bytes", n) : -1;
        c->pos += (uint64_t)n;
        return 0;
    case FS_TAG_SKIP_REGION:
        if (fs_i32(c, &n, "a skipped region", err) || fs_forward(c, n, &to, err))
            return -1;
        if (to < c->pos)
            return lf_fail_at(err, at, "bad .gcdump", "a skipped region that ends before it starts");
        c->pos = to;
        return 0;
    default: return lf_fail_at(err, at, "bad .gcdump", "tag 0x%02x among an object's fields", tag);
    }
}

int fs_skip_tagged_to_end(fs_cursor *c, lf_error *err)
{
    int64_t depth = 0;
    while (depth >= 0) {
        uint8_t tag;
        if (fs_u8(c, &tag, "an object's end", err) || skip_one_tag(c, tag, &depth, err))
            return -1;
    }
    return 0;
}
