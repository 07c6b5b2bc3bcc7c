/* inspect_hprof.c - `inspect` on a JVM dump: fields, statics and elements
 * decoded from the object's own record (core/hprof/hprof_values.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/hprof/hprof_format.h"
#include "../../core/hprof/hprof_values.h"
#include "../../core/base/vec.h"
#include "../cli/cli.h"
#include "inspect_rows.h"
#include "../../core/base/bigmem.h"

static const char *type_name(uint8_t type)
{
    static const char *const names[] = {NULL, "object", "object", NULL, "boolean", "char",
                                        "float", "double", "byte", "short", "int", "long"};
    return type < 12 && names[type] ? names[type] : "?";
}

/* The shortest decimal that reads back as the same float or double. */
static size_t format_real(double v, int is_float, char *buf, size_t size)
{
    int n = 0;
    for (int digits = 1; digits <= 17; digits++) {
        n = snprintf(buf, size, "%.*g", digits, v);
        double back = strtod(buf, NULL);
        if (is_float ? (float)back == (float)v : back == v)
            break;
    }
    return n < 0 ? 0 : (size_t)n;
}

static size_t format_primitive(lf_jvalue v, char *buf, size_t size)
{
    uint32_t u32 = (uint32_t)v.bits;
    float f;
    double d;
    int n;
    switch (v.type) {
    case HPROF_BOOLEAN: n = snprintf(buf, size, "%s", v.bits ? "true" : "false"); break;
    case HPROF_CHAR: {
        lf_jtext t = {buf, size, 0, 0, 0};
        uint8_t unit[2] = {(uint8_t)(v.bits >> 8), (uint8_t)v.bits};
        lf_jtext_utf16(unit, 1, 1, 1, &t);
        return t.len;
    }
    case HPROF_FLOAT: memcpy(&f, &u32, sizeof f); return format_real(f, 1, buf, size);
    case HPROF_DOUBLE: memcpy(&d, &v.bits, sizeof d); return format_real(d, 0, buf, size);
    case HPROF_BYTE: n = snprintf(buf, size, "%d", (int8_t)v.bits); break;
    case HPROF_SHORT: n = snprintf(buf, size, "%d", (int16_t)v.bits); break;
    case HPROF_INT: n = snprintf(buf, size, "%d", (int32_t)u32); break;
    default: n = snprintf(buf, size, "%lld", (long long)v.bits); break;
    }
    return n < 0 ? 0 : (size_t)n;
}

/* node's text as one cell (escaped, cut at max_string); 0 when node is not
 * text. -1 on a damaged record, after the message. */
static int64_t text_cell(const inspect_ctx *c, const struct hprof_lazy *l, uint32_t node, const char *path)
{
    lf_jtext t = {c->text, c->text_cap, 0, 0, 0};
    lf_error err = {0};
    int is = lf_jtext_read(l, c->s, node, c->max_string, &t, &err);
    if (is < 0) {
        cli_input_error(path, &err);
        return -1;
    }
    if (!is)
        return 0;
    return (int64_t)cli_escape_text(t.buf, t.len, t.chars - t.shown, c->cell, c->cell_cap);
}

/* One value's row: a primitive's text, or a reference's target (with its
 * text when it is a String or a char[] / byte[]). */
static int value_row(const inspect_ctx *c, const struct hprof_lazy *l, const char *section, uint64_t index,
                     lf_str name, lf_jvalue v, const char *path)
{
    char buf[64];
    uint32_t target = LF_NODE_NONE;
    const char *value = buf;
    size_t len;
    if (v.type != HPROF_OBJECT) {
        len = format_primitive(v, buf, sizeof buf);
        if (v.type == HPROF_CHAR)
            len = cli_escape_text(buf, len, 0, c->cell, c->cell_cap), value = c->cell;
    } else if (v.bits == 0) {
        len = 4, value = "null";
    } else if ((target = lf_snapshot_find_id(c->s, v.bits)) == LF_NODE_NONE) {
        len = (size_t)snprintf(buf, sizeof buf, "0x%llx (not in the dump)", (unsigned long long)v.bits);
    } else {
        int64_t n = text_cell(c, l, target, path);
        if (n < 0)
            return EXIT_INPUT;
        value = n ? c->cell : NULL;
        len = (size_t)n;
    }
    inspect_cells(c, section, index, name.ptr, name.len, type_name(v.type), value, len);
    inspect_object(c, target);
    out_row_end(c->w);
    return EXIT_OK;
}

/* The fields (or statics) of o: their names found in one pass over the
 * dump's strings, then a row each. */
