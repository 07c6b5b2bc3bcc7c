/* hprof_scan.c - pass 1: the header, the top-level records (strings, class
 * names, frames, traces, where the heap dump bodies are, the cut of a partial
 * dump), every object's id; then the classes' names, layouts and sizes, and
 * node numbers. */
#include <string.h>

#include "../base/vec.h"
#include "hprof_passes.h"

/* The version string and the identifier size. */
int hprof_read_header(hprof_read *h)
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
    if (hprof_walk_heap(r, &c, 2, visit_nothing, NULL) == 0)
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
        return hprof_judy_set(r, &r->string_at, hprof_id(c, id), body + id);
    case HPROF_LOAD_CLASS: {
        if (hprof_need(r, c, 8 + 2 * (uint64_t)id, "LOAD CLASS"))
            return -1;
        uint32_t serial = hprof_u4(c);
        uint64_t class_id = hprof_id(c, id);
        c->pos += 4;
        uint64_t name = hprof_id(c, id);
        return hprof_judy_set(r, &r->class_by_serial, serial, class_id) ||
                       hprof_judy_set(r, &r->class_name_sid, class_id, name)
                   ? -1
                   : 0;
    }
    case HPROF_STACK_FRAME:
        if (hprof_need(r, c, 4 * (uint64_t)id + 8, "STACK FRAME"))
            return -1;
        return hprof_judy_set(r, &r->frame_at, hprof_id(c, id), body);
    case HPROF_STACK_TRACE: {
        if (hprof_need(r, c, 12, "STACK TRACE"))
            return -1;
        uint32_t serial = hprof_u4(c);
        c->pos += 4;
        uint32_t frames = hprof_u4(c);
        if (hprof_need(r, c, (uint64_t)frames * id, "STACK TRACE"))
            return -1;
        return hprof_judy_set(r, &r->trace_at, serial, body);
    }
    case HPROF_START_THREAD: { /* old writers name their threads here */
        if (hprof_need(r, c, 8 + 3 * (uint64_t)id, "START THREAD"))
            return -1;
        uint32_t serial = hprof_u4(c);
        c->pos += id + 4;
        return hprof_judy_set(r, &r->thread_name_sid, serial, hprof_id(c, id));
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

/* Pass 1: the records, then every heap segment's object ids. */
int hprof_collect_pass(hprof_read *h)
{
    hprof_reader *r = &h->r;
    void *none[HPROF_MAX_THREADS] = {NULL};
    if (read_records(r, h->records_at)) {
        /* the heap records before the bad one may hold an earlier fault */
        lf_error later = *h->err;
        if (hprof_walk_parallel(r, 1, 1, NULL, none) == 0)
            *h->err = later;
        return -1;
    }
    if (hprof_walk_parallel(r, h->threads, 1, NULL, none) < 0)
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
int hprof_describe_classes(hprof_reader *r)
{
    if (name_classes(r))
        return -1;
    find_primitive_array_classes(r);
    if (hprof_build_class_hash(r))
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
int hprof_number_objects(hprof_read *h)
{
    hprof_reader *r = &h->r;
    h->ids_met = r->ids.count;
    if (lf_idset_finish(&r->ids, &h->t.rank, &r->sorted_ids))
        return lf_fail_nomem(h->err, "indexing object ids");
    r->id_count = h->t.rank.count;
    r->warnings += h->ids_met - r->id_count; /* repeated ids */
    return 0;
}
