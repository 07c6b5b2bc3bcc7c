/* nettrace.c - the .nettrace object stream: the "Nettrace" magic, the
 * FastSerialization header, the Trace object, then blocks until a
 * NullReference tag (docs/DOTNET.md). */
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

enum { TAG_NULL = 1, TAG_BEGIN_PRIVATE = 5, TAG_END = 6 };

static const char magic[] = "Nettrace\x14\0\0\0!FastSerialization.1";
#define MAGIC_LEN 32

int lf_nettrace_detect(const uint8_t *head, size_t len)
{
    return len >= 8 && memcmp(head, "Nettrace", 8) == 0;
}

static int expect_tag(nt_cursor *c, uint8_t want, const char *what, lf_error *err)
{
    uint8_t tag;
    size_t at = c->pos;
    if (nt_u8(c, &tag, what, err))
        return -1;
    if (tag != want)
        return lf_fail_at(err, at, "bad .nettrace", "%s: tag %u where %u was expected", what, tag, want);
    return 0;
}

/* An object's type: BeginPrivateObject, NullReference, version, minimum
 * reader version, name, EndObject. */
static int read_type(nt_cursor *c, char name[32], uint32_t *version, uint32_t *min_reader, lf_error *err)
{
    uint32_t len;
    size_t at;
    if (expect_tag(c, TAG_BEGIN_PRIVATE, "an object's type", err) ||
        expect_tag(c, TAG_NULL, "an object's type's type", err) ||
        nt_u32(c, version, "an object's type version", err) ||
        nt_u32(c, min_reader, "an object's minimum reader version", err))
        return -1;
    at = c->pos;
    if (nt_u32(c, &len, "an object's type name", err))
        return -1;
    if (len >= 32)
        return lf_fail_at(err, at, "bad .nettrace", "an object type name of %u bytes", len);
    if (nt_need(c, len, "an object's type name", err))
        return -1;
    memcpy(name, c->data + c->pos, len);
    name[len] = 0;
    c->pos += len;
    return expect_tag(c, TAG_END, "the end of an object's type", err);
}

/* The Trace object's fields: the clock, the pointer size, the process. */
static int read_trace_fields(nt_cursor *c, lf_nettrace *t, lf_error *err)
{
    uint64_t qpc, frequency;
    uint32_t pointer_size, pid, processors, sampling;
    size_t at;
    if (nt_need(c, 16, "the Trace's SyncTimeUTC", err))
        return -1;
    c->pos += 16;
    if (nt_u64(c, &qpc, "the Trace's SyncTimeQPC", err) ||
        nt_u64(c, &frequency, "the Trace's QPCFrequency", err))
        return -1;
    at = c->pos;
    if (nt_u32(c, &pointer_size, "the Trace's PointerSize", err) ||
        nt_u32(c, &pid, "the Trace's ProcessId", err) ||
        nt_u32(c, &processors, "the Trace's NumberOfProcessors", err) ||
        nt_u32(c, &sampling, "the Trace's ExpectedCPUSamplingRate", err))
        return -1;
    if (pointer_size != 4 && pointer_size != 8)
        return lf_fail_at(err, at, "bad .nettrace", "a pointer size of %u bytes", pointer_size);
    t->pointer_size = pointer_size;
    t->process_id = pid;
    return 0;
}

/* A block's payload: its size, padding to a 4-byte file offset, the bytes. */
static int read_block(nt_cursor *c, const char *name, lf_nettrace *t, nt_event_kinds *k, lf_error *err)
{
    uint32_t size;
    size_t at = c->pos;
    if (nt_u32(c, &size, "a block's size", err))
        return -1;
    size_t start = (c->pos + 3) & ~(size_t)3;
    if (start > c->size || c->size - start < size)
        return lf_fail_at(err, at, "truncated .nettrace", "%s of %u bytes, %zu left", name, size,
                          start > c->size ? (size_t)0 : c->size - start);
    nt_cursor b = {c->data, start + size, start};
    int rc = 0;
    if (!strcmp(name, "EventBlock"))
        rc = nt_read_event_block(&b, t, k, err);
    else if (!strcmp(name, "MetadataBlock"))
        rc = nt_read_metadata_block(&b, t, k, err);
    else if (!strcmp(name, "StackBlock"))
        rc = nt_read_stack_block(&b, t, k, err);
    else if (!strcmp(name, "SPBlock"))
        nt_sequence_point(k);
    c->pos = start + size;
    return rc;
}

static int read_objects(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err)
{
    for (int first = 1;; first = 0) {
        uint8_t tag;
        size_t at = c->pos;
        if (nt_u8(c, &tag, "the next object (a trace ends with a NullReference tag)", err))
            return -1;
        if (tag == TAG_NULL && !first)
            return 0;
        if (tag != TAG_BEGIN_PRIVATE)
            return lf_fail_at(err, at, "bad .nettrace", "tag %u where an object was expected", tag);
        char name[32];
        uint32_t version, min_reader;
        size_t type_at = c->pos;
        if (read_type(c, name, &version, &min_reader, err))
            return -1;
        if (first) {
            if (strcmp(name, "Trace"))
                return lf_fail_at(err, type_at, "bad .nettrace", "the first object is '%s', not Trace", name);
            if (min_reader > 5)
                return lf_fail_at(err, type_at, "unsupported .nettrace",
                                  "format version %u (it needs a reader of version %u; leakfind reads 4 "
                                  "and 5, what .NET 5 to 10 write)",
                                  version, min_reader);
            if (read_trace_fields(c, t, err))
                return -1;
        } else if (!strcmp(name, "EventBlock") || !strcmp(name, "MetadataBlock") ||
                   !strcmp(name, "StackBlock") || !strcmp(name, "SPBlock")) {
            if (read_block(c, name, t, k, err))
                return -1;
        } else {
            return lf_fail_at(err, type_at, "unsupported .nettrace", "an object of type '%s'", name);
        }
        if (expect_tag(c, TAG_END, "the end of an object", err))
            return -1;
    }
}

int lf_nettrace_parse(const uint8_t *data, size_t size, lf_nettrace *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    if (size < MAGIC_LEN || memcmp(data, magic, MAGIC_LEN))
        return size >= 8 && !memcmp(data, "Nettrace", 8)
                   ? lf_fail_at(err, 8, "bad .nettrace", "no !FastSerialization.1 header after the magic")
                   : lf_fail_at(err, 0, "not a .nettrace", "no Nettrace magic");
    nt_cursor c = {data, size, MAGIC_LEN};
    nt_event_kinds *k = nt_event_kinds_new();
    out->pointer_size = 8;
    if (!k || nt_tables_init(out)) {
        nt_event_kinds_free(k);
        lf_nettrace_free(out);
        return lf_fail_nomem(err, "reading the trace");
    }
    int rc = read_objects(&c, out, k, err);
    nt_event_kinds_free(k);
    if (rc) {
        lf_nettrace_free(out);
        return -1;
    }
    nt_methods_sort(out);
    return 0;
}

void lf_nettrace_free(lf_nettrace *t)
{
    free(t->type_name);
    free(t->ip);
    free(t->stack_start);
    free(t->site);
    free(t->method);
    free(t->names);
    free(t->type_slot);
    free(t->stack_slot);
    free(t->site_slot);
    memset(t, 0, sizeof *t);
}