static int field_rows(const inspect_ctx *c, const struct hprof_lazy *l, const lf_jobject *o, int statics,
                      const char *path)
{
    lf_jfield_walk w;
    lf_jfield f;
    lf_error err = {0};
    uint64_t *sid = NULL;
    lf_str *name = NULL;
    size_t count = 0, cap = 0;
    int got, rc = EXIT_OK;
    lf_jfields_start(&w, l, o, statics);
    while ((got = lf_jfields_next(&w, &f, &err)) == 1)
        if (lf_vec_reserve((void **)&sid, &cap, count + 1, sizeof *sid))
            break;
        else
            sid[count++] = f.name_sid;
    name = malloc((count + 1) * sizeof *name);
    if (got == 1 || !name) {
        cli_message("error", "out of memory");
        rc = EXIT_SYSTEM;
    } else if (got < 0 || lf_hprof_names(l, sid, count, name, &err)) {
        rc = cli_input_error(path, &err);
    }
    lf_jfields_start(&w, l, o, statics);
    for (size_t i = 0; i < count && rc == EXIT_OK && lf_jfields_next(&w, &f, &err) == 1; i++) {
        lf_str n = name[i].ptr ? name[i] : (lf_str){"?", 1};
        rc = value_row(c, l, statics ? "static" : "field", UINT64_MAX, n, f.value, path);
    }
    lf_big_free(sid);
    free(name);
    return rc;
}

static int element_rows(const inspect_ctx *c, const struct hprof_lazy *l, const lf_jobject *o, const char *path)
{
    uint64_t shown = o->length < c->elements ? o->length : c->elements;
    int rc = EXIT_OK;
    for (uint64_t i = 0; i < shown && rc == EXIT_OK; i++)
        rc = value_row(c, l, "element", i, (lf_str){NULL, 0}, lf_jelement(l, o, i), path);
    if (rc == EXIT_OK && shown < o->length) {
        char note[96];
        snprintf(note, sizeof note, "%llu more elements (--elements N or --all)",
                 (unsigned long long)(o->length - shown));
        inspect_note(c, note);
    }
    return rc;
}

int inspect_hprof_values(const inspect_ctx *c, uint32_t node, const char *path)
{
    const struct hprof_lazy *l = lf_hprof_lazy(c->s);
    if (!l) {
        inspect_note(c, "values are read from the dump itself: a cached or converted analysis has none");
        return inspect_plain_edges(c, node);
    }
    lf_jobject o;
    lf_error err = {0};
    if (lf_jobject_read(l, node, &o, &err))
        return cli_input_error(path, &err);
    switch (o.kind) {
    case LF_J_INSTANCE: return field_rows(c, l, &o, 0, path);
    case LF_J_CLASS: return field_rows(c, l, &o, 1, path);
    default: return element_rows(c, l, &o, path);
    }
}

size_t inspect_hprof_text(const inspect_ctx *c, uint32_t node, char *out, size_t size, const char **kind)
{
    static const char *const kinds[] = {"instance", "class", "object array", "primitive array"};
    const struct hprof_lazy *l = lf_hprof_lazy(c->s);
    lf_jobject o;
    lf_error err = {0};
    *kind = NULL;
    if (!l || lf_jobject_read(l, node, &o, &err))
        return 0; /* a damaged record is reported with the values */
    *kind = kinds[o.kind];
    lf_jtext t = {c->text, c->text_cap, 0, 0, 0};
    if (lf_jtext_read(l, c->s, node, c->max_string, &t, &err) != 1)
        return 0;
    return cli_escape_text(t.buf, t.len, t.chars - t.shown, out, size);
}

size_t inspect_hprof_key_text(const inspect_ctx *c, uint32_t node, char *out, size_t size)
{
    const struct hprof_lazy *l = lf_hprof_lazy(c->s);
    const char *kind;
    lf_str cls = lf_snapshot_class_name(c->s, c->s->object_class[node]);
    size_t n = cls.len == 16 && memcmp(cls.ptr, "java.lang.String", 16) == 0
                   ? inspect_hprof_text(c, node, out, size, &kind) : 0;
    static const char *const boxes[] = {"java.lang.Long", "java.lang.Integer", "java.lang.Short",
                                        "java.lang.Byte", "java.lang.Character", "java.lang.Boolean",
                                        "java.lang.Double", "java.lang.Float"};
    if (n || !l)
        return n;
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++) {
        if (cls.len != strlen(boxes[i]) || memcmp(cls.ptr, boxes[i], cls.len) != 0)
            continue;
        lf_jobject o;
        lf_jfield_walk w;
        lf_jfield f;
        lf_error err = {0};
        if (lf_jobject_read(l, node, &o, &err) || o.kind != LF_J_INSTANCE)
            return 0;
        lf_jfields_start(&w, l, &o, 0);
        return lf_jfields_next(&w, &f, &err) == 1 && f.value.type != HPROF_OBJECT
                   ? format_primitive(f.value, out, size) : 0;
    }
    return 0;
}
