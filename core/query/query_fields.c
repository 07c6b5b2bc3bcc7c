/* query_fields.c - a field's value, read when a query asks for it.
 *
 * A JVM dump read as it is: the field's bytes in the object's record, at
 * the offset its class's layout gives (each class's layout found once,
 * from the field names' string ids, found in one walk over the dump's
 * strings); primitives as well as references, and a class object's static
 * fields. Any other snapshot (V8, OCaml, an .lfs, a cache): the object's
 * reference labelled with the name (V8 properties, JVM reference fields). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/dup_strings.h"
#include "../base/bigmem.h"
#include "../hprof/hprof_format.h"
#include "../hprof/hprof_values.h"
#include "../v8/v8_values.h"
#include "query_ast.h"

enum { CLASS_UNKNOWN, CLASS_PLAIN, CLASS_STRING, CLASS_ENUM, CLASS_BOXED, CLASS_V8_NUMBER };
enum { NO_OFFSET = UINT32_MAX };

typedef struct q_fields {
    const struct hprof_lazy *jvm;   /* NULL: fields are read from labelled references */
    size_t names;                   /* the query's fields, then "name" and "value" */
    lf_hprof_sid *sid;              /* string ids of those names, sorted */
    size_t sid_count;
    uint8_t *laid_out;              /* class -> its layout is known */
    uint32_t *offset;               /* class * names + field -> offset in the field bytes */
    uint8_t *type;                  /* the same -> HPROF basic type */
    uint8_t *class_kind;            /* class -> CLASS_* */
} q_fields;

static size_t name_field(const lf_query *q) { return q->field_count; }
static size_t value_field(const lf_query *q) { return q->field_count + 1; }

static int find_sids(lf_query *q, q_fields *f, lf_error *err)
{
    lf_str *names = malloc(f->names * sizeof *names);
    if (!names)
        return lf_fail_nomem(err, "preparing the query");
    for (size_t k = 0; k < q->field_count; k++)
        names[k] = (lf_str){q->text + q->field[k].at, q->field[k].len};
    names[name_field(q)] = (lf_str){"name", 4};
    names[value_field(q)] = (lf_str){"value", 5};
    int rc = lf_hprof_find_strings(f->jvm, names, f->names, &f->sid, &f->sid_count, err);
    free(names);
    return rc;
}

int q_fields_prepare(lf_query *q, const lf_snapshot *s, lf_error *err)
{
    q_fields *f = calloc(1, sizeof *f);
    if (!f)
        return lf_fail_nomem(err, "preparing the query");
    q->fields = f;
    f->names = q->field_count + 2;
    f->jvm = lf_hprof_lazy(s);
    size_t classes = (size_t)s->class_count + 1;
    if (!(f->class_kind = calloc(classes, 1)))
        return lf_fail_nomem(err, "preparing the query");
    if (!f->jvm)
        return 0;
    f->laid_out = calloc(classes, 1);
    f->offset = malloc(classes * f->names * sizeof *f->offset);
    f->type = malloc(classes * f->names);
    if (!f->laid_out || !f->offset || !f->type)
        return lf_fail_nomem(err, "preparing the query");
    return find_sids(q, f, err);
}

void q_fields_free(lf_query *q)
{
    q_fields *f = q->fields;
    if (!f)
        return;
    free(f->sid);
    free(f->laid_out);
    free(f->offset);
    free(f->type);
    free(f->class_kind);
    free(f);
    q->fields = NULL;
}

/* Which of the names sid holds; SIZE_MAX for none. */
static size_t sid_name(const q_fields *f, uint64_t sid)
{
    size_t lo = 0, hi = f->sid_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->sid[mid].sid < sid)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* a dump that repeats a sid: its first text */
    return lo < f->sid_count && f->sid[lo].sid == sid ? f->sid[lo].name : SIZE_MAX;
}

/* The offsets of the wanted fields in an instance of klass: its own fields
 * shadow its superclasses' (the walk meets them first). */
