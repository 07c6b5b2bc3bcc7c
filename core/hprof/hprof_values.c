/* hprof_values.c - see hprof_values.h. */
#include "hprof_values.h"

#include <stdlib.h>
#include <string.h>

#include "../base/utf8.h"
#include "hprof_lazy.h"

/* The node-level hooks tell the JVM reader's decoder from the others. */
const struct hprof_lazy *lf_hprof_lazy(const lf_snapshot *s)
{
    if (!s->lazy || s->format != LF_FORMAT_HPROF || !hprof_lazy_is(s->lazy))
        return NULL;
    return s->lazy->ctx;
}

static int need(const hprof_lazy *l, uint64_t at, uint64_t n, const char *what, lf_error *err)
{
    if (at <= l->size && n <= l->size - at)
        return 0;
    return lf_fail_at(err, at, "truncated record", "%s: need %llu bytes, %llu left", what,
                      (unsigned long long)n, (unsigned long long)(at <= l->size ? l->size - at : 0));
}

/* n (<= 8) bytes at `at`, big-endian; the caller checked the bounds. */
static uint64_t read_be(const hprof_lazy *l, uint64_t at, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | l->data[at + i];
    return v;
}

static uint32_t class_of_id(const hprof_lazy *l, uint64_t id)
{
    uint32_t k = hprof_class_hash_find(l->class_hash_id, l->class_hash_index, l->class_hash_shift, id);
    return k < l->class_count ? k : UINT32_MAX;
}

/* The fixed part of each kind of sub-record after its tag and id. */
static int read_instance(const hprof_lazy *l, lf_jobject *o, uint64_t at, lf_error *err)
{
    const unsigned id = l->id_size;
    if (need(l, at, 4 + id + 4, "INSTANCE DUMP", err))
        return -1;
    o->kind = LF_J_INSTANCE;
    o->klass = class_of_id(l, read_be(l, at + 4, id));
    o->data_len = read_be(l, at + 4 + id, 4);
    o->data_at = at + 4 + id + 4;
    return need(l, o->data_at, o->data_len, "INSTANCE DUMP field bytes", err);
}

static int read_array(const hprof_lazy *l, lf_jobject *o, uint64_t at, int objects, lf_error *err)
{
    const unsigned id = l->id_size;
    if (need(l, at, 4 + 4 + (objects ? id : 1), objects ? "OBJ ARRAY DUMP" : "PRIM ARRAY DUMP", err))
        return -1;
    o->length = read_be(l, at + 4, 4);
    if (objects) {
        o->kind = LF_J_OBJ_ARRAY;
        o->elem_type = HPROF_OBJECT;
        o->klass = class_of_id(l, read_be(l, at + 8, id));
        o->data_at = at + 8 + id;
    } else {
        o->kind = LF_J_PRIM_ARRAY;
        o->elem_type = l->data[at + 8];
        unsigned size = hprof_type_size(o->elem_type, id);
        if (size == 0 || hprof_type_is_ref(o->elem_type))
            return lf_fail_at(err, at + 8, "bad array element type", "type %u", o->elem_type);
        o->klass = l->prim_array_class[o->elem_type] < l->class_count ? l->prim_array_class[o->elem_type]
                                                                      : UINT32_MAX;
        o->data_at = at + 9;
    }
    o->data_len = o->length * hprof_type_size(o->elem_type, id);
    return need(l, o->data_at, o->data_len, "array elements", err);
}

int lf_jobject_read(const hprof_lazy *l, uint32_t node, lf_jobject *o, lf_error *err)
{
    memset(o, 0, sizeof *o);
    o->klass = UINT32_MAX;
    uint64_t at = hprof_record_at(l->record_low, l->record_high, node);
    o->record_at = at;
    if (need(l, at, 1 + l->id_size, "object record", err))
        return -1;
    uint8_t tag = l->data[at];
    o->id = read_be(l, at + 1, l->id_size);
    at += 1 + l->id_size;
    switch (tag) {
    case HPROF_INSTANCE_DUMP: return read_instance(l, o, at, err);
    case HPROF_OBJ_ARRAY_DUMP: return read_array(l, o, at, 1, err);
    case HPROF_PRIM_ARRAY_DUMP: return read_array(l, o, at, 0, err);
    case HPROF_CLASS_DUMP:
        o->kind = LF_J_CLASS;
        o->klass = class_of_id(l, o->id);
        return 0;
    default:
        return lf_fail_at(err, o->record_at, "not an object record", "sub-record tag 0x%02x", tag);
    }
}

