/* hprof_records.c - reading the dump's records, shared by the passes: the
 * bounds-checked reads, the walk over a heap dump body's sub-records (pass 1
 * collects the roots, classes and ids in that same loop) and a class's static
 * references. */
#include <stdio.h>
#include <string.h>

#include "../base/vec.h"
#include "hprof_passes.h"

/* Pass 1 keeps the first object with a given id; later ones are skipped. */
#define DUPLICATE 1

/* --- bounds-checked reading ---------------------------------------------- */

int hprof_need(hprof_reader *r, hprof_cursor *c, uint64_t n, const char *what)
{
    if (c->end - c->pos >= n)
        return 0;
    char reason[96];
    snprintf(reason, sizeof reason, "truncated %s", what);
    lf_fail_at(r->err, c->pos, reason, "need %llu bytes, %llu left", (unsigned long long)n,
               (unsigned long long)(c->end - c->pos));
    r->err->truncated = c->end == r->size; /* the file ends here, not just a record */
    return -1;
}

uint64_t hprof_id(hprof_cursor *c, unsigned id_size)
{
    const uint8_t *p = c->data + c->pos;
    c->pos += id_size;
    if (id_size == 8)
        return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
               (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
               (uint64_t)p[6] << 8 | p[7];
    return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
}




static uint64_t id_at(const hprof_reader *r, uint64_t at)
{
    hprof_cursor c = {r->data, at, r->size};
    return hprof_id(&c, r->id_size);
}

int hprof_judy_set(hprof_reader *r, Pvoid_t *array, uint64_t key, uint64_t value)
{
    PWord_t slot;
    JLI(slot, *array, (Word_t)key);
    if (slot == PJERR)
        return lf_fail_nomem(r->err, "reading the dump");
    *slot = (Word_t)value;
    return 0;
}

static int add_id(hprof_reader *r, uint64_t id)
{
    if (r->ids.count >= LF_NODE_MAX)
        return lf_fail_at(r->err, 0, "unsupported dump", "more than %u objects", LF_NODE_MAX);
    if (lf_idset_add(&r->ids, id))
        return lf_fail_nomem(r->err, "reading objects");
    return 0;
}

static int add_root(hprof_reader *r, uint8_t tag, uint64_t id, uint32_t thread, uint32_t frame)
{
    if (lf_vec_reserve((void **)&r->roots, &r->root_cap, r->root_count + 1, sizeof *r->roots))
        return lf_fail_nomem(r->err, "reading roots");
    r->roots[r->root_count++] = (hprof_root){id, thread, frame, tag};
    return 0;
}

/* Skips a constant-pool or static value of basic type `type`. */
static int skip_value(hprof_reader *r, hprof_cursor *c, uint8_t type, const char *what)
{
    unsigned size = hprof_type_size(type, r->id_size);
    if (size == 0)
        return lf_fail_at(r->err, c->pos - 1, "unknown basic type", "%u in %s", type, what);
    if (hprof_need(r, c, size, what))
        return -1;
    c->pos += size;
    return 0;
}

/* Steps over a u2 count of entries, each a key of key_size bytes and a basic
 * type, followed by a value of that type when with_value. */
static int skip_entries(hprof_reader *r, hprof_cursor *c, unsigned key_size, int with_value,
                        const char *what)
{
    if (hprof_need(r, c, 2, what))
        return -1;
    uint16_t n = hprof_u2(c);
    for (uint16_t i = 0; i < n; i++) {
        if (hprof_need(r, c, key_size + 1, what))
            return -1;
        c->pos += key_size;
        uint8_t type = hprof_u1(c);
        if (with_value) {
            if (skip_value(r, c, type, what))
                return -1;
        } else if (hprof_type_size(type, r->id_size) == 0) {
            return lf_fail_at(r->err, c->pos - 1, "unknown basic type", "%u in %s", type, what);
        }
    }
    return 0;
}

/* Reads (collect) or steps over (later passes) a CLASS DUMP's body. */
static int read_class_dump(hprof_reader *r, hprof_cursor *c, uint64_t record_at, int collect)
{
    const unsigned id = r->id_size;
    const char *what = "CLASS DUMP";
    if (hprof_need(r, c, 7 * (uint64_t)id + 8, what))
        return -1;
    hprof_class k;
    memset(&k, 0, sizeof k);
    k.record_at = record_at;
    k.id = hprof_id(c, id);
    uint32_t trace_serial = hprof_u4(c);
    k.super_id = hprof_id(c, id);
    k.loader_id = hprof_id(c, id);
    c->pos += 4 * (uint64_t)id; /* signers, protection domain, 2 reserved */
    k.instance_size = hprof_u4(c);
    /* constant pool (u2 index), statics (id name), instance fields (id name,
     * no value): each a count, then entries of key, type, maybe a value */
    if (skip_entries(r, c, 2, 1, what))
        return -1;
    k.statics_at = c->pos;
    if (skip_entries(r, c, id, 1, what))
        return -1;
    k.fields_at = c->pos;
    if (skip_entries(r, c, id, 0, what))
        return -1;
    if (!collect)
        return 0;
    hprof_see_trace_serial(r, trace_serial);
    PWord_t slot;
    JLI(slot, r->class_index, (Word_t)k.id);
    if (slot == PJERR)
        return lf_fail_nomem(r->err, "reading classes");
    if (*slot) { /* the same class twice: keep the first */
        r->warnings++;
        return add_id(r, k.id);
    }
    if (lf_vec_reserve((void **)&r->classes, &r->class_cap, r->class_count + 1, sizeof *r->classes))
        return lf_fail_nomem(r->err, "reading classes");
    r->classes[r->class_count++] = k;
    *slot = r->class_count;
    return add_id(r, k.id);
}

/* The walk is one chain of dependent loads (a record's length says where
 * the next begins) through the file's 4 KiB pages; fetching 2 KiB ahead
 * took pass 1 of a 1.4 GB dump from 0.80 to 0.66 s (0.5-8 KiB tried). Records
 * are 30-50 bytes on a typical heap; a prefetch past the end does not fault. */
#define PREFETCH_BYTES 2048

/* A root or HEAP DUMP INFO sub-record (tag read, c just past it): pass 1
 * collects the root; every pass steps over it. */
static int read_root_record(hprof_reader *r, hprof_cursor *c, uint8_t tag, uint64_t at, int pass)
{
    const unsigned id = r->id_size;
    switch (tag) {
    case HPROF_ROOT_UNKNOWN:
    case HPROF_ROOT_STICKY_CLASS:
    case HPROF_ROOT_MONITOR_USED:
    case HPROF_ROOT_INTERNED_STRING:
    case HPROF_ROOT_FINALIZING:
    case HPROF_ROOT_DEBUGGER:
    case HPROF_ROOT_REFERENCE_CLEANUP:
    case HPROF_ROOT_VM_INTERNAL:
    case HPROF_UNREACHABLE:
        if (hprof_need(r, c, id, "root"))
            return -1;
        if (pass == 1 && add_root(r, tag, hprof_id(c, id), HPROF_NONE, HPROF_NONE))
            return -1;
        c->pos = at + 1 + id;
        return 0;
    case HPROF_ROOT_JNI_GLOBAL:
        if (hprof_need(r, c, 2 * (uint64_t)id, "JNI global root"))
            return -1;
        if (pass == 1 && add_root(r, tag, hprof_id(c, id), HPROF_NONE, HPROF_NONE))
            return -1;
        c->pos = at + 1 + 2 * (uint64_t)id;
        return 0;
    case HPROF_ROOT_JNI_LOCAL:
    case HPROF_ROOT_JAVA_FRAME:
    case HPROF_ROOT_JNI_MONITOR:
        if (hprof_need(r, c, id + 8, "thread-local root"))
            return -1;
        if (pass == 1) {
            uint64_t obj = hprof_id(c, id);
            uint32_t thread = hprof_u4(c);
            if (add_root(r, tag, obj, thread, hprof_u4(c)))
                return -1;
        }
        c->pos = at + 1 + id + 8;
        return 0;
    case HPROF_ROOT_NATIVE_STACK:
    case HPROF_ROOT_THREAD_BLOCK:
        if (hprof_need(r, c, id + 4, "thread-local root"))
            return -1;
        if (pass == 1) {
            uint64_t obj = hprof_id(c, id);
            if (add_root(r, tag, obj, hprof_u4(c), HPROF_NONE))
                return -1;
        }
        c->pos = at + 1 + id + 4;
        return 0;
    case HPROF_ROOT_THREAD_OBJECT:
        if (hprof_need(r, c, id + 8, "thread object root"))
            return -1;
        if (pass == 1) {
            uint64_t obj = hprof_id(c, id);
            uint32_t serial = hprof_u4(c), trace = hprof_u4(c);
            if (add_root(r, tag, obj, serial, HPROF_NONE) ||
                hprof_judy_set(r, &r->thread_object, serial, obj) ||
                hprof_judy_set(r, &r->thread_trace, serial, trace))
                return -1;
        }
        c->pos = at + 1 + id + 8;
        return 0;
    case HPROF_HEAP_DUMP_INFO:
        if (hprof_need(r, c, 4 + id, "HEAP DUMP INFO"))
            return -1;
        c->pos += 4 + id;
        return 0;
    default:
        return lf_fail_at(r->err, at, "unknown heap dump sub-record", "tag 0x%02x", tag);
    }
}

static inline int is_object_record(uint8_t tag)
{
    return tag == HPROF_INSTANCE_DUMP || tag == HPROF_OBJ_ARRAY_DUMP || tag == HPROF_PRIM_ARRAY_DUMP ||
           tag == HPROF_PRIM_ARRAY_NODATA;
}

/* The bytes of an object sub-record after its tag (c just past the tag),
 * checked against what is left; 0 after an error (a body is never empty). */
static inline uint64_t object_record_length(hprof_reader *r, hprof_cursor *c, uint8_t tag)
{
    const unsigned id = r->id_size;
    if (tag == HPROF_INSTANCE_DUMP) {
        if (hprof_need(r, c, 2 * (uint64_t)id + 8, "INSTANCE DUMP"))
            return 0;
        uint64_t length = 2 * (uint64_t)id + 8 + hprof_be32(c->data + c->pos + 2 * (uint64_t)id + 4);
        return hprof_need(r, c, length, "INSTANCE DUMP") ? 0 : length;
    }
    if (tag == HPROF_OBJ_ARRAY_DUMP) {
        if (hprof_need(r, c, 2 * (uint64_t)id + 8, "OBJECT ARRAY DUMP"))
            return 0;
        uint64_t length = 2 * (uint64_t)id + 8 + (uint64_t)hprof_be32(c->data + c->pos + id + 4) * id;
        return hprof_need(r, c, length, "OBJECT ARRAY DUMP") ? 0 : length;
    }
    if (hprof_need(r, c, (uint64_t)id + 9, "PRIMITIVE ARRAY DUMP"))
        return 0;
    uint32_t n = hprof_be32(c->data + c->pos + id + 4);
    uint8_t type = c->data[c->pos + id + 8];
    unsigned size = hprof_type_size(type, id);
    if (size == 0 || hprof_type_is_ref(type)) {
        lf_fail_at(r->err, c->pos + id + 8, "unknown basic type", "%u in PRIMITIVE ARRAY DUMP", type);
        return 0;
    }
    if (tag == HPROF_PRIM_ARRAY_NODATA)
        return (uint64_t)id + 9;
    uint64_t length = (uint64_t)id + 9 + (uint64_t)n * size;
    return hprof_need(r, c, length, "PRIMITIVE ARRAY DUMP") ? 0 : length;
}

/* The loop stays one body with the object case first: it runs once per
 * object in each of the three passes. */
int hprof_walk_heap(hprof_reader *r, hprof_cursor *c, int pass, object_visitor visit, void *state)
{
    const unsigned id = r->id_size;
    uint64_t at = c->pos;
    /* progress: one compare per record; a report every LF_PROGRESS_STEP bytes */
    uint64_t reported = c->pos, report_at = r->progress ? c->pos + LF_PROGRESS_STEP : UINT64_MAX;
    while (c->pos < c->end) {
        at = c->pos;
        if (__builtin_expect(at >= report_at, 0)) {
            lf_progress_add(r->progress, at - reported);
            reported = at;
            report_at = at + LF_PROGRESS_STEP;
        }
        __builtin_prefetch(c->data + at + PREFETCH_BYTES);
        uint8_t tag = hprof_u1(c);
        if (__builtin_expect(is_object_record(tag), 1)) {
            uint64_t length = object_record_length(r, c, tag);
            if (length == 0)
                goto fail;
            if (pass == 1) {
                if (add_id(r, id_at(r, c->pos)))
                    goto fail;
                hprof_see_trace_serial(r, hprof_be32(c->data + c->pos + id));
            } else {
                hprof_cursor body = {c->data, c->pos, c->end};
                int v = visit(r, tag, at, &body, state);
                if (v)
                    return v;
            }
            c->pos += length;
        } else if (tag == HPROF_CLASS_DUMP) {
            if (pass != 1) {
                hprof_cursor body = {c->data, c->pos, c->end};
                int v = visit(r, tag, at, &body, state);
                if (v)
                    return v;
            }
            if (read_class_dump(r, c, at, pass == 1))
                goto fail;
        } else if (read_root_record(r, c, tag, at, pass)) {
            goto fail;
        }
    }
    if (r->progress)
        lf_progress_add(r->progress, c->pos - reported);
    return 0;
fail:
    c->pos = at; /* the start of the sub-record that failed: where a partial dump ends */
    return -1;
}

int hprof_walk_all(hprof_reader *r, int pass, object_visitor visit, void *state)
{
    for (size_t i = 0; i < r->segment_count; i++) {
        hprof_cursor c = {r->data, r->segment[2 * i], r->segment[2 * i + 1]};
        int rc = hprof_walk_heap(r, &c, pass, visit, state);
        if (rc)
            return rc;
    }
    return 0;
}

/* Static reference fields of a class, as (name sid, value id) pairs, via callback. */
typedef int (*static_visitor)(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                              uint64_t value, uint64_t *count);

int hprof_for_each_static_ref(hprof_reader *r, void *ctx, const hprof_class *k, uint32_t from,
                        static_visitor visit, uint64_t *count)
{
    hprof_cursor c = {r->data, k->statics_at, r->size};
    uint16_t n = hprof_u2(&c); /* checked in pass 1 */
    for (uint16_t i = 0; i < n; i++) {
        uint64_t name = hprof_id(&c, r->id_size);
        uint8_t type = hprof_u1(&c);
        if (hprof_type_is_ref(type)) {
            uint64_t value = hprof_id(&c, r->id_size);
            if (value && visit(r, ctx, from, name, value, count))
                return -1;
        } else {
            c.pos += hprof_type_size(type, r->id_size);
        }
    }
    return 0;
}