static int lay_out(q_fields *f, uint32_t klass, lf_error *err)
{
    uint32_t *offset = f->offset + (size_t)klass * f->names;
    uint8_t *type = f->type + (size_t)klass * f->names;
    for (size_t k = 0; k < f->names; k++)
        offset[k] = NO_OFFSET;
    lf_jfield_walk w;
    lf_jfield field;
    int got;
    lf_jfields_layout(&w, f->jvm, klass);
    while ((got = lf_jfields_next(&w, &field, err)) == 1) {
        size_t k = sid_name(f, field.name_sid);
        if (k != SIZE_MAX && offset[k] == NO_OFFSET && field.at < NO_OFFSET)
            offset[k] = (uint32_t)field.at, type[k] = field.value.type;
    }
    if (got < 0)
        return -1;
    f->laid_out[klass] = 1;
    return 0;
}

/* A JVM value as a query value. */
static lf_qvalue jvm_value(q_eval *e, lf_jvalue v)
{
    lf_qvalue out = {LF_QV_NULL, 0, 0, 0, NULL, 0, 0};
    switch (v.type) {
    case HPROF_OBJECT: {
        uint32_t node = v.bits ? lf_snapshot_find_id(e->s, v.bits) : LF_NODE_NONE;
        if (node != LF_NODE_NONE)
            out.type = LF_QV_OBJ, out.node = node;
        return out;
    }
    case HPROF_BOOLEAN: out.type = LF_QV_BOOL, out.i = v.bits != 0; return out;
    case HPROF_CHAR: {
        char *room = q_eval_room(e, 8);
        if (!room)
            return out;
        lf_jtext t = {room, 8, 0, 0, 0};
        uint8_t unit[2] = {(uint8_t)(v.bits >> 8), (uint8_t)v.bits};
        lf_jtext_utf16(unit, 1, 1, 1, &t);
        out.type = LF_QV_STR, out.str = room, out.len = t.len, out.chars = 1;
        return out;
    }
    case HPROF_FLOAT: {
        float x;
        uint32_t bits = (uint32_t)v.bits;
        memcpy(&x, &bits, sizeof x);
        out.type = LF_QV_REAL, out.d = x;
        return out;
    }
    case HPROF_DOUBLE: memcpy(&out.d, &v.bits, sizeof out.d); out.type = LF_QV_REAL; return out;
    case HPROF_BYTE: out.i = (int8_t)v.bits; break;
    case HPROF_SHORT: out.i = (int16_t)v.bits; break;
    case HPROF_INT: out.i = (int32_t)v.bits; break;
    default: out.i = (int64_t)v.bits; break;
    }
    out.type = LF_QV_INT;
    return out;
}

/* Static field k of the class o mirrors into *x: 1, 0 none, -1 with err. */
static int find_static(const q_fields *f, const lf_jobject *o, size_t k, lf_jfield *x, lf_error *err)
{
    lf_jfield_walk w;
    int got;
    lf_jfields_start(&w, f->jvm, o, 1);
    while ((got = lf_jfields_next(&w, x, err)) == 1)
        if (sid_name(f, x->name_sid) == k)
            return 1;
    return got;
}

static int jvm_static(q_eval *e, q_fields *f, const lf_jobject *o, size_t k, lf_qvalue *out)
{
    lf_jfield field;
    int got = find_static(f, o, k, &field, e->err);
    if (got == 1)
        *out = jvm_value(e, field.value);
    return got < 0 ? -1 : 0;
}

static int jvm_field(q_eval *e, q_fields *f, uint32_t obj, size_t k, lf_qvalue *out)
{
    lf_jobject o;
    if (lf_jobject_read(f->jvm, obj, &o, e->err))
        return -1;
    if (o.kind == LF_J_CLASS)
        return jvm_static(e, f, &o, k, out);
    if (o.kind != LF_J_INSTANCE || o.klass >= e->s->class_count)
        return 0;
    if (!f->laid_out[o.klass] && lay_out(f, o.klass, e->err))
        return -1;
    size_t at = (size_t)o.klass * f->names + k;
    if (f->offset[at] == NO_OFFSET)
        return 0;
    lf_jvalue v;
    lf_error short_record;
    /* a record shorter than its class's fields: the reader warned of it and
     * read no references from it; its fields are null here too */
    if (lf_jfield_value(f->jvm, &o, f->offset[at], f->type[at], &v, &short_record) == 0)
        *out = jvm_value(e, v);
    return 0;
}

int q_jvm_instance_field(const lf_query *q, uint32_t klass, uint32_t field, lf_error *err)
{
    q_fields *f = q->fields;
    if (klass >= q->s->class_count || (!f->laid_out[klass] && lay_out(f, klass, err)))
        return klass >= q->s->class_count ? 0 : -1;
    return f->offset[(size_t)klass * f->names + field] != NO_OFFSET;
}