void lf_jfields_start(lf_jfield_walk *w, const hprof_lazy *l, const lf_jobject *o, int statics)
{
    memset(w, 0, sizeof *w);
    w->l = l;
    w->statics = statics;
    w->klass = UINT32_MAX;
    if (o->klass >= l->class_count || (statics != (o->kind == LF_J_CLASS)) ||
        (!statics && o->kind != LF_J_INSTANCE))
        return;
    w->klass = o->klass;
    w->desc_at = statics ? l->classes[o->klass].statics_at : l->classes[o->klass].fields_at;
    w->left = UINT32_MAX; /* the count is read at the first call */
    w->value_at = o->data_at;
    w->value_end = o->data_at + o->data_len;
}

void lf_jfields_layout(lf_jfield_walk *w, const hprof_lazy *l, uint32_t klass)
{
    memset(w, 0, sizeof *w);
    w->l = l;
    w->klass = klass < l->class_count ? klass : UINT32_MAX;
    if (w->klass == UINT32_MAX)
        return;
    w->layout = 1;
    w->desc_at = l->classes[klass].fields_at;
    w->left = UINT32_MAX;
    w->value_end = UINT64_MAX;
}

uint32_t lf_jclass_super(const hprof_lazy *l, uint32_t klass)
{
    if (klass >= l->class_count)
        return UINT32_MAX;
    uint32_t up = l->classes[klass].super_index;
    return up < l->class_count ? up : UINT32_MAX;
}

int lf_jfield_value(const hprof_lazy *l, const lf_jobject *o, uint64_t at, uint8_t type, lf_jvalue *v,
                    lf_error *err)
{
    unsigned size = hprof_type_size(type, l->id_size);
    if (size == 0 || at > o->data_len || size > o->data_len - at)
        return lf_fail_at(err, o->record_at, "truncated record", "INSTANCE DUMP field bytes end before "
                          "its class's fields: need %u bytes at %llu, %llu in all", size,
                          (unsigned long long)at, (unsigned long long)o->data_len);
    *v = (lf_jvalue){type == HPROF_ARRAY_OBJECT ? HPROF_OBJECT : type, read_be(l, o->data_at + at, size)};
    return 0;
}

/* Moves to the next class of the chain with fields; 0 at the end. */
static int next_class(lf_jfield_walk *w, lf_error *err)
{
    const hprof_lazy *l = w->l;
    while (w->left == 0 || w->left == UINT32_MAX) {
        if (w->left == 0) {
            if (w->statics || w->hops++ > l->class_count)
                return 0;
            w->klass = l->classes[w->klass].super_index;
            if (w->klass >= l->class_count)
                return 0;
            w->desc_at = l->classes[w->klass].fields_at;
        }
        if (need(l, w->desc_at, 2, "field count", err))
            return -1;
        w->left = (uint32_t)read_be(l, w->desc_at, 2);
        w->desc_at += 2;
    }
    return 1;
}

int lf_jfields_next(lf_jfield_walk *w, lf_jfield *f, lf_error *err)
{
    const hprof_lazy *l = w->l;
    if (w->klass == UINT32_MAX)
        return 0;
    int more = next_class(w, err);
    if (more <= 0)
        return more;
    const unsigned id = l->id_size;
    if (need(l, w->desc_at, id + 1, "field descriptor", err))
        return -1;
    f->name_sid = read_be(l, w->desc_at, id);
    f->declared_in = w->klass;
    uint8_t type = l->data[w->desc_at + id];
    unsigned size = hprof_type_size(type, id);
    if (size == 0)
        return lf_fail_at(err, w->desc_at + id, "bad field type", "type %u", type);
    w->desc_at += id + 1;
    w->left--;
    uint64_t at = w->statics ? w->desc_at : w->value_at;
    if (w->layout) {
        f->at = at;
        f->value = (lf_jvalue){type == HPROF_ARRAY_OBJECT ? HPROF_OBJECT : type, 0};
        w->value_at += size;
        return 1;
    }
    if (w->statics) {
        if (need(l, at, size, "static field value", err))
            return -1;
        w->desc_at += size;
    } else {
        if (at > w->value_end || size > w->value_end - at)
            return lf_fail_at(err, at, "truncated record", "INSTANCE DUMP field bytes end before "
                              "its class's fields: need %u bytes, %llu left", size,
                              (unsigned long long)(at <= w->value_end ? w->value_end - at : 0));
        w->value_at += size;
    }
    f->at = at;
    f->value = (lf_jvalue){type == HPROF_ARRAY_OBJECT ? HPROF_OBJECT : type, read_be(l, at, size)};
    return 1;
}

