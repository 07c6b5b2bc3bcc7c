/* hprof_thread_name.c - a thread's name, read from its Thread object's
 * name field. */
#include <string.h>

#include "hprof_passes.h"
#include "hprof_values.h"

/* Offset (in instance data) and type of field `name` of class k, searching
 * its own fields, then its superclasses'; -1 when absent. */
static int64_t field_offset(const hprof_reader *r, uint32_t k, const char *name, uint8_t *type)
{
    uint64_t base = 0;
    size_t name_len = strlen(name);
    for (uint32_t depth = 0; k != HPROF_NONE && depth <= r->class_count; depth++) {
        const hprof_class *kc = &r->classes[k];
        hprof_cursor c = {r->data, kc->fields_at, r->size};
        uint16_t n = hprof_u2(&c);
        uint64_t at = 0;
        for (uint16_t i = 0; i < n; i++) {
            uint64_t sid = hprof_id(&c, r->id_size);
            uint8_t t = hprof_u1(&c);
            uint32_t len = 0;
            const uint8_t *s = hprof_string(r, sid, &len);
            if (s && len == name_len && memcmp(s, name, len) == 0) {
                *type = t;
                return (int64_t)(base + at);
            }
            at += hprof_type_size(t, r->id_size);
        }
        base += kc->data_size - (kc->super_index != HPROF_NONE ? r->classes[kc->super_index].data_size : 0);
        k = kc->super_index;
    }
    return -1;
}

/* The value of an instance's field as raw big-endian bytes; NULL when absent. */
static const uint8_t *instance_field(const hprof_reader *r, const node_tables *t, uint32_t node,
                                     const char *name, uint8_t *type)
{
    if (node == LF_NODE_NONE)
        return NULL;
    uint64_t at = hprof_record_at(t->record_low, t->record_high, node);
    if (r->data[at] != HPROF_INSTANCE_DUMP)
        return NULL;
    hprof_cursor c = {r->data, at + 1 + r->id_size + 4, r->size};
    uint32_t k = hprof_class_of_id(r, hprof_id(&c, r->id_size));
    uint32_t len = hprof_u4(&c);
    if (k == HPROF_NONE || len != r->classes[k].data_size)
        return NULL;
    int64_t off = field_offset(r, k, name, type);
    if (off < 0 || (uint64_t)off + hprof_type_size(*type, r->id_size) > len)
        return NULL;
    return r->data + c.pos + off;
}

/* The thread's name ("main") from the Thread object's name field (a String:
 * JDK 9+ byte[] value with a coder, or JDK 8 char[]); "" when unknown. No
 * quotes: names reach JSON and TSV, where quotes would be escaped. */
size_t hprof_thread_name(hprof_reader *r, node_tables *t, uint64_t thread_id, char *buf,
                         size_t size)
{
    size_t o = 0;
    uint8_t type;
    const uint8_t *p = instance_field(r, t, node_of(t, thread_id), "name", &type);
    if (!p || !hprof_type_is_ref(type))
        return o;
    hprof_cursor c = {p, 0, r->id_size};
    uint32_t string_node = node_of(t, hprof_id(&c, r->id_size));
    p = instance_field(r, t, string_node, "value", &type);
    if (!p || !hprof_type_is_ref(type))
        return o;
    c = (hprof_cursor){p, 0, r->id_size};
    uint32_t value_node = node_of(t, hprof_id(&c, r->id_size));
    unsigned coder = 0;
    const uint8_t *coder_at = instance_field(r, t, string_node, "coder", &type);
    if (coder_at && type == HPROF_BYTE)
        coder = coder_at[0];
    if (value_node == LF_NODE_NONE)
        return o;
    uint64_t at = hprof_record_at(t->record_low, t->record_high, value_node);
    if (r->data[at] != HPROF_PRIM_ARRAY_DUMP)
        return o;
    hprof_cursor a = {r->data, at + 1 + r->id_size + 4, r->size};
    uint32_t n = hprof_u4(&a);
    uint8_t elem = hprof_u1(&a);
    const uint8_t *chars = r->data + a.pos;
    /* one unit past the cap, so a pair at the end is not cut in half */
    lf_jtext text = {.buf = buf, .cap = size};
    if (elem == HPROF_CHAR) /* JDK 8: big-endian UTF-16 code units */
        lf_jtext_utf16(chars, n < THREAD_NAME_CHARS + 1 ? n : THREAD_NAME_CHARS + 1, 1, THREAD_NAME_CHARS, &text);
    else if (elem == HPROF_BYTE && coder == 1) /* JDK 9+ UTF-16, platform order (x86: LE) */
        lf_jtext_utf16(chars, n / 2 < THREAD_NAME_CHARS + 1 ? n / 2 : THREAD_NAME_CHARS + 1, 0, THREAD_NAME_CHARS,
                       &text);
    else if (elem == HPROF_BYTE) /* Latin-1 */
        lf_jtext_latin1(chars, n, THREAD_NAME_CHARS, &text);
    return text.len;
}