int q_jvm_static_field(const lf_query *q, uint32_t obj, uint32_t field, lf_error *err)
{
    lf_jobject o;
    lf_jfield x;
    if (lf_jobject_read(q->fields->jvm, obj, &o, err))
        return -1;
    return o.kind == LF_J_CLASS ? find_static(q->fields, &o, field, &x, err) : 0;
}

/* The reference of obj labelled with name (any format): the object's
 * labels decoded at once (a V8 label alone is decoded from the last
 * checkpoint on: per edge, that was most of a query's time). */
enum { LABEL_FIELD, LABEL_INTERNAL, LABEL_ELEMENT };

/* Whether an edge of kind is one a label of mode can name. */
static int label_kind(uint8_t kind, int mode)
{
    if (mode == LABEL_ELEMENT)
        return kind == LF_EDGE_KIND_ELEMENT;
    return kind == LF_EDGE_KIND_FIELD || (mode == LABEL_INTERNAL && kind == LF_EDGE_KIND_INTERNAL);
}

static void labelled(q_eval *e, uint32_t obj, const char *name, size_t len, int mode, lf_qvalue *out)
{
    enum { ON_STACK = 256 };
    const lf_snapshot *s = e->s;
    uint64_t first = lf_snapshot_edges_begin(s, obj), count = lf_snapshot_edges_end(s, obj) - first;
    uint8_t kind_here[ON_STACK], *kind = kind_here;
    uint32_t label_here[ON_STACK], *label = label_here;
    if (count > ON_STACK) {
        kind = lf_big_malloc(count);
        label = lf_big_malloc(count * sizeof *label);
    }
    if (kind && label) {
        if (count)
            lf_snapshot_node_edge_infos(s, obj, kind, label);
        for (uint64_t i = 0; i < count; i++) {
            if (!label_kind(kind[i], mode))
                continue;
            char text[16];
            lf_str l = kind[i] == LF_EDGE_KIND_ELEMENT
                           ? (lf_str){text, (size_t)lf_snapshot_label_text(s, kind[i], label[i], text, sizeof text)}
                           : lf_snapshot_string(s, label[i]);
            uint32_t target = lf_edge_node(s->edge_target[first + i]);
            if (l.len == len && memcmp(l.ptr, name, len) == 0 && target < s->object_count) {
                out->type = LF_QV_OBJ;
                out->node = target;
                break;
            }
        }
    } else {
        e->failed = 1;
        lf_fail_nomem(e->err, "reading a field");
    }
    if (count > ON_STACK) {
        lf_big_free(kind);
        lf_big_free(label);
    }
}

int q_field(q_eval *e, uint32_t obj, uint32_t field, lf_qvalue *out)
{
    q_fields *f = e->q->fields;
    *out = (lf_qvalue){LF_QV_NULL, 0, 0, 0, NULL, 0, 0};
    if (obj >= e->s->object_count)
        return 0;
    if (f->jvm && jvm_field(e, f, obj, field, out)) {
        e->failed = 1;
        return -1;
    }
    if (f->jvm)
        return 0;
    const char *name = field == name_field(e->q) ? "name" : field == value_field(e->q) ? "value"
                                                                                       : e->q->text + e->q->field[field].at;
    size_t len = field >= e->q->field_count ? strlen(name) : e->q->field[field].len;
    labelled(e, obj, name, len, LABEL_FIELD, out);
    return 0;
}

int q_element(q_eval *e, uint32_t obj, uint32_t i, lf_qvalue *out)
{
    const lf_snapshot *s = e->s;
    const q_fields *f = e->q->fields;
    *out = (lf_qvalue){LF_QV_NULL, 0, 0, 0, NULL, 0, 0};
    if (obj >= s->object_count)
        return 0;
    if (f->jvm) {
        lf_jobject o;
        if (lf_jobject_read(f->jvm, obj, &o, e->err)) {
            e->failed = 1;
            return -1;
        }
        if ((o.kind == LF_J_OBJ_ARRAY || o.kind == LF_J_PRIM_ARRAY) && i < o.length)
            *out = jvm_value(e, lf_jelement(f->jvm, &o, i));
        return 0;
    }
    char name[16];
    int n = snprintf(name, sizeof name, "[%u]", i);
    labelled(e, obj, name, (size_t)n, LABEL_ELEMENT, out);
    return 0;
}