lf_jvalue lf_jelement(const hprof_lazy *l, const lf_jobject *o, uint64_t i)
{
    unsigned size = hprof_type_size(o->elem_type, l->id_size);
    return (lf_jvalue){o->elem_type, read_be(l, o->data_at + i * size, size)};
}

/* --- names ---------------------------------------------------------------- */

typedef struct wanted {
    uint64_t sid;
    size_t at;      /* index in the caller's arrays */
} wanted;

static int by_sid(const void *a, const void *b)
{
    uint64_t x = ((const wanted *)a)->sid, y = ((const wanted *)b)->sid;
    return x < y ? -1 : x > y;
}

/* The offset of the first top-level record: after "JAVA PROFILE 1.0.N\0",
 * the id size (4) and the time stamp (8). */
static int first_record(const hprof_lazy *l, uint64_t *at, lf_error *err)
{
    const uint8_t *nul = memchr(l->data, 0, l->size < 64 ? l->size : 64);
    if (!nul)
        return lf_fail_at(err, 0, "truncated header", "no end to the format name");
    *at = (uint64_t)(nul - l->data) + 1 + 4 + 8;
    return need(l, 0, *at, "header", err);
}

/* Marks every wanted entry with this sid (a sid may be asked for twice). */
static void found(wanted *want, size_t n, uint64_t sid, const uint8_t *bytes, uint32_t len, lf_str *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (want[mid].sid < sid)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && want[lo].sid == sid; lo++)
        name[want[lo].at] = (lf_str){(const char *)bytes, len};
}

int lf_hprof_names(const hprof_lazy *l, const uint64_t *sid, size_t n, lf_str *name, lf_error *err)
{
    for (size_t i = 0; i < n; i++)
        name[i] = (lf_str){NULL, 0};
    if (n == 0)
        return 0;
    wanted *want = malloc(n * sizeof *want);
    if (!want)
        return lf_fail_nomem(err, "reading field names");
    for (size_t i = 0; i < n; i++)
        want[i] = (wanted){sid[i], i};
    qsort(want, n, sizeof *want, by_sid);
    uint64_t at = 0;
    int rc = first_record(l, &at, err);
    /* a cut-off dump ends mid-record: the names before the cut are found */
    while (rc == 0 && at + 9 <= l->size) {
        uint8_t tag = l->data[at];
        uint64_t len = read_be(l, at + 5, 4), body = at + 9;
        if (tag == HPROF_STRING && len >= l->id_size && len <= l->size - body)
            found(want, n, read_be(l, body, l->id_size), l->data + body + l->id_size,
                  (uint32_t)(len - l->id_size), name);
        at = body + len;
    }
    free(want);
    return rc;
}

static int by_found_sid(const void *a, const void *b)
{
    uint64_t x = ((const lf_hprof_sid *)a)->sid, y = ((const lf_hprof_sid *)b)->sid;
    return x < y ? -1 : x > y;
}

int lf_hprof_find_strings(const hprof_lazy *l, const lf_str *names, size_t n, lf_hprof_sid **out, size_t *count,
                          lf_error *err)
{
    lf_hprof_sid *found_sid = NULL;
    size_t cap = 0, got = 0;
    uint64_t at = 0;
    int rc = first_record(l, &at, err);
    *out = NULL;
    *count = 0;
    while (rc == 0 && at + 9 <= l->size) {
        uint8_t tag = l->data[at];
        uint64_t len = read_be(l, at + 5, 4), body = at + 9;
        if (tag == HPROF_STRING && len >= l->id_size && len <= l->size - body) {
            const uint8_t *text = l->data + body + l->id_size;
            uint64_t text_len = len - l->id_size;
            for (size_t k = 0; k < n; k++) {
                if (names[k].len != text_len || memcmp(names[k].ptr, text, text_len) != 0)
                    continue;
                if (got == cap) {
                    size_t grown = cap ? 2 * cap : 16;
                    lf_hprof_sid *p = realloc(found_sid, grown * sizeof *p);
                    if (!p) {
                        free(found_sid);
                        return lf_fail_nomem(err, "finding field names");
                    }
                    found_sid = p, cap = grown;
                }
                found_sid[got++] = (lf_hprof_sid){read_be(l, body, l->id_size), (uint32_t)k};
            }
        }
        at = body + len;
    }
    if (rc) {
        free(found_sid);
        return rc;
    }
    if (got)
        qsort(found_sid, got, sizeof *found_sid, by_found_sid);
    *out = found_sid;
    *count = got;
    return 0;
}

/* --- text ----------------------------------------------------------------- */

static void put_utf8(lf_jtext *t, uint32_t c)
{
    t->len += lf_utf8_put(t->buf + t->len, c);
    t->shown++;
}

