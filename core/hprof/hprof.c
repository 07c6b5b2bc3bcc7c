/* hprof.c - the HPROF record walk, in three passes over the mapped file.
 *
 *  1. collect: strings, classes, frames, traces, roots, every object's id;
 *     class layouts are resolved once all CLASS DUMPs are read (ART writes
 *     instances before their class).
 *  2. sort the ids; node number = rank of the id (a rank bitmap resolves ids,
 *     see idrank.h); per node: class, shallow size, and the number of
 *     references, so the CSR offsets are known before any edge is written.
 *  3. write every object's edges into its CSR slot, resolving ids.
 *
 * Graph semantics (DESIGN section 2): an instance references its class; a
 * class its superclass, its loader and its static fields' values; the
 * referent of a java.lang.ref.Reference is a weak edge (unless told
 * otherwise); thread-local roots (Java frame, JNI local, native stack, thread
 * block, JNI monitor) become edges from their Thread object named after the
 * frame, and only the thread itself is a root. */
#include "hprof.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../model/edge_offsets.h"
#include "hprof_internal.h"
#include "hprof_lazy.h"
#include "../base/vec.h"

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

uint32_t hprof_u4(hprof_cursor *c)
{
    const uint8_t *p = c->data + c->pos;
    c->pos += 4;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint16_t hprof_u2(hprof_cursor *c)
{
    const uint8_t *p = c->data + c->pos;
    c->pos += 2;
    return (uint16_t)(p[0] << 8 | p[1]);
}

uint8_t hprof_u1(hprof_cursor *c)
{
    return c->data[c->pos++];
}

/* Whether a reference value in the file is null (byte order does not matter). */
static inline int ref_is_null(const uint8_t *p, unsigned id_size)
{
    if (id_size == 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        return v == 0;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v == 0;
}

static uint64_t id_at(const hprof_reader *r, uint64_t at)
{
    hprof_cursor c = {r->data, at, r->size};
    return hprof_id(&c, r->id_size);
}

int lf_hprof_detect(const uint8_t *data, uint64_t size)
{
    return size >= 12 && memcmp(data, "JAVA PROFILE", 12) == 0;
}

/* --- pass 1: collect -------------------------------------------------------- */

static int judy_set(hprof_reader *r, Pvoid_t *array, uint64_t key, uint64_t value)
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

/* Walks the sub-records of one heap dump body [c->pos, c->end). In pass 1 it
 * collects; in later passes `visit` handles each object (and may return 1 to
 * stop the walk early, or -1 after an error). */
typedef int (*object_visitor)(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *body,
                              void *state);

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
                judy_set(r, &r->thread_object, serial, obj) ||
                judy_set(r, &r->thread_trace, serial, trace))
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
static int walk_heap(hprof_reader *r, hprof_cursor *c, int pass, object_visitor visit, void *state)
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

static int add_segment(hprof_reader *r, uint64_t start, uint64_t end)
{
    if (lf_vec_reserve((void **)&r->segment, &r->segment_cap, 2 * (r->segment_count + 1),
                       sizeof *r->segment))
        return lf_fail_nomem(r->err, "reading the dump");
    r->segment[2 * r->segment_count] = start;
    r->segment[2 * r->segment_count + 1] = end;
    r->segment_count++;
    return 0;
}

static int visit_nothing(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *body,
                         void *state)
{
    (void)r, (void)tag, (void)record_at, (void)body, (void)state;
    return 0;
}

/* The file ends inside the record at `at` that declares `declared_end`:
 * with LF_HPROF_PARTIAL the dump is read up to here, else it is an error
 * (already in r->err). */
static int cut_off(hprof_reader *r, uint64_t at, uint64_t declared_end)
{
    if (!(r->flags & LF_HPROF_PARTIAL) || !r->err->truncated)
        return -1;
    r->cut_at = at;
    r->cut_missing = declared_end > r->size ? declared_end - r->size : 0;
    return 0;
}

/* A heap dump body that the file cuts off: its complete sub-records are
 * kept when reading a partial dump. */
static int cut_heap_dump(hprof_reader *r, uint64_t body, uint64_t declared_end, const char *what)
{
    hprof_cursor c = {r->data, body, r->size};
    if (hprof_need(r, &c, declared_end - body, what) == 0)
        return 0; /* not reached: the caller saw the cut */
    if (!(r->flags & LF_HPROF_PARTIAL))
        return -1;
    lf_error cut = *r->err;
    if (walk_heap(r, &c, 2, visit_nothing, NULL) == 0)
        c.pos = r->size; /* cut between two sub-records */
    else if (!r->err->truncated)
        return -1; /* a fault before the cut */
    *r->err = cut;
    if (c.pos > body && add_segment(r, body, c.pos))
        return -1;
    return cut_off(r, c.pos, declared_end);
}

static int plausible_tag(uint8_t tag)
{
    return (tag >= HPROF_STRING && tag <= HPROF_CONTROL_SETTINGS && tag != 0x08 && tag != 0x09) ||
           tag == HPROF_HEAP_DUMP_SEGMENT || tag == HPROF_HEAP_DUMP_END;
}

/* A top-level record other than a heap dump, c over its body: strings,
 * class names, frames, traces and thread names are indexed by where they
 * are, to be read when needed. */
static int index_record(hprof_reader *r, hprof_cursor *c, uint8_t tag)
{
    const unsigned id = r->id_size;
    const uint64_t body = c->pos;
    switch (tag) {
    case HPROF_STRING:
        if (hprof_need(r, c, id, "STRING"))
            return -1;
        return judy_set(r, &r->string_at, hprof_id(c, id), body + id);
    case HPROF_LOAD_CLASS: {
        if (hprof_need(r, c, 8 + 2 * (uint64_t)id, "LOAD CLASS"))
            return -1;
        uint32_t serial = hprof_u4(c);
        uint64_t class_id = hprof_id(c, id);
        c->pos += 4;
        uint64_t name = hprof_id(c, id);
        return judy_set(r, &r->class_by_serial, serial, class_id) ||
                       judy_set(r, &r->class_name_sid, class_id, name)
                   ? -1
                   : 0;
    }
    case HPROF_STACK_FRAME:
        if (hprof_need(r, c, 4 * (uint64_t)id + 8, "STACK FRAME"))
            return -1;
        return judy_set(r, &r->frame_at, hprof_id(c, id), body);
    case HPROF_STACK_TRACE: {
        if (hprof_need(r, c, 12, "STACK TRACE"))
            return -1;
        uint32_t serial = hprof_u4(c);
        c->pos += 4;
        uint32_t frames = hprof_u4(c);
        if (hprof_need(r, c, (uint64_t)frames * id, "STACK TRACE"))
            return -1;
        return judy_set(r, &r->trace_at, serial, body);
    }
    case HPROF_START_THREAD: { /* old writers name their threads here */
        if (hprof_need(r, c, 8 + 3 * (uint64_t)id, "START THREAD"))
            return -1;
        uint32_t serial = hprof_u4(c);
        c->pos += id + 4;
        return judy_set(r, &r->thread_name_sid, serial, hprof_id(c, id));
    }
    default: /* other records carry nothing the graph needs */
        return 0;
    }
}

/* A HEAP DUMP or HEAP DUMP SEGMENT whose body starts at `body`: noted, to be
 * walked later on several threads, and *next set to where the next record
 * starts; 0 there when the dump is cut inside this one (the read stops). */
static int note_heap_dump(hprof_reader *r, uint8_t tag, uint64_t body, uint64_t len, uint64_t *next)
{
    uint64_t end = body + len;
    *next = 0;
    if (end > r->size)
        return cut_heap_dump(r, body, end, tag == HPROF_HEAP_DUMP ? "HEAP DUMP" : "HEAP DUMP SEGMENT");
    /* An old single HEAP DUMP over 4 GiB has a wrapped u4 length: when the
     * stated end is not followed by a plausible record, the real end is a
     * multiple of 4 GiB later. */
    while (tag == HPROF_HEAP_DUMP && end < r->size && !plausible_tag(r->data[end]) &&
           end + (1ull << 32) <= r->size)
        end += 1ull << 32;
    *next = end;
    return add_segment(r, body, end);
}

/* The top-level records from pos to the end of the file. */
static int read_records(hprof_reader *r, uint64_t pos)
{
    while (pos < r->size) {
        hprof_cursor c = {r->data, pos, r->size};
        if (hprof_need(r, &c, 9, "record header"))
            return cut_off(r, pos, 0);
        uint8_t tag = hprof_u1(&c);
        c.pos += 4; /* time */
        uint64_t len = hprof_u4(&c);
        uint64_t body = c.pos;
        if (tag == HPROF_HEAP_DUMP_END)
            return 0;
        if (tag == HPROF_HEAP_DUMP || tag == HPROF_HEAP_DUMP_SEGMENT) {
            int rc = note_heap_dump(r, tag, body, len, &pos);
            if (rc || pos == 0)
                return rc; /* an error, or the cut where a partial read ends */
            continue;
        }
        if (len > r->size - body) {
            c.pos = body;
            hprof_need(r, &c, len, "record");
            return cut_off(r, pos, body + len);
        }
        c.end = body + len;
        if (index_record(r, &c, tag))
            return -1;
        pos = body + len;
    }
    return 0;
}

static int walk_all(hprof_reader *r, int pass, object_visitor visit, void *state);

struct node_tables;
static const struct node_tables *current_tables; /* for qsort, which takes no context */
static int by_class_node(const void *a, const void *b);

/* --- pass 2: per node class, shallow size, reference count ----------------- */

typedef struct node_tables {
    uint32_t *class_of;        /* node -> lf class (= class index, or extra classes) */
    uint32_t *shallow;         /* narrow sizes (graph/sizes.h): arrays of 4 GiB or more in */
    lf_size_table shallow_big; /* shallow_big, which threads add to under big_lock */
    pthread_mutex_t big_lock;
    int big_lock_made;
    int big_failed;            /* no memory for shallow_big */
    lf_edge_offsets_mut edge_offset; /* counts in pass 2, offsets in pass 3 */
    uint32_t *record_low;      /* node -> offset of its sub-record, see hprof_record_at */
    uint8_t *record_high;      /* NULL when the dump is under 4 GiB */
    uint8_t *seen;             /* node -> 1 once the first object with its id is read (a byte
                                * each, so threads never share one); pass 2 only, and only
                                * when some id repeats (else NULL) */
    lf_idrank rank;
    uint32_t *class_node;      /* class index -> node of its class object */
    uint32_t *frame_edges;     /* node -> thread-local roots hung under it */
    uint32_t *object_site;     /* node -> trace serial in pass 2, then site; NULL when
                                * no object names a trace with frames */
    /* Classes without a CLASS DUMP get extra lf classes after the dumped ones,
     * made before the passes (which may run on several threads): */
    uint32_t extra_name[16];
    size_t extra_count;
    uint32_t mirror_class;     /* class objects when java.lang.Class was not dumped */
    uint32_t obj_array_class;  /* object arrays of an unknown class */
    uint32_t unknown_class;    /* instances of an unknown class */
    uint32_t prim_class[12];   /* primitive arrays by basic type */
} node_tables;

static int by_class_node(const void *a, const void *b)
{
    uint32_t x = current_tables->class_node[*(const uint32_t *)a];
    uint32_t y = current_tables->class_node[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

/* A node's shallow size; the rare one of 4 GiB or more under the lock. */
static inline void set_shallow(node_tables *t, uint32_t node, uint64_t bytes)
{
    if (bytes < LF_SIZE_BIG) {
        t->shallow[node] = (uint32_t)bytes;
        return;
    }
    pthread_mutex_lock(&t->big_lock);
    if (lf_size_store(t->shallow, &t->shallow_big, node, bytes))
        t->big_failed = 1;
    pthread_mutex_unlock(&t->big_lock);
}

static uint32_t node_of(const node_tables *t, uint64_t id)
{
    return id ? lf_idrank_find(&t->rank, id) : LF_NODE_NONE;
}

static const char *prim_array_name(uint8_t type)
{
    switch (type) {
    case HPROF_BOOLEAN: return "boolean[]";
    case HPROF_CHAR: return "char[]";
    case HPROF_FLOAT: return "float[]";
    case HPROF_DOUBLE: return "double[]";
    case HPROF_BYTE: return "byte[]";
    case HPROF_SHORT: return "short[]";
    case HPROF_INT: return "int[]";
    default: return "long[]";
    }
}

/* The slot hprof_class_hash_find starts at. */
static inline uint64_t class_hash_slot(const hprof_reader *r, uint64_t class_id)
{
    return (class_id * 0x9e3779b97f4a7c15ull) >> r->class_hash_shift;
}

static int build_class_hash(hprof_reader *r)
{
    unsigned bits = 4;
    while ((1ull << bits) < 2 * (uint64_t)r->class_count + 2)
        bits++;
    r->class_hash_id = lf_big_calloc(1ull << bits, sizeof *r->class_hash_id);
    r->class_hash_index = lf_big_malloc((1ull << bits) * sizeof *r->class_hash_index);
    if (!r->class_hash_id || !r->class_hash_index)
        return lf_fail_nomem(r->err, "indexing classes");
    r->class_hash_shift = 64 - bits;
    const uint64_t mask = (1ull << bits) - 1;
    for (size_t i = 0; i < r->class_count; i++) {
        uint64_t id = r->classes[i].id, slot = class_hash_slot(r, id);
        if (id == 0)
            continue; /* 0 means "no class" in every reference */
        while (r->class_hash_id[slot] && r->class_hash_id[slot] != id)
            slot = (slot + 1) & mask;
        if (!r->class_hash_id[slot]) {
            r->class_hash_id[slot] = id;
            r->class_hash_index[slot] = (uint32_t)i;
        }
    }
    return 0;
}

static uint32_t class_of_id(const hprof_reader *r, uint64_t class_id)
{
    if (!r->class_hash_id) {
        PWord_t slot;
        JLG(slot, r->class_index, (Word_t)class_id);
        return slot ? (uint32_t)(*slot - 1) : HPROF_NONE;
    }
    return hprof_class_hash_find(r->class_hash_id, r->class_hash_index, r->class_hash_shift, class_id);
}

/* Static reference fields of a class, as (name sid, value id) pairs, via callback. */
typedef int (*static_visitor)(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                              uint64_t value, uint64_t *count);

static int for_each_static_ref(hprof_reader *r, void *ctx, const hprof_class *k, uint32_t from,
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

static int count_static(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                        uint64_t value, uint64_t *count)
{
    (void)r, (void)ctx, (void)from, (void)name_sid, (void)value;
    (*count)++;
    return 0;
}

/* Pass 2 for each kind of object: class and shallow size of node, and the
 * number of its references (c after the object id); -1 after an error. */
static int64_t measure_class_object(hprof_reader *r, node_tables *t, uint32_t node, uint64_t obj)
{
    uint32_t k = class_of_id(r, obj);
    if (k == HPROF_NONE) { /* id 0: no reference can name it; a bare object */
        r->warnings++;
        t->class_of[node] = t->mirror_class;
        set_shallow(t, node, 0);
        return 0;
    }
    const hprof_class *kc = &r->classes[k];
    t->class_node[k] = node;
    t->class_of[node] = r->class_class != HPROF_NONE ? r->class_class : t->mirror_class;
    set_shallow(t, node, hprof_mirror_shallow(r, kc));
    uint64_t edges = 0;
    edges += kc->super_id != 0;
    edges += kc->loader_id != 0;
    edges += kc->array_class != HPROF_NONE;
    edges += r->class_class != HPROF_NONE; /* mirror -> java.lang.Class */
    if (for_each_static_ref(r, NULL, kc, node, count_static, &edges))
        return -1;
    return (int64_t)edges;
}

static inline uint64_t measure_instance(hprof_reader *r, node_tables *t, uint32_t node, hprof_cursor *c)
{
    const unsigned id = r->id_size;
    c->pos += 4;
    uint64_t class_id = hprof_id(c, id);
    uint32_t len = hprof_u4(c);
    uint32_t k = class_of_id(r, class_id);
    if (k == HPROF_NONE) {
        r->warnings++;
        t->class_of[node] = t->unknown_class;
        set_shallow(t, node, (r->header_size + len + r->alignment - 1) / r->alignment * r->alignment);
        return 0;
    }
    const hprof_class *kc = &r->classes[k];
    t->class_of[node] = k;
    set_shallow(t, node, kc->shallow);
    if (len != kc->data_size) {
        r->warnings++; /* field data that disagrees with the class: no fields read */
        return 1;
    }
    uint64_t edges = 1; /* -> its class */
    const uint8_t *data = r->data + c->pos;
    for (uint32_t f = 0; f < kc->ref_count; f++)
        edges += !ref_is_null(data + r->ref_fields[kc->ref_start + f].offset, id);
    return edges;
}

static inline uint64_t measure_object_array(hprof_reader *r, node_tables *t, uint32_t node, hprof_cursor *c)
{
    const unsigned id = r->id_size;
    c->pos += 4;
    uint32_t n = hprof_u4(c);
    uint32_t k = class_of_id(r, hprof_id(c, id));
    uint64_t edges = k != HPROF_NONE; /* -> its class */
    t->class_of[node] = k == HPROF_NONE ? t->obj_array_class : k;
    set_shallow(t, node, hprof_array_shallow(r, n, r->ref_size));
    const uint8_t *p = r->data + c->pos;
    for (uint32_t i = 0; i < n; i++, p += id)
        edges += !ref_is_null(p, id);
    return edges;
}

static inline uint64_t measure_primitive_array(hprof_reader *r, node_tables *t, uint32_t node, hprof_cursor *c)
{
    c->pos += 4;
    uint32_t n = hprof_u4(c);
    uint8_t type = hprof_u1(c);
    uint32_t k = type < 12 ? r->prim_array_class[type] : HPROF_NONE;
    t->class_of[node] = k == HPROF_NONE ? t->prim_class[type < 12 ? type : HPROF_LONG] : k;
    set_shallow(t, node, hprof_array_shallow(r, n, hprof_type_size(type, r->id_size)));
    return k != HPROF_NONE; /* -> its class */
}

static int pass2_visit(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *c, void *state)
{
    node_tables *t = state;
    uint64_t obj = hprof_id(c, r->id_size);
    uint32_t node = lf_idrank_find(&t->rank, obj); /* pass 1 saw every id, 0 included */
    if (node == LF_NODE_NONE || (t->seen && t->seen[node])) {
        r->warnings++; /* a second object with the same id: ignored */
        return 0;
    }
    if (t->seen)
        t->seen[node] = 1;
    if (t->object_site)
        t->object_site[node] = hprof_be32(r->data + c->pos);
    t->record_low[node] = (uint32_t)record_at;
    if (t->record_high)
        t->record_high[node] = (uint8_t)(record_at >> 32);
    uint64_t edges;
    if (tag == HPROF_INSTANCE_DUMP) {
        edges = measure_instance(r, t, node, c);
    } else if (tag == HPROF_OBJ_ARRAY_DUMP) {
        edges = measure_object_array(r, t, node, c);
    } else if (tag == HPROF_CLASS_DUMP) {
        int64_t counted = measure_class_object(r, t, node, obj);
        if (counted < 0)
            return -1;
        edges = (uint64_t)counted;
    } else {
        edges = measure_primitive_array(r, t, node, c);
    }
    /* fits a narrow count: an object's references are ids in one record,
     * whose length is a u4 */
    lf_edge_offsets_set(&t->edge_offset, node, edges);
    return 0;
}

/* Extra classes for objects whose class the dump does not describe. Made
 * before the passes so that threads only read them; the unused ones are
 * dropped after pass 2. */
static int make_extra_classes(hprof_reader *r, node_tables *t)
{
    static const uint8_t prim[] = {HPROF_BOOLEAN, HPROF_CHAR, HPROF_FLOAT, HPROF_DOUBLE,
                                   HPROF_BYTE, HPROF_SHORT, HPROF_INT, HPROF_LONG};
    const char *names[16];
    uint32_t *slot[16];
    size_t k = 0;
    if (r->class_class == HPROF_NONE) {
        names[k] = "java.lang.Class";
        slot[k++] = &t->mirror_class;
    } else {
        t->mirror_class = r->class_class;
    }
    names[k] = "java.lang.Object[]";
    slot[k++] = &t->obj_array_class;
    names[k] = "<unknown class>";
    slot[k++] = &t->unknown_class;
    for (size_t i = 0; i < 12; i++)
        t->prim_class[i] = HPROF_NONE;
    for (size_t i = 0; i < sizeof prim; i++) {
        if (r->prim_array_class[prim[i]] != HPROF_NONE) {
            t->prim_class[prim[i]] = r->prim_array_class[prim[i]];
            continue;
        }
        names[k] = prim_array_name(prim[i]);
        slot[k++] = &t->prim_class[prim[i]];
    }
    for (size_t i = 0; i < k; i++) {
        int64_t str = lf_strtab_intern(&r->strings, names[i], strlen(names[i]));
        if (str < 0)
            return lf_fail_nomem(r->err, "reading classes");
        t->extra_name[i] = (uint32_t)str;
        *slot[i] = (uint32_t)(r->class_count + i);
    }
    t->extra_count = k;
    return 0;
}

static void drop_unused_extra_classes(const hprof_reader *r, node_tables *t, uint32_t n)
{
    const uint32_t first = (uint32_t)r->class_count;
    uint8_t used[16] = {0};
    for (uint32_t v = 0; v < n; v++)
        if (t->class_of[v] >= first)
            used[t->class_of[v] - first] = 1;
    uint32_t remap[16];
    size_t kept = 0;
    for (size_t i = 0; i < t->extra_count; i++) {
        remap[i] = first + (uint32_t)kept;
        if (used[i])
            t->extra_name[kept++] = t->extra_name[i];
    }
    if (kept == t->extra_count)
        return;
    for (uint32_t v = 0; v < n; v++)
        if (t->class_of[v] >= first)
            t->class_of[v] = remap[t->class_of[v] - first];
    t->extra_count = kept;
}

/* After pass 2: each node's trace serial becomes its site; a dump whose
 * traces name no frame it has gets no sites after all. */
static int read_object_sites(hprof_reader *r, node_tables *t, uint32_t n, lf_site_table *sites)
{
    if (lf_site_table_init(sites))
        return lf_fail_nomem(r->err, "reading allocation sites");
    int64_t with_site = hprof_object_sites(r, t->object_site, n, sites);
    if (with_site < 0)
        return -1;
    if (with_site == 0) {
        lf_big_free(t->object_site);
        t->object_site = NULL;
        lf_site_table_free(sites);
    }
    return 0;
}

/* --- pass 3: edges ----------------------------------------------------------- */

/* Pass 3 writes edge targets only: kinds and labels are decoded from the
 * dump when output asks (hprof_lazy.c), which walks the references of a
 * sub-record in the same order as this pass. Slots start as EDGE_UNSET; a
 * node's written edges are a prefix of its slots. */
#define EDGE_UNSET 0xffffffffu

typedef struct pass3_state {
    node_tables *t;
    uint64_t dangling;
    uint32_t *target;
    hprof_dangling holders;
} pass3_state;

static void put_edge(pass3_state *s, uint64_t *at, uint64_t limit, uint32_t target, int weak)
{
    if (target == LF_NODE_NONE) {
        s->dangling++;
        return;
    }
    if (*at >= limit)
        return; /* counted fewer in pass 2: cannot happen for a consistent file */
    s->target[(*at)++] = target | (weak ? LF_EDGE_WEAK : 0);
}

static int write_static(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                        uint64_t value, uint64_t *at)
{
    pass3_state *s = ctx;
    (void)r, (void)name_sid;
    put_edge(s, at, lf_edge_offsets_get(&s->t->edge_offset, from + 1), node_of(s->t, value), 0);
    return 0;
}

static int pass3_visit(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *c, void *state)
{
    pass3_state *s = state;
    node_tables *t = s->t;
    const unsigned id = r->id_size;
    uint64_t obj = hprof_id(c, id);
    uint32_t node = lf_idrank_find(&t->rank, obj);
    if (node == LF_NODE_NONE || hprof_record_at(t->record_low, t->record_high, node) != record_at)
        return 0; /* a duplicate, skipped in pass 2 */
    uint64_t at = lf_edge_offsets_get(&t->edge_offset, node);
    uint64_t limit = lf_edge_offsets_get(&t->edge_offset, node + 1);
    const uint64_t dangling_before = s->dangling;
    switch (tag) {
    case HPROF_CLASS_DUMP: {
        uint32_t k = class_of_id(r, obj);
        if (k == HPROF_NONE)
            break;
        const hprof_class *kc = &r->classes[k];
        if (r->class_class != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[r->class_class], 0);
        if (kc->super_id)
            put_edge(s, &at, limit, node_of(t, kc->super_id), 0);
        if (kc->loader_id)
            put_edge(s, &at, limit, node_of(t, kc->loader_id), 0);
        if (kc->array_class != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[kc->array_class], 0);
        if (for_each_static_ref(r, s, kc, node, write_static, &at))
            return -1;
        break;
    }
    case HPROF_INSTANCE_DUMP: {
        c->pos += 4;
        uint64_t class_id = hprof_id(c, id);
        uint32_t len = hprof_u4(c);
        uint32_t k = class_of_id(r, class_id);
        if (k == HPROF_NONE)
            break;
        const hprof_class *kc = &r->classes[k];
        put_edge(s, &at, limit, t->class_node[k], 0);
        if (len != kc->data_size)
            break;
        for (uint32_t f = 0; f < kc->ref_count; f++) {
            const hprof_ref_field *field = &r->ref_fields[kc->ref_start + f];
            hprof_cursor v = {r->data, c->pos + field->offset, r->size};
            uint64_t ref = hprof_id(&v, id);
            if (ref)
                put_edge(s, &at, limit, node_of(t, ref), field->weak);
        }
        break;
    }
    case HPROF_OBJ_ARRAY_DUMP: {
        c->pos += 4;
        uint32_t n = hprof_u4(c);
        uint32_t k = class_of_id(r, hprof_id(c, id));
        if (k != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[k], 0);
        for (uint32_t i = 0; i < n; i++) {
            uint64_t ref = hprof_id(c, id);
            if (ref)
                put_edge(s, &at, limit, node_of(t, ref), 0);
        }
        break;
    }
    default: {
        c->pos += 8;
        uint8_t type = hprof_u1(c);
        uint32_t k = type < 12 ? r->prim_array_class[type] : HPROF_NONE;
        if (k != HPROF_NONE)
            put_edge(s, &at, limit, t->class_node[k], 0);
        break;
    }
    }
    if (s->dangling != dangling_before)
        hprof_dangling_note(&s->holders, node, tag, s->dangling - dangling_before);
    return 0;
}

/* The dangling edges' holders into stats, with the objects JNI globals name. */
static int dangling_stats(hprof_reader *r, const node_tables *t, const hprof_dangling *d,
                          lf_snapshot_stats *stats)
{
    size_t n = 0;
    uint32_t *jni = malloc((r->root_count + 1) * sizeof *jni);
    if (!jni)
        return lf_fail_nomem(r->err, "reading roots");
    for (size_t i = 0; i < r->root_count; i++)
        if (r->roots[i].tag == HPROF_ROOT_JNI_GLOBAL)
            jni[n++] = node_of(t, r->roots[i].id);
    hprof_dangling_stats(d, jni, n, stats);
    free(jni);
    return 0;
}

/* --- static fields as roots ------------------------------------------------------ */

/* Loaders whose classes the VM never unloads (JDK 9+, JDK 8, Android). */
static const char *const system_loaders[] = {
    "jdk.internal.loader.ClassLoaders$AppClassLoader",
    "jdk.internal.loader.ClassLoaders$PlatformClassLoader",
    "jdk.internal.loader.ClassLoaders$BootClassLoader",
    "sun.misc.Launcher$AppClassLoader",
    "sun.misc.Launcher$ExtClassLoader",
    "dalvik.system.PathClassLoader",
    "java.lang.BootClassLoader",
};

static int is_system_loader(const hprof_reader *r, const node_tables *t, uint64_t loader_id)
{
    if (loader_id == 0)
        return 1; /* the bootstrap loader */
    uint32_t node = node_of(t, loader_id);
    if (node == LF_NODE_NONE || t->class_of[node] >= r->class_count)
        return 0;
    uint32_t name = r->classes[t->class_of[node]].name;
    uint64_t off = r->strings.offset[name], len = r->strings.offset[name + 1] - off;
    for (size_t i = 0; i < sizeof system_loaders / sizeof system_loaders[0]; i++)
        if (strlen(system_loaders[i]) == len && memcmp(system_loaders[i], r->strings.bytes + off, len) == 0)
            return 1;
    return 0;
}

/* class -> its defining loader's node (LF_NODE_NONE: the bootstrap loader,
 * or the classes the dump does not describe); NULL when out of memory. */
static uint32_t *loader_nodes(const hprof_reader *r, const node_tables *t)
{
    size_t classes = r->class_count + t->extra_count;
    uint32_t *loader = malloc((classes + 1) * sizeof *loader);
    if (!loader)
        return NULL;
    for (size_t k = 0; k < classes; k++)
        loader[k] = k < r->class_count ? node_of(t, r->classes[k].loader_id) : LF_NODE_NONE;
    return loader;
}

/* The static fields of classes from those loaders are roots named "static
 * field com.acme.Registry.listeners", as leak finders name them: what such a
 * field holds stays until the field changes. Statics of classes from other
 * loaders are not roots, so a leaked class loader still owns its classes and
 * what their statics hold. */
static int add_static_roots(hprof_reader *r, node_tables *t, lf_root **roots, size_t *count,
                            size_t *cap)
{
    int64_t kind = lf_strtab_intern(&r->strings, "static field", 12);
    if (kind < 0)
        return lf_fail_nomem(r->err, "reading roots");
    char name[1200];
    for (size_t k = 0; k < r->class_count; k++) {
        if (t->class_node[k] == LF_NODE_NONE || !is_system_loader(r, t, r->classes[k].loader_id))
            continue;
        uint64_t coff = r->strings.offset[r->classes[k].name];
        uint64_t clen = r->strings.offset[r->classes[k].name + 1] - coff;
        hprof_cursor c = {r->data, r->classes[k].statics_at, r->size};
        uint16_t n = hprof_u2(&c); /* checked in pass 1 */
        for (uint16_t i = 0; i < n; i++) {
            uint64_t sid = hprof_id(&c, r->id_size);
            uint8_t type = hprof_u1(&c);
            if (!hprof_type_is_ref(type)) {
                c.pos += hprof_type_size(type, r->id_size);
                continue;
            }
            uint32_t node = node_of(t, hprof_id(&c, r->id_size));
            if (node == LF_NODE_NONE)
                continue; /* null, or dangling (counted with the class's edges) */
            uint32_t flen = 0;
            const uint8_t *field = hprof_string(r, sid, &flen);
            int m = snprintf(name, sizeof name, "%.*s.%.*s", (int)(clen > 800 ? 800 : clen),
                             r->strings.bytes + coff, field ? (int)(flen > 300 ? 300 : flen) : 1,
                             field ? (const char *)field : "?");
            int64_t str = lf_strtab_intern(&r->strings, name, (size_t)m);
            if (str < 0 || lf_vec_reserve((void **)roots, cap, *count + 1, sizeof **roots))
                return lf_fail_nomem(r->err, "reading roots");
            (*roots)[(*count)++] = (lf_root){node, (uint32_t)kind, (uint32_t)str, 0};
        }
    }
    return 0;
}

/* --- the whole read ------------------------------------------------------------ */

static int walk_all(hprof_reader *r, int pass, object_visitor visit, void *state)
{
    for (size_t i = 0; i < r->segment_count; i++) {
        hprof_cursor c = {r->data, r->segment[2 * i], r->segment[2 * i + 1]};
        int rc = walk_heap(r, &c, pass, visit, state);
        if (rc)
            return rc;
    }
    return 0;
}

/* Passes 2 and 3 on several threads: the heap dump bodies are split into
 * contiguous parts of about equal bytes. Every write goes to the slots of the
 * node being read (or to a thread's own counters), so the result does not
 * depend on the number of threads. */
/* Pass 1 on several threads: each collects into its own vectors and maps,
 * merged afterwards in file order, so the result is the one thread's. */
static void collector_reset(hprof_reader *c)
{
    lf_idset_init(&c->ids);
    c->roots = NULL;
    c->root_count = c->root_cap = 0;
    c->classes = NULL;
    c->class_count = c->class_cap = 0;
    c->class_index = NULL;
    c->thread_object = NULL;
    c->thread_trace = NULL;
}

static int append(hprof_reader *r, void **to, size_t *count, size_t *cap, const void *from, size_t n,
                  size_t elem)
{
    if (n == 0)
        return 0;
    if (lf_vec_reserve(to, cap, *count + n, elem))
        return lf_fail_nomem(r->err, "reading the dump");
    memcpy((char *)*to + *count * elem, from, n * elem);
    *count += n;
    return 0;
}

static int merge_judy(hprof_reader *r, Pvoid_t *into, Pvoid_t from)
{
    Word_t key = 0;
    PWord_t value;
    JLF(value, from, key);
    while (value) {
        if (judy_set(r, into, key, *value))
            return -1;
        JLN(value, from, key);
    }
    return 0;
}

static int collector_merge(hprof_reader *r, hprof_reader *c)
{
    int rc = lf_idset_merge(&r->ids, &c->ids) ? lf_fail_nomem(r->err, "reading objects") : 0;
    if (rc == 0 && r->ids.count > LF_NODE_MAX)
        rc = lf_fail_at(r->err, 0, "unsupported dump", "more than %u objects", LF_NODE_MAX);
    if (rc == 0)
        rc = append(r, (void **)&r->roots, &r->root_count, &r->root_cap, c->roots, c->root_count,
                    sizeof *r->roots);
    for (size_t i = 0; rc == 0 && i < c->class_count; i++) {
        PWord_t slot;
        JLI(slot, r->class_index, (Word_t)c->classes[i].id);
        if (slot == PJERR) {
            rc = lf_fail_nomem(r->err, "reading classes");
        } else if (*slot) {
            r->warnings++; /* the same class twice: keep the first */
        } else {
            rc = append(r, (void **)&r->classes, &r->class_count, &r->class_cap, &c->classes[i], 1,
                        sizeof *r->classes);
            *slot = r->class_count;
        }
    }
    if (rc == 0)
        rc = merge_judy(r, &r->thread_object, c->thread_object);
    if (rc == 0)
        rc = merge_judy(r, &r->thread_trace, c->thread_trace);
    Word_t freed;
    JLFA(freed, c->class_index);
    JLFA(freed, c->thread_object);
    JLFA(freed, c->thread_trace);
    (void)freed;
    lf_idset_free(&c->ids);
    lf_big_free(c->roots);
    lf_big_free(c->classes);
    collector_reset(c);
    return rc;
}

typedef struct walk_job {
    hprof_reader reader;        /* a copy: its own error and warning count */
    lf_error err;
    int pass;
    object_visitor visit;
    void *state;
    size_t first, last;         /* segments [first, last) */
    int rc;
} walk_job;

static void *walk_job_run(void *arg)
{
    walk_job *j = arg;
    for (size_t i = j->first; i < j->last && j->rc == 0; i++) {
        hprof_cursor c = {j->reader.data, j->reader.segment[2 * i], j->reader.segment[2 * i + 1]};
        j->rc = walk_heap(&j->reader, &c, j->pass, j->visit, j->state);
    }
    return NULL;
}

#define MAX_THREADS 64

static int walk_parallel(hprof_reader *r, unsigned threads, int pass, object_visitor visit,
                         void **states)
{
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads > r->segment_count)
        threads = r->segment_count ? (unsigned)r->segment_count : 1;
    walk_job job[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    uint64_t total = 0;
    for (size_t i = 0; i < r->segment_count; i++)
        total += r->segment[2 * i + 1] - r->segment[2 * i];
    static const char *const stage[] = {"", "pass 1 of 3", "pass 2 of 3", "pass 3 of 3"};
    lf_progress_counter progress;
    lf_progress_begin(&progress, r->progress_to, pass >= 1 && pass <= 3 ? stage[pass] : "", total);
    r->progress = progress.progress ? &progress : NULL; /* the jobs' copies share it */
    size_t seg = 0;
    uint64_t done = 0;
    for (unsigned k = 0; k < threads; k++) {
        job[k].reader = *r;
        job[k].reader.err = &job[k].err;
        job[k].reader.warnings = 0;
        if (pass == 1)
            collector_reset(&job[k].reader);
        job[k].pass = pass;
        job[k].visit = visit;
        job[k].state = states[k];
        job[k].rc = 0;
        job[k].first = seg;
        uint64_t goal = total / threads * (k + 1);
        while (seg < r->segment_count && (k + 1 == threads || done < goal)) {
            done += r->segment[2 * seg + 1] - r->segment[2 * seg];
            seg++;
        }
        job[k].last = seg;
    }
    unsigned started = 0;
    for (unsigned k = 1; k < threads; k++) {
        if (pthread_create(&tid[k], NULL, walk_job_run, &job[k]) != 0)
            break;
        started = k;
    }
    walk_job_run(&job[0]);
    for (unsigned k = started + 1; k < threads; k++) /* could not start: run here */
        walk_job_run(&job[k]);
    for (unsigned k = 1; k <= started; k++)
        pthread_join(tid[k], NULL);
    r->progress = NULL;
    int rc = 0;
    for (unsigned k = 0; k < threads; k++) {
        r->warnings += job[k].reader.warnings;
        r->has_alloc_traces |= job[k].reader.has_alloc_traces;
        if (job[k].rc < 0 && rc == 0) {
            *r->err = job[k].err;
            rc = -1;
        }
    }
    for (unsigned k = 0; pass == 1 && k < threads; k++) /* in file order */
        if (collector_merge(r, &job[k].reader) && rc == 0)
            rc = -1;
    return rc;
}

static void reader_free(hprof_reader *r)
{
    Word_t freed;
    JLFA(freed, r->string_at);
    JLFA(freed, r->class_name_sid);
    JLFA(freed, r->class_by_serial);
    JLFA(freed, r->frame_at);
    JLFA(freed, r->trace_at);
    JLFA(freed, r->thread_object);
    JLFA(freed, r->thread_trace);
    JLFA(freed, r->thread_name_sid);
    JLFA(freed, r->class_index);
    (void)freed;
    lf_strtab_free(&r->strings);
    lf_big_free(r->segment);
    lf_big_free(r->classes);
    lf_big_free(r->ref_fields);
    lf_big_free(r->roots);
    lf_idset_free(&r->ids);
    lf_big_free(r->sorted_ids);
    lf_big_free(r->class_hash_id);
    lf_big_free(r->class_hash_index);
}

static int is_thread_local(uint8_t tag)
{
    return tag == HPROF_ROOT_JAVA_FRAME || tag == HPROF_ROOT_JNI_LOCAL ||
           tag == HPROF_ROOT_NATIVE_STACK || tag == HPROF_ROOT_THREAD_BLOCK ||
           tag == HPROF_ROOT_JNI_MONITOR;
}

static uint32_t thread_node(const hprof_reader *r, const node_tables *t, uint32_t serial)
{
    PWord_t slot;
    JLG(slot, r->thread_object, (Word_t)serial);
    return slot ? node_of(t, *slot) : LF_NODE_NONE;
}

static int64_t thread_local_label(hprof_reader *r, const hprof_root *root)
{
    const char *prefix = root->tag == HPROF_ROOT_JAVA_FRAME ? ""
                         : root->tag == HPROF_ROOT_JNI_LOCAL ? "JNI local"
                         : root->tag == HPROF_ROOT_JNI_MONITOR ? "JNI monitor"
                         : root->tag == HPROF_ROOT_NATIVE_STACK ? "native stack"
                                                                : "thread block";
    return hprof_frame_label(r, root->thread_serial, root->frame, prefix);
}

/* --- the VM model: which reference and header sizes the heap used --------- */

typedef struct vm_model {
    unsigned ref_size, header_size, array_header_size;
} vm_model;

/* With 8-byte ids: compressed oops (the default below 32 GiB), plain oops with
 * compressed class pointers, or neither. */
static const vm_model models64[] = {{4, 12, 16}, {8, 12, 16}, {8, 16, 24}};
#define MODELS 3
#define VOTE_OBJECTS 200000

typedef struct vote_state {
    uint64_t prev_id;
    uint64_t prev_size[MODELS];
    int prev_known;
    uint64_t votes[MODELS];
    uint64_t seen;
} vote_state;

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* Objects are written in address order: the gap to the next object's address
 * is the real size of this one. Count, per model, how often it predicts it. */
static int vote_visit(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *c, void *state)
{
    vote_state *v = state;
    (void)record_at;
    const unsigned id = r->id_size;
    uint64_t obj = hprof_id(c, id);
    uint64_t size[MODELS];
    int known = 1;
    if (tag == HPROF_INSTANCE_DUMP) {
        c->pos += 4;
        uint32_t k = class_of_id(r, hprof_id(c, id));
        known = k != HPROF_NONE;
        for (int m = 0; known && m < MODELS; m++)
            size[m] = align_up(models64[m].header_size + r->classes[k].prim_bytes +
                               (uint64_t)r->classes[k].ref_count * models64[m].ref_size, 8);
    } else if (tag == HPROF_OBJ_ARRAY_DUMP) {
        c->pos += 4;
        uint32_t n = hprof_u4(c);
        for (int m = 0; m < MODELS; m++)
            size[m] = align_up(models64[m].array_header_size + (uint64_t)n * models64[m].ref_size, 8);
    } else if (tag == HPROF_PRIM_ARRAY_DUMP) {
        c->pos += 4;
        uint32_t n = hprof_u4(c);
        unsigned e = hprof_type_size(hprof_u1(c), id);
        for (int m = 0; m < MODELS; m++)
            size[m] = align_up(models64[m].array_header_size + (uint64_t)n * e, 8);
    } else {
        known = 0;
    }
    if (v->prev_known && obj > v->prev_id) {
        uint64_t gap = obj - v->prev_id;
        int all_same = v->prev_size[0] == v->prev_size[1] && v->prev_size[1] == v->prev_size[2];
        for (int m = 0; m < MODELS && !all_same; m++)
            v->votes[m] += v->prev_size[m] == gap;
    }
    v->prev_id = obj;
    v->prev_known = known;
    for (int m = 0; known && m < MODELS; m++)
        v->prev_size[m] = size[m];
    return ++v->seen >= VOTE_OBJECTS ? 1 : 0;
}

static int hprof_detect_vm_model(hprof_reader *r)
{
    r->alignment = 8;
    if (r->id_size == 4) { /* ART, or a 32-bit HotSpot */
        r->ref_size = 4;
        r->header_size = 8;
        r->array_header_size = 12;
        hprof_class_sizes(r);
        return 0;
    }
    vote_state v;
    memset(&v, 0, sizeof v);
    r->ref_size = models64[0].ref_size; /* default, and the vote's tie-break */
    r->header_size = models64[0].header_size;
    r->array_header_size = models64[0].array_header_size;
    if (walk_all(r, 4, vote_visit, &v) < 0)
        return -1;
    int best = 0;
    for (int m = 1; m < MODELS; m++)
        if (v.votes[m] > v.votes[best])
            best = m;
    r->ref_size = models64[best].ref_size;
    r->header_size = models64[best].header_size;
    r->array_header_size = models64[best].array_header_size;
    hprof_class_sizes(r);
    return 0;
}

/* --- thread names -------------------------------------------------------------- */

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
    uint32_t k = class_of_id(r, hprof_id(&c, r->id_size));
    uint32_t len = hprof_u4(&c);
    if (k == HPROF_NONE || len != r->classes[k].data_size)
        return NULL;
    int64_t off = field_offset(r, k, name, type);
    if (off < 0 || (uint64_t)off + hprof_type_size(*type, r->id_size) > len)
        return NULL;
    return r->data + c.pos + off;
}

static void put_utf8(char *buf, size_t size, size_t *o, unsigned cp)
{
    char tmp[4];
    size_t n;
    if (cp < 0x80) {
        tmp[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        tmp[0] = (char)(0xc0 | cp >> 6);
        tmp[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else {
        tmp[0] = (char)(0xe0 | cp >> 12);
        tmp[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        tmp[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    }
    if (*o + n < size) {
        memcpy(buf + *o, tmp, n);
        *o += n;
    }
}

/* The thread's name ("main") from the Thread object's name field (a String:
 * JDK 9+ byte[] value with a coder, or JDK 8 char[]); "" when unknown. No
 * quotes: names reach JSON and TSV, where quotes would be escaped. */
static size_t hprof_thread_name(hprof_reader *r, node_tables *t, uint64_t thread_id, char *buf,
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
    if (elem == HPROF_CHAR) { /* JDK 8: big-endian UTF-16 code units */
        for (uint32_t i = 0; i < n && i < 200; i++)
            put_utf8(buf, size - 2, &o, (unsigned)chars[2 * i] << 8 | chars[2 * i + 1]);
    } else if (elem == HPROF_BYTE && coder == 1) { /* JDK 9+ UTF-16, platform order (x86: LE) */
        for (uint32_t i = 0; i + 1 < n && i < 400; i += 2)
            put_utf8(buf, size - 2, &o, (unsigned)chars[i + 1] << 8 | chars[i]);
    } else if (elem == HPROF_BYTE) { /* Latin-1 */
        for (uint32_t i = 0; i < n && i < 200; i++)
            put_utf8(buf, size - 2, &o, chars[i]);
    }
    return o;
}

int lf_hprof_parse(const uint8_t *data, uint64_t size, unsigned flags, unsigned threads,
                   lf_snapshot *out, lf_error *err)
{
    return lf_hprof_parse_reporting(data, size, flags, threads, NULL, out, err);
}

/* --- the whole read, step by step ------------------------------------------ */

/* What the steps of one read share; whatever is still here at the end is
 * freed (what the snapshot took was set to NULL when handed over). */
typedef struct hprof_read {
    hprof_reader r;
    node_tables t;
    pass3_state s;
    unsigned threads;
    uint64_t records_at;      /* the first record, after the header */
    uint64_t ids_met;         /* ids met in pass 1, repeats included */
    lf_snapshot *out;
    lf_error *err;
    lf_site_table sites;
    /* roots: thread_label[i] >= 0 when root i hangs under its thread */
    lf_root *roots;
    size_t root_count, root_cap;
    int64_t *thread_label;
    /* thread-local roots as edges: thread, slot in its list, label */
    uint32_t *frame_thread, *frame_label;
    uint64_t *frame_edge;
    size_t frame_count;
    /* names of static fields that hold references, by class (for the decoder) */
    uint32_t *static_start, *static_name;
    uint32_t label_class, label_super, label_loader, label_array;
    uint32_t *class_name;
    hprof_lazy *lazy;
} hprof_read;

/* The version string and the identifier size. */
static int read_header(hprof_read *h)
{
    hprof_reader *r = &h->r;
    lf_error *err = h->err;
    const uint8_t *nul = memchr(r->data, 0, r->size < 64 ? r->size : 64);
    if (!nul)
        return lf_fail_at(err, 0, "not an HPROF file", "no version string");
    uint64_t header_end = (uint64_t)(nul - r->data) + 1;
    const char *version = (const char *)r->data;
    if (strcmp(version, "JAVA PROFILE 1.0.1") == 0)
        r->version_minor = 1;
    else if (strcmp(version, "JAVA PROFILE 1.0.2") == 0)
        r->version_minor = 2;
    else if (strcmp(version, "JAVA PROFILE 1.0.3") == 0)
        r->version_minor = 3;
    else
        return lf_fail_at(err, 0, "unsupported HPROF version", "'%.20s'", version);
    hprof_cursor c = {r->data, header_end, r->size};
    if (hprof_need(r, &c, 12, "HPROF header")) {
        err->truncated = 0; /* nothing before the cut to read */
        return -1;
    }
    r->id_size = hprof_u4(&c);
    if (r->size >= HPROF_MAX_FILE_SIZE)
        return lf_fail_at(err, 0, "HPROF file too large", "1 TiB or more");
    if (r->id_size != 4 && r->id_size != 8)
        return lf_fail_at(err, header_end, "unsupported HPROF identifier size", "%u bytes", r->id_size);
    h->records_at = header_end + 12;
    if (lf_strtab_init(&r->strings))
        return lf_fail_nomem(err, "reading the dump");
    return 0;
}

/* Pass 1: the records, then every heap segment's object ids. */
static int collect_pass(hprof_read *h)
{
    hprof_reader *r = &h->r;
    void *none[MAX_THREADS] = {NULL};
    if (read_records(r, h->records_at)) {
        /* the heap records before the bad one may hold an earlier fault */
        lf_error later = *h->err;
        if (walk_parallel(r, 1, 1, NULL, none) == 0)
            *h->err = later;
        return -1;
    }
    if (walk_parallel(r, h->threads, 1, NULL, none) < 0)
        return -1;
    if (r->segment_count == 0 && r->ids.count == 0)
        return lf_fail_at(h->err, r->size, "HPROF file without a heap dump", NULL);
    return 0;
}

/* Every dumped class gets its name from the string its LOAD CLASS names. */
static int name_classes(hprof_reader *r)
{
    for (size_t i = 0; i < r->class_count; i++) {
        PWord_t sid;
        JLG(sid, r->class_name_sid, (Word_t)r->classes[i].id);
        uint32_t len = 0;
        const uint8_t *name = sid ? hprof_string(r, *sid, &len) : NULL;
        int64_t s_index = name ? hprof_intern_class_name(r, name, len)
                               : lf_strtab_intern(&r->strings, "<unnamed class>", 15);
        if (s_index < 0)
            return lf_fail_nomem(r->err, "reading classes");
        r->classes[i].name = (uint32_t)s_index;
    }
    return 0;
}

/* The dumped class of each primitive array type, by its name. */
static void find_primitive_array_classes(hprof_reader *r)
{
    static const struct { const char *name; uint8_t type; } prim[] = {
        {"boolean[]", HPROF_BOOLEAN}, {"char[]", HPROF_CHAR}, {"float[]", HPROF_FLOAT},
        {"double[]", HPROF_DOUBLE}, {"byte[]", HPROF_BYTE}, {"short[]", HPROF_SHORT},
        {"int[]", HPROF_INT}, {"long[]", HPROF_LONG}};
    for (size_t i = 0; i < 12; i++)
        r->prim_array_class[i] = HPROF_NONE;
    for (size_t i = 0; i < r->class_count; i++) {
        lf_str n = {r->strings.bytes + r->strings.offset[r->classes[i].name],
                    r->strings.offset[r->classes[i].name + 1] - r->strings.offset[r->classes[i].name]};
        for (size_t p = 0; p < 8; p++)
            if (n.len == strlen(prim[p].name) && memcmp(n.ptr, prim[p].name, n.len) == 0 &&
                r->prim_array_class[prim[p].type] == HPROF_NONE)
                r->prim_array_class[prim[p].type] = (uint32_t)i;
    }
}

/* Names, layouts and sizes of the classes, and the VM's object model. */
static int resolve_classes(hprof_reader *r)
{
    if (name_classes(r))
        return -1;
    find_primitive_array_classes(r);
    if (build_class_hash(r))
        return -1;
    r->alignment = 8; /* a first model; hprof_detect_vm_model decides */
    r->ref_size = 4;
    r->header_size = 12;
    r->array_header_size = 16;
    if (hprof_resolve_classes(r) || hprof_link_array_classes(r))
        return -1;
    return hprof_detect_vm_model(r) < 0 ? -1 : 0;
}

/* Node numbers: ranks of the sorted, unique ids. Pass 1 set them in
 * bitmaps (idset.h), which become a rank bitmap over the address range
 * with no sort (on a 4 GB dump sorting took 2-3 s, most of it faulting in
 * the sort's second array); sparse ids are sorted and searched. */
static int number_objects(hprof_read *h)
{
    hprof_reader *r = &h->r;
    h->ids_met = r->ids.count;
    if (lf_idset_finish(&r->ids, &h->t.rank, &r->sorted_ids))
        return lf_fail_nomem(h->err, "indexing object ids");
    r->id_count = h->t.rank.count;
    r->warnings += h->ids_met - r->id_count; /* repeated ids */
    return 0;
}

/* The per-node tables pass 2 fills. */
static int allocate_node_tables(hprof_read *h)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    const uint32_t n = (uint32_t)r->id_count;
    t->class_of = lf_big_result_malloc(((size_t)n + 1) * sizeof *t->class_of);
    t->shallow = lf_big_result_malloc(((size_t)n + 1) * sizeof *t->shallow);
    t->big_lock_made = pthread_mutex_init(&t->big_lock, NULL) == 0;
    /* the total is not known before pass 2 has counted: narrow, widened
     * then if it does not fit */
    const int offsets_failed = lf_edge_offsets_alloc(&t->edge_offset, n, 0);
    /* Only a dump with repeated ids needs to mark the first of each, and
     * only one of 4 GiB or more has offsets that need a fifth byte. */
    const int repeats = h->ids_met > r->id_count, past_4g = r->size > UINT32_MAX;
    t->seen = repeats ? lf_big_calloc((size_t)n + 1, 1) : NULL;
    t->record_low = lf_big_result_malloc(((size_t)n + 1) * sizeof *t->record_low);
    t->record_high = past_4g ? lf_big_result_malloc((size_t)n + 1) : NULL;
    t->class_node = malloc((r->class_count + 1) * sizeof *t->class_node);
    /* serials per object only when some object has an allocation trace */
    t->object_site = r->has_alloc_traces ? lf_big_result_calloc((size_t)n + 1, sizeof *t->object_site) : NULL;
    if (!t->class_of || !t->shallow || !t->big_lock_made || offsets_failed || (repeats && !t->seen) ||
        !t->class_node || !t->record_low || (past_4g && !t->record_high) ||
        (r->has_alloc_traces && !t->object_site))
        return lf_fail_nomem(h->err, "reading objects");
    for (size_t i = 0; i <= r->class_count; i++)
        t->class_node[i] = LF_NODE_NONE;
    return 0;
}

/* Pass 2: every node's class, shallow size and reference count. */
static int measure_pass(hprof_read *h)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    if (allocate_node_tables(h) || make_extra_classes(r, t))
        return -1;
    void *states[MAX_THREADS];
    for (unsigned k = 0; k < MAX_THREADS; k++)
        states[k] = t;
    if (walk_parallel(r, h->threads, 2, pass2_visit, states) < 0)
        return -1;
    if (t->big_failed)
        return lf_fail_nomem(h->err, "reading objects");
    lf_size_table_sort(&t->shallow_big); /* threads add in any order */
    lf_big_free(t->seen);
    t->seen = NULL;
    drop_unused_extra_classes(r, t, (uint32_t)r->id_count);
    if (t->object_site && read_object_sites(r, t, (uint32_t)r->id_count, &h->sites))
        return -1;
    return 0;
}

/* Class objects are shown as "class com.acme.Foo": (node, string) pairs
 * sorted by node, owned by the snapshot. */
static int name_class_objects(hprof_read *h)
{
    hprof_reader *r = &h->r;
    lf_snapshot *out = h->out;
    uint32_t *named = malloc((r->class_count + 1) * 2 * sizeof *named);
    /* class_node is by class; sort the pairs by node */
    uint32_t *order = malloc((r->class_count + 1) * sizeof *order);
    if (!named || !order || !lf_snapshot_own(out, named)) {
        free(named);
        free(order);
        return lf_fail_nomem(h->err, "reading classes");
    }
    uint32_t named_count = 0;
    for (size_t k = 0; k < r->class_count; k++)
        if (h->t.class_node[k] != LF_NODE_NONE)
            order[named_count++] = (uint32_t)k;
    current_tables = &h->t;
    qsort(order, named_count, sizeof *order, by_class_node);
    char label[1100];
    for (uint32_t i = 0; i < named_count; i++) {
        uint32_t k = order[i];
        uint64_t off = r->strings.offset[r->classes[k].name];
        uint64_t len = r->strings.offset[r->classes[k].name + 1] - off;
        int m = snprintf(label, sizeof label, "class %.*s", (int)(len > 1000 ? 1000 : len),
                         r->strings.bytes + off);
        int64_t str = lf_strtab_intern(&r->strings, label, (size_t)m);
        if (str < 0) {
            free(order);
            return lf_fail_nomem(h->err, "reading classes");
        }
        named[i] = h->t.class_node[k];
        named[named_count + i] = (uint32_t)str;
    }
    free(order);
    out->named_count = named_count;
    out->named_node = named;
    out->named_string = named + named_count;
    return 0;
}

/* What a root is called: a thread by its name, a thread-local root by its
 * frame, a sticky class by its class; 0 ("") otherwise, -1 out of memory. */
static int64_t root_name(hprof_read *h, const hprof_root *root)
{
    hprof_reader *r = &h->r;
    if (root->tag == HPROF_ROOT_THREAD_OBJECT) {
        char buf[600];
        size_t len = hprof_thread_name(r, &h->t, root->id, buf, sizeof buf);
        PWord_t sid;
        JLG(sid, r->thread_name_sid, (Word_t)root->thread_serial);
        uint32_t sid_len = 0;
        const uint8_t *s_name = sid ? hprof_string(r, *sid, &sid_len) : NULL;
        if (len == 0 && s_name) /* no readable name field: START THREAD's */
            len = (size_t)snprintf(buf, sizeof buf, "%.*s", (int)(sid_len > 500 ? 500 : sid_len),
                                   (const char *)s_name);
        return lf_strtab_intern(&r->strings, buf, len);
    }
    if (is_thread_local(root->tag)) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "thread serial %u", root->thread_serial);
        return hprof_frame_label(r, root->thread_serial, root->frame, prefix);
    }
    if (root->tag == HPROF_ROOT_STICKY_CLASS) {
        uint32_t k = class_of_id(r, root->id);
        return k != HPROF_NONE ? r->classes[k].name : 0;
    }
    return 0;
}

/* Roots: thread-local ones hang under their thread when it is known (one
 * more edge for the thread, labelled by the frame); the others are roots,
 * then the static fields that count as roots. */
static int gather_roots(hprof_read *h)
{
    hprof_reader *r = &h->r;
    h->roots = lf_big_malloc((r->root_count + 1) * sizeof *h->roots);
    h->thread_label = lf_big_malloc((r->root_count + 1) * sizeof *h->thread_label);
    if (!h->roots || !h->thread_label)
        return lf_fail_nomem(h->err, "reading roots");
    for (size_t i = 0; i < r->root_count; i++) {
        const hprof_root *root = &r->roots[i];
        h->thread_label[i] = -1;
        uint32_t obj = node_of(&h->t, root->id);
        if (obj == LF_NODE_NONE) {
            h->out->stats.dangling_roots++;
            continue;
        }
        if (is_thread_local(root->tag)) {
            uint32_t thread = thread_node(r, &h->t, root->thread_serial);
            if (thread != LF_NODE_NONE) {
                h->thread_label[i] = thread_local_label(r, root);
                if (h->thread_label[i] < 0)
                    return lf_fail_nomem(h->err, "reading roots");
                lf_edge_offsets_mut *counts = &h->t.edge_offset;
                uint64_t count = lf_edge_offsets_get(counts, thread);
                if (counts->narrow && count == UINT32_MAX && lf_edge_offsets_widen(counts, (uint32_t)r->id_count))
                    return lf_fail_nomem(h->err, "reading roots");
                lf_edge_offsets_set(counts, thread, count + 1);
                continue;
            }
        }
        const char *kind_name = hprof_root_kind_name(root->tag);
        int64_t kind = lf_strtab_intern(&r->strings, kind_name, strlen(kind_name));
        int64_t name = root_name(h, root);
        if (kind < 0 || name < 0)
            return lf_fail_nomem(h->err, "reading roots");
        h->roots[h->root_count++] = (lf_root){obj, (uint32_t)kind, (uint32_t)name, 0};
    }
    h->root_cap = r->root_count + 1;
    return add_static_roots(r, &h->t, &h->roots, &h->root_count, &h->root_cap);
}

/* Reference counts become CSR offsets; the edge slots start unset. */
static int allocate_edges(hprof_read *h)
{
    const uint32_t n = (uint32_t)h->r.id_count;
    const uint64_t total = lf_edge_offsets_from_counts(&h->t.edge_offset, n);
    h->s.t = &h->t;
    h->s.target = total == UINT64_MAX ? NULL : lf_big_result_malloc((total + 1) * sizeof *h->s.target);
    if (!h->s.target)
        return lf_fail_nomem(h->err, "reading references");
    /* Every slot starts unset (and mapped, so pass 3 takes no page faults). */
    memset(h->s.target, 0xff, (total + 1) * sizeof *h->s.target);
    return 0;
}

/* Labels the decoder needs, interned while strings can still be added:
 * the VM links' names and the names of static fields holding references. */
static int intern_edge_labels(hprof_read *h)
{
    hprof_reader *r = &h->r;
    int64_t lc = lf_strtab_intern(&r->strings, "<class>", 7);
    int64_t ls = lf_strtab_intern(&r->strings, "<super>", 7);
    int64_t ll = lf_strtab_intern(&r->strings, "<classloader>", 13);
    int64_t la = lf_strtab_intern(&r->strings, "<array class>", 13);
    h->static_start = malloc((r->class_count + 1) * sizeof *h->static_start);
    if (lc < 0 || ls < 0 || ll < 0 || la < 0 || !h->static_start)
        return lf_fail_nomem(h->err, "reading references");
    h->label_class = (uint32_t)lc;
    h->label_super = (uint32_t)ls;
    h->label_loader = (uint32_t)ll;
    h->label_array = (uint32_t)la;
    size_t static_count = 0, static_cap = 0;
    for (size_t k = 0; k < r->class_count; k++) {
        h->static_start[k] = (uint32_t)static_count;
        hprof_cursor c = {r->data, r->classes[k].statics_at, r->size};
        uint16_t count = hprof_u2(&c);
        for (uint16_t i = 0; i < count; i++) {
            uint64_t sid = hprof_id(&c, r->id_size);
            uint8_t type = hprof_u1(&c);
            c.pos += hprof_type_size(type, r->id_size);
            if (!hprof_type_is_ref(type))
                continue;
            int64_t name = hprof_intern_sid(r, sid);
            if (name < 0 || lf_vec_reserve((void **)&h->static_name, &static_cap, static_count + 1,
                                           sizeof *h->static_name))
                return lf_fail_nomem(h->err, "reading classes");
            h->static_name[static_count++] = (uint32_t)name;
        }
    }
    h->static_start[r->class_count] = (uint32_t)static_count;
    return 0;
}

/* Pass 3: every object's edges into its slots, on each thread its own
 * dangling tally, merged after. */
static int edge_pass(hprof_read *h)
{
    pass3_state per_thread[MAX_THREADS];
    void *states[MAX_THREADS];
    hprof_dangling_init(&h->s.holders);
    for (unsigned k = 0; k < MAX_THREADS; k++) {
        per_thread[k] = h->s;
        states[k] = &per_thread[k];
    }
    if (walk_parallel(&h->r, h->threads, 3, pass3_visit, states) < 0)
        return -1;
    for (unsigned k = 0; k < MAX_THREADS; k++) {
        h->s.dangling += per_thread[k].dangling;
        hprof_dangling_merge(&h->s.holders, &per_thread[k].holders);
    }
    if (h->s.dangling && dangling_stats(&h->r, &h->t, &h->s.holders, &h->out->stats))
        return -1;
    return 0;
}

/* Thread-local roots go in the unset slots after their thread's own edges;
 * remembered as (thread, slot in its list, label) until the edge numbers
 * are final. */
static int place_thread_local_roots(hprof_read *h)
{
    hprof_reader *r = &h->r;
    size_t count = 0;
    for (size_t i = 0; i < r->root_count; i++)
        count += h->thread_label[i] >= 0;
    h->frame_edge = lf_big_malloc((count + 1) * sizeof *h->frame_edge);
    h->frame_label = lf_big_malloc((count + 1) * sizeof *h->frame_label);
    h->frame_thread = lf_big_malloc((count + 1) * sizeof *h->frame_thread);
    if (!h->frame_edge || !h->frame_label || !h->frame_thread)
        return lf_fail_nomem(h->err, "reading roots");
    const lf_edge_offsets_mut *edge_offset = &h->t.edge_offset;
    uint32_t *target = h->s.target;
    for (size_t i = 0; i < r->root_count; i++) {
        if (h->thread_label[i] < 0)
            continue;
        uint32_t thread = thread_node(r, &h->t, r->roots[i].thread_serial);
        uint32_t node = node_of(&h->t, r->roots[i].id);
        const uint64_t first = lf_edge_offsets_get(edge_offset, thread);
        uint64_t at = first, limit = lf_edge_offsets_get(edge_offset, thread + 1);
        while (at < limit && target[at] != EDGE_UNSET)
            at++;
        if (at == limit || node == LF_NODE_NONE)
            continue;
        target[at] = node;
        h->frame_thread[h->frame_count] = thread;
        h->frame_edge[h->frame_count] = at - first;
        h->frame_label[h->frame_count++] = (uint32_t)h->thread_label[i];
    }
    lf_big_free(h->thread_label);
    h->thread_label = NULL;
    return 0;
}

/* Closes the gaps dangling references left. A node's written edges are a
 * prefix of its slots, so a node whose last slot is set is complete.
 * Returns the number of edges kept. */
static uint64_t close_edge_gaps(hprof_read *h)
{
    const uint32_t n = (uint32_t)h->r.id_count;
    lf_edge_offsets_mut *edge_offset = &h->t.edge_offset;
    uint64_t kept = 0;
    uint32_t *target = h->s.target;
    for (uint32_t v = 0; v < n; v++) {
        uint64_t begin = lf_edge_offsets_get(edge_offset, v), end = lf_edge_offsets_get(edge_offset, v + 1);
        if (end > begin && target[end - 1] == EDGE_UNSET)
            while (end > begin && target[end - 1] == EDGE_UNSET)
                end--;
        lf_edge_offsets_set(edge_offset, v, kept);
        if (kept != begin)
            memmove(target + kept, target + begin, (end - begin) * sizeof *target);
        kept += end - begin;
    }
    lf_edge_offsets_set(edge_offset, n, kept);
    return kept;
}

/* Frame edges by final edge number (threads are few: insertion sort). */
static void number_frame_edges(hprof_read *h)
{
    uint64_t *edge = h->frame_edge;
    uint32_t *label = h->frame_label;
    for (size_t i = 0; i < h->frame_count; i++) {
        edge[i] += lf_edge_offsets_get(&h->t.edge_offset, h->frame_thread[i]);
        for (size_t j = i; j > 0 && edge[j - 1] > edge[j]; j--) {
            uint64_t e = edge[j];
            edge[j] = edge[j - 1];
            edge[j - 1] = e;
            uint32_t l = label[j];
            label[j] = label[j - 1];
            label[j - 1] = l;
        }
    }
    lf_big_free(h->frame_thread);
    h->frame_thread = NULL;
}

/* Class names (dumped classes, then the extra ones) and class loaders, for
 * the snapshot; the id index is no longer needed. */
static int finish_classes(hprof_read *h)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    uint32_t *class_loader = loader_nodes(r, t);
    if (!class_loader || !lf_snapshot_own(h->out, class_loader)) {
        free(class_loader);
        return lf_fail_nomem(h->err, "reading classes");
    }
    h->out->class_loader = class_loader;
    lf_idrank_free(&t->rank);
    lf_big_free(r->sorted_ids); /* still here when the rank index needed them */
    r->sorted_ids = NULL;
    h->class_name = malloc((r->class_count + t->extra_count + 1) * sizeof *h->class_name);
    h->lazy = calloc(1, sizeof *h->lazy);
    if (!h->class_name || !h->lazy)
        return lf_fail_nomem(h->err, "reading classes");
    for (size_t i = 0; i < r->class_count; i++)
        h->class_name[i] = r->classes[i].name;
    for (size_t i = 0; i < t->extra_count; i++)
        h->class_name[r->class_count + i] = t->extra_name[i];
    return 0;
}

/* The decoder of ids, edge kinds and labels, over the mapped dump. */
static void make_lazy_fields(hprof_read *h)
{
    hprof_reader *r = &h->r;
    *h->lazy = (hprof_lazy){
        .data = r->data, .size = r->size, .id_size = r->id_size,
        .record_low = h->t.record_low, .record_high = h->t.record_high,
        .classes = r->classes, .class_count = r->class_count, .ref_fields = r->ref_fields,
        .class_hash_id = r->class_hash_id, .class_hash_index = r->class_hash_index,
        .class_hash_shift = r->class_hash_shift, .class_class = r->class_class,
        .static_start = h->static_start, .static_name = h->static_name,
        .class_label = h->label_class, .super_label = h->label_super,
        .loader_label = h->label_loader, .array_label = h->label_array,
        .frame_edge = h->frame_edge, .frame_label = h->frame_label, .frame_count = h->frame_count};
    memcpy(h->lazy->prim_array_class, r->prim_array_class, sizeof h->lazy->prim_array_class);
    hprof_lazy_init(h->lazy);
}

/* Hands every array to the snapshot, which owns them from here on. */
static int hand_over(hprof_read *h, uint64_t edge_count)
{
    hprof_reader *r = &h->r;
    node_tables *t = &h->t;
    lf_snapshot *out = h->out;
    make_lazy_fields(h);
    out->format = LF_FORMAT_HPROF;
    out->source_format = LF_FORMAT_HPROF;
    out->flags = LF_SNAP_IDS_SORTED | (r->cut_at ? LF_SNAP_PARTIAL : 0);
    out->stats.cut_at = r->cut_at;
    out->stats.cut_missing = r->cut_missing;
    out->object_count = (uint32_t)r->id_count;
    out->edge_count = edge_count;
    out->class_count = (uint32_t)(r->class_count + t->extra_count);
    out->root_count = (uint32_t)h->root_count;
    out->string_count = r->strings.count;
    void *handed[] = {t->class_of, t->shallow, lf_edge_offsets_block(t->edge_offset), h->s.target,
                      h->class_name, h->roots, r->strings.offset, r->strings.bytes, t->record_low,
                      t->record_high, r->classes, r->ref_fields, r->class_hash_id, r->class_hash_index,
                      h->static_start, h->static_name, h->frame_edge, h->frame_label, h->lazy};
    for (size_t i = 0; i < sizeof handed / sizeof handed[0]; i++)
        if (handed[i] && !lf_snapshot_own(out, handed[i]))
            lf_big_free(handed[i]); /* cannot happen: the snapshot has room for all */
    out->object_class = t->class_of;
    out->object_shallow = lf_sizes_of(t->shallow, &t->shallow_big);
    if (lf_snapshot_own(out, t->shallow_big.entry))
        t->shallow_big = (lf_size_table){0};
    out->edge_offset = lf_edge_offsets_view(t->edge_offset);
    out->edge_target = h->s.target;
    out->class_name = h->class_name;
    out->root = h->roots;
    out->lazy = &h->lazy->fields;
    out->string_offset = r->strings.offset;
    out->string_bytes = r->strings.bytes;
    r->strings.offset = NULL;
    r->strings.bytes = NULL;
    r->classes = NULL;
    r->ref_fields = NULL;
    r->class_hash_id = NULL;
    r->class_hash_index = NULL;
    t->class_of = NULL;
    t->shallow = NULL;
    t->edge_offset = (lf_edge_offsets_mut){NULL, NULL};
    t->record_low = NULL;
    t->record_high = NULL;
    h->s.target = NULL;
    h->class_name = NULL;
    h->roots = NULL;
    h->lazy = NULL;
    h->static_start = h->static_name = h->frame_label = NULL;
    h->frame_edge = NULL;
    return 0;
}

/* Allocation sites, when some object has a trace with frames. */
static int hand_over_sites(hprof_read *h)
{
    uint32_t *object_site = h->t.object_site;
    if (!object_site)
        return 0;
    if (!lf_snapshot_own(h->out, object_site))
        return lf_fail_nomem(h->err, "reading allocation sites");
    h->t.object_site = NULL;
    if (lf_site_table_give(&h->sites, h->out))
        return lf_fail_nomem(h->err, "reading allocation sites");
    h->out->object_site = object_site;
    return 0;
}

static void read_free(hprof_read *h)
{
    node_tables *t = &h->t;
    lf_idrank_free(&t->rank);
    lf_big_free(t->class_of);
    lf_big_free(t->shallow);
    lf_size_table_free(&t->shallow_big);
    if (t->big_lock_made)
        pthread_mutex_destroy(&t->big_lock);
    t->big_lock_made = 0;
    lf_edge_offsets_free(&t->edge_offset);
    lf_big_free(t->seen);
    lf_big_free(t->record_low);
    lf_big_free(t->record_high);
    free(t->class_node);
    lf_big_free(t->object_site);
    lf_site_table_free(&h->sites);
    lf_big_free(h->s.target);
    lf_big_free(h->roots);
    lf_big_free(h->thread_label);
    lf_big_free(h->frame_thread);
    lf_big_free(h->frame_edge);
    lf_big_free(h->frame_label);
    free(h->static_start);
    lf_big_free(h->static_name);
    free(h->class_name);
    free(h->lazy);
    reader_free(&h->r);
}

/* The three passes (see the top of this file) and what comes between them. */
int lf_hprof_parse_reporting(const uint8_t *data, uint64_t size, unsigned flags, unsigned threads,
                             const lf_progress *progress, lf_snapshot *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    hprof_read h;
    memset(&h, 0, sizeof h);
    h.r = (hprof_reader){.progress_to = progress, .data = data, .size = size, .flags = flags,
                         .err = err};
    h.threads = threads ? threads : 1;
    h.out = out;
    h.err = err;
    if (read_header(&h))
        return -1;
    uint64_t edge_count = 0;
    int rc = -1;
    if (collect_pass(&h) == 0 && resolve_classes(&h.r) == 0 && number_objects(&h) == 0 &&
        measure_pass(&h) == 0 && name_class_objects(&h) == 0 && gather_roots(&h) == 0 &&
        allocate_edges(&h) == 0 && intern_edge_labels(&h) == 0 && edge_pass(&h) == 0 &&
        place_thread_local_roots(&h) == 0) {
        edge_count = close_edge_gaps(&h);
        number_frame_edges(&h);
        if (finish_classes(&h) == 0 && hand_over(&h, edge_count) == 0 && hand_over_sites(&h) == 0) {
            out->stats.dangling_edges = h.s.dangling;
            out->stats.warnings = h.r.warnings;
            rc = 0;
        }
    }
    read_free(&h);
    if (rc)
        lf_snapshot_free(out);
    return rc;
}