/* --- objects that stand for a value --------------------------------------- */

static int names_class(const lf_snapshot *s, uint32_t cls, const char *name)
{
    lf_str n = lf_snapshot_class_name(s, cls);
    return n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0;
}

static uint8_t jvm_class_kind(const q_eval *e, uint32_t cls)
{
    static const char *const boxes[] = {"java.lang.Long", "java.lang.Integer", "java.lang.Short",
                                        "java.lang.Byte", "java.lang.Character", "java.lang.Boolean",
                                        "java.lang.Double", "java.lang.Float"};
    const q_fields *f = e->q->fields;
    if (names_class(e->s, cls, "java.lang.String"))
        return CLASS_STRING;
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++)
        if (names_class(e->s, cls, boxes[b]))
            return CLASS_BOXED;
    uint32_t up = lf_jclass_super(f->jvm, cls);
    for (uint32_t hops = 0; up != UINT32_MAX && hops <= e->s->class_count; hops++, up = lf_jclass_super(f->jvm, up))
        if (names_class(e->s, up, "java.lang.Enum"))
            return CLASS_ENUM;
    return CLASS_PLAIN;
}

static uint8_t class_kind(const q_eval *e, uint32_t cls)
{
    q_fields *f = e->q->fields;
    if (cls >= e->s->class_count)
        return CLASS_PLAIN;
    if (f->class_kind[cls] == CLASS_UNKNOWN)
        f->class_kind[cls] = f->jvm ? jvm_class_kind(e, cls)
                             : names_class(e->s, cls, "(number)") && lf_v8_lazy(e->s) ? CLASS_V8_NUMBER
                                                                                    : CLASS_PLAIN;
    return f->class_kind[cls];
}

/* A string's text, up to Q_TEXT_CHARS characters. 1 when obj has one. */
static int text_of(q_eval *e, uint32_t obj, lf_qvalue *out)
{
    enum { Q_TEXT_CHARS = 4096 };
    size_t cap = 4 * Q_TEXT_CHARS + 1, len;
    char *room = q_eval_room(e, cap);
    uint64_t chars;
    if (!room || !lf_string_preview(e->s, obj, Q_TEXT_CHARS, room, cap, &len, &chars))
        return 0;
    *out = (lf_qvalue){LF_QV_STR, 0, 0, 0, room, len, chars};
    return 1;
}

/* A V8 number's value: exposeNumericValues writes it as the name of the
 * string its "value" reference leads to. */
static int v8_number(q_eval *e, uint32_t obj, lf_qvalue *out)
{
    lf_qvalue text = {0};
    labelled(e, obj, "value", 5, LABEL_INTERNAL, &text);
    uint32_t name;
    uint8_t type;
    lf_error err;
    if (text.type != LF_QV_OBJ || lf_v8_node_names(lf_v8_lazy(e->s), e->s, &text.node, 1, &name, &type, &err))
        return 0;
    lf_str digits = lf_snapshot_string(e->s, name);
    char buf[64], *end;
    if (digits.len == 0 || digits.len >= sizeof buf)
        return 0;
    memcpy(buf, digits.ptr, digits.len);
    buf[digits.len] = 0;
    long long i = strtoll(buf, &end, 10);
    if (*end == 0) {
        *out = (lf_qvalue){LF_QV_INT, i, 0, 0, NULL, 0, 0};
        return 1;
    }
    double d = strtod(buf, &end);
    if (*end != 0)
        return 0;
    *out = (lf_qvalue){LF_QV_REAL, 0, d, 0, NULL, 0, 0};
    return 1;
}

int q_object_scalar(q_eval *e, uint32_t obj, lf_qvalue *out)
{
    if (obj >= e->s->object_count)
        return 0;
    lf_qvalue inner;
    switch (class_kind(e, e->s->object_class[obj])) {
    case CLASS_V8_NUMBER: return v8_number(e, obj, out);
    case CLASS_BOXED:
        if (q_field(e, obj, (uint32_t)value_field(e->q), out) || out->type == LF_QV_NULL)
            return 0;
        return 1;
    case CLASS_ENUM:
        if (q_field(e, obj, (uint32_t)name_field(e->q), &inner) || inner.type != LF_QV_OBJ)
            return 0;
        return text_of(e, inner.node, out);
    default:
        return text_of(e, obj, out);
    }
}