static void text_begin(lf_jtext *t)
{
    t->len = 0;
    t->chars = 0;
    t->shown = 0;
    if (t->cap)
        t->buf[0] = 0;
}

void lf_jtext_latin1(const uint8_t *p, uint64_t bytes, uint64_t max_chars, lf_jtext *t)
{
    text_begin(t);
    t->chars = bytes;
    for (uint64_t i = 0; i < bytes && t->shown < max_chars && t->len + 5 <= t->cap; i++)
        put_utf8(t, p[i]);
    if (t->cap)
        t->buf[t->len] = 0;
}

static uint32_t utf16_unit(const uint8_t *p, uint64_t i, int big_endian)
{
    return big_endian ? (uint32_t)p[2 * i] << 8 | p[2 * i + 1] : (uint32_t)p[2 * i + 1] << 8 | p[2 * i];
}

void lf_jtext_utf16(const uint8_t *p, uint64_t units, int big_endian, uint64_t max_chars, lf_jtext *t)
{
    text_begin(t);
    for (uint64_t i = 0; i < units; i++) {
        int64_t next = i + 1 < units ? (int64_t)utf16_unit(p, i + 1, big_endian) : -1;
        int took_next;
        uint32_t c = lf_utf16_code_point(utf16_unit(p, i, big_endian), next, &took_next);
        i += (uint64_t)took_next;
        t->chars++;
        if (t->shown < max_chars && t->len + 5 <= t->cap)
            put_utf8(t, c);
    }
    if (t->cap)
        t->buf[t->len] = 0;
}

/* A String's value array and coder: its first reference field and its first
 * byte field (JDK 8-21 String has one of each: value, coder). */
static int string_parts(const hprof_lazy *l, const lf_jobject *o, uint64_t *value, int *coder, lf_error *err)
{
    lf_jfield_walk w;
    lf_jfield f;
    int got, have_value = 0, have_coder = 0;
    *value = 0;
    *coder = 0;
    lf_jfields_start(&w, l, o, 0);
    while ((got = lf_jfields_next(&w, &f, err)) == 1 && !(have_value && have_coder)) {
        if (f.value.type == HPROF_OBJECT && !have_value++)
            *value = f.value.bits;
        else if (f.value.type == HPROF_BYTE && !have_coder++)
            *coder = (int)f.value.bits;
    }
    return got < 0 ? -1 : 0;
}

static int is_named(const lf_snapshot *s, uint32_t klass, const char *name)
{
    if (klass == UINT32_MAX || klass >= s->class_count)
        return 0;
    lf_str n = lf_snapshot_class_name(s, klass);
    return n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0;
}

/* The node of id among node's edge targets (a String's value array is its
 * one reference), else by the ids' search: one id read instead of a binary
 * search's twenty-odd, each a miss in the mapped dump. */
static uint32_t referenced_node(const lf_snapshot *s, uint32_t node, uint64_t id)
{
    uint64_t end = lf_snapshot_edges_end(s, node);
    for (uint64_t e = lf_snapshot_edges_begin(s, node); e < end; e++) {
        uint32_t w = lf_edge_node(s->edge_target[e]);
        if (w < s->object_count && lf_snapshot_object_id(s, w) == id)
            return w;
    }
    return lf_snapshot_find_id(s, id);
}

int lf_jtext_read(const hprof_lazy *l, const lf_snapshot *s, uint32_t node, uint64_t max_chars, lf_jtext *t,
                  lf_error *err)
{
    lf_jobject o;
    int coder = 0;
    text_begin(t);
    if (lf_jobject_read(l, node, &o, err))
        return -1;
    if (o.kind == LF_J_INSTANCE && is_named(s, o.klass, "java.lang.String")) {
        uint64_t value;
        if (string_parts(l, &o, &value, &coder, err))
            return -1;
        uint32_t array = value ? referenced_node(s, node, value) : LF_NODE_NONE;
        if (array == LF_NODE_NONE)
            return 1; /* no value array in the dump: an empty text */
        if (lf_jobject_read(l, array, &o, err))
            return -1;
    }
    if (o.kind != LF_J_PRIM_ARRAY || (o.elem_type != HPROF_CHAR && o.elem_type != HPROF_BYTE))
        return 0;
    const uint8_t *p = l->data + o.data_at;
    if (o.elem_type == HPROF_CHAR)
        lf_jtext_utf16(p, o.length, 1, max_chars, t); /* char[] values are written big-endian */
    else if (coder == 1)
        lf_jtext_utf16(p, o.length / 2, 0, max_chars, t);
    else
        lf_jtext_latin1(p, o.length, max_chars, t);
    return 1;
}
