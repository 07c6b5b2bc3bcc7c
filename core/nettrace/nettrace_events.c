/* nettrace_events.c - the event blobs of MetadataBlocks and EventBlocks, the
 * stacks of StackBlocks, and the two kinds of events read: GCAllocationTick
 * and the methods' load and rundown events (docs/DOTNET.md). The runtime's
 * own events come with no field list in their metadata: their payloads are
 * read by the layouts the runtime's manifest gives them. */
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

enum { KIND_UNDEFINED = 0, KIND_OTHER, KIND_TICK, KIND_METHOD };

typedef struct nt_kind {
    uint8_t kind;
    uint32_t version;
} nt_kind;

struct nt_event_kinds {
    nt_kind *of_id;              /* metadata id -> what its events are */
    uint32_t id_cap;
    /* stack id -> stack index, for the ids of the current sequence-point region */
    uint32_t *stack_of_id;
    uint32_t region_first, region_count, region_cap;
};

nt_event_kinds *nt_event_kinds_new(void)
{
    return calloc(1, sizeof(nt_event_kinds));
}

void nt_event_kinds_free(nt_event_kinds *k)
{
    if (!k)
        return;
    free(k->of_id);
    free(k->stack_of_id);
    free(k);
}

void nt_sequence_point(nt_event_kinds *k)
{
    k->region_count = 0; /* the stack ids start again */
}

/* The header fields of one event blob, as the previous one in the block
 * leaves them (compressed headers are deltas). */
typedef struct nt_header {
    uint64_t metadata_id, sequence, capture_thread, processor, thread, stack_id, timestamp;
    uint64_t payload_size;
} nt_header;

static int read_compressed_header(nt_cursor *c, nt_header *h, lf_error *err)
{
    uint8_t flags;
    uint64_t v;
    if (nt_u8(c, &flags, "an event's header flags", err))
        return -1;
    if ((flags & 1) && nt_varint(c, &h->metadata_id, 5, "an event's metadata id", err))
        return -1;
    if (flags & 2) {
        if (nt_varint(c, &v, 5, "an event's sequence number", err) ||
            nt_varint(c, &h->capture_thread, 10, "an event's capture thread", err) ||
            nt_varint(c, &h->processor, 5, "an event's processor", err))
            return -1;
        h->sequence += v;
    }
    if (h->metadata_id)
        h->sequence++;
    if ((flags & 4) && nt_varint(c, &h->thread, 10, "an event's thread", err))
        return -1;
    if ((flags & 8) && nt_varint(c, &h->stack_id, 5, "an event's stack id", err))
        return -1;
    if (nt_varint(c, &v, 10, "an event's timestamp", err))
        return -1;
    h->timestamp += v;
    if ((flags & 16) && nt_need(c, 16, "an event's activity id", err))
        return -1;
    c->pos += (flags & 16) ? 16 : 0;
    if ((flags & 32) && nt_need(c, 16, "an event's related activity id", err))
        return -1;
    c->pos += (flags & 32) ? 16 : 0;
    if ((flags & 128) && nt_varint(c, &h->payload_size, 5, "an event's payload size", err))
        return -1;
    return 0;
}

static int read_plain_header(nt_cursor *c, nt_header *h, lf_error *err)
{
    uint32_t size, id, seq, proc, stack, payload;
    uint64_t thread, capture, ts;
    if (nt_u32(c, &size, "an event's size", err) || nt_u32(c, &id, "an event's metadata id", err) ||
        nt_u32(c, &seq, "an event's sequence number", err) ||
        nt_u64(c, &thread, "an event's thread", err) ||
        nt_u64(c, &capture, "an event's capture thread", err) ||
        nt_u32(c, &proc, "an event's processor", err) || nt_u32(c, &stack, "an event's stack id", err) ||
        nt_u64(c, &ts, "an event's timestamp", err) || nt_need(c, 32, "an event's activity ids", err))
        return -1;
    c->pos += 32;
    if (nt_u32(c, &payload, "an event's payload size", err))
        return -1;
    *h = (nt_header){id & 0x7fffffffu, seq, capture, proc, thread, stack, ts, payload};
    return 0;
}

static int is_utf16(const uint8_t *p, size_t len, const char *ascii)
{
    size_t n = strlen(ascii);
    if (len < 2 * n + 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[2 * i] != (uint8_t)ascii[i] || p[2 * i + 1])
            return 0;
    return !p[2 * n] && !p[2 * n + 1];
}

/* A metadata record: which event its id stands for. */
static int read_metadata(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err)
{
    size_t at = c->pos;
    uint32_t id, event_id, version, level;
    uint64_t keywords;
    if (nt_u32(c, &id, "a metadata record's id", err))
        return -1;
    const uint8_t *provider = c->data + c->pos;
    size_t provider_len = c->size - c->pos;
    if (nt_skip_utf16z(c, "a metadata record's provider", err) ||
        nt_u32(c, &event_id, "a metadata record's event id", err) ||
        nt_skip_utf16z(c, "a metadata record's event name", err) ||
        nt_u64(c, &keywords, "a metadata record's keywords", err) ||
        nt_u32(c, &version, "a metadata record's version", err) ||
        nt_u32(c, &level, "a metadata record's level", err))
        return -1;
    (void)t;
    /* ids are given in turn from 1; a file cannot define more ids than it has
     * bytes for (a record takes more than 16) */
    if (id == 0 || id > c->size / 16)
        return lf_fail_at(err, at, "bad .nettrace", "metadata id %u out of range", id);
    if (id >= k->id_cap) {
        uint32_t cap = k->id_cap ? k->id_cap : 64;
        while (cap <= id)
            cap *= 2;
        nt_kind *p = realloc(k->of_id, (size_t)cap * sizeof *p);
        if (!p)
            return lf_fail_nomem(err, "the trace's metadata");
        memset(p + k->id_cap, 0, (size_t)(cap - k->id_cap) * sizeof *p);
        k->of_id = p;
        k->id_cap = cap;
    }
    int runtime = is_utf16(provider, provider_len, "Microsoft-Windows-DotNETRuntime");
    int rundown = is_utf16(provider, provider_len, "Microsoft-Windows-DotNETRuntimeRundown");
    uint8_t kind = KIND_OTHER;
    if (runtime && event_id == 10)
        kind = KIND_TICK;
    else if ((runtime || rundown) && (event_id == 143 || event_id == 144))
        kind = KIND_METHOD; /* MethodLoadVerbose, MethodUnloadVerbose; MethodDC{Start,End}Verbose */
    k->of_id[id] = (nt_kind){kind, version};
    return 0;
}

/* GCAllocationTick: versions 2 and later give the amount as 64 bits and the
 * type's name; version 1 neither. */
static int read_tick(nt_cursor *c, lf_nettrace *t, const nt_event_kinds *k, uint32_t version,
                     uint64_t stack_id, size_t event_at, lf_error *err)
{
    uint32_t amount32, kind;
    uint16_t clr;
    uint64_t amount = 0;
    uint32_t name;
    if (nt_u32(c, &amount32, "GCAllocationTick's AllocationAmount", err) ||
        nt_u32(c, &kind, "GCAllocationTick's AllocationKind", err) ||
        nt_u16(c, &clr, "GCAllocationTick's ClrInstanceID", err))
        return -1;
    if (version >= 2) {
        if (nt_u64(c, &amount, "GCAllocationTick's AllocationAmount64", err) ||
            nt_need(c, t->pointer_size, "GCAllocationTick's TypeID", err))
            return -1;
        c->pos += t->pointer_size;
        if (nt_utf16z(c, t, &name, "GCAllocationTick's TypeName", err))
            return -1;
    } else {
        amount = amount32;
        uint64_t at = t->names_len;
        static const char unknown[] = "(type not in this event version)";
        if (t->names_len + sizeof unknown > t->names_cap) {
            uint64_t cap = t->names_cap ? t->names_cap * 2 : 4096;
            char *p = realloc(t->names, cap);
            if (!p)
                return lf_fail_nomem(err, "the trace's names");
            t->names = p;
            t->names_cap = cap;
        }
        memcpy(t->names + at, unknown, sizeof unknown);
        t->names_len += sizeof unknown;
        name = (uint32_t)at;
    }
    uint32_t stack = 0;
    if (stack_id) {
        if (stack_id < k->region_first || stack_id - k->region_first >= k->region_count ||
            k->stack_of_id[stack_id - k->region_first] == UINT32_MAX)
            return lf_fail_at(err, event_at, "bad .nettrace",
                              "an allocation tick names stack id %llu, which no StackBlock since the last "
                              "sequence point gave",
                              (unsigned long long)stack_id);
        stack = k->stack_of_id[stack_id - k->region_first];
    }
    int64_t type = nt_intern_type(t, name);
    if (type < 0 || nt_add_tick(t, (uint32_t)type, stack, amount))
        return lf_fail_nomem(err, "the trace's allocation sites");
    t->ticks++;
    t->tick_bytes += amount;
    return 0;
}

/* MethodLoadVerbose and the rundown's MethodDC*Verbose: one layout. */
static int read_method(nt_cursor *c, lf_nettrace *t, lf_error *err)
{
    uint64_t method_id, module_id, start;
    uint32_t size, token, flags, ns, name;
    if (nt_u64(c, &method_id, "a method event's MethodID", err) ||
        nt_u64(c, &module_id, "a method event's ModuleID", err) ||
        nt_u64(c, &start, "a method event's MethodStartAddress", err) ||
        nt_u32(c, &size, "a method event's MethodSize", err) ||
        nt_u32(c, &token, "a method event's MethodToken", err) ||
        nt_u32(c, &flags, "a method event's MethodFlags", err) ||
        nt_utf16z(c, t, &ns, "a method event's MethodNamespace", err) ||
        nt_utf16z(c, t, &name, "a method event's MethodName", err))
        return -1;
    /* the two strings sit one after the other: "Namespace.Type\0Method\0"
     * becomes "Namespace.Type.Method" by turning the first NUL into a dot */
    if (t->names[ns]) {
        t->names[name - 1] = '.';
        name = ns;
    }
    if (nt_add_method(t, start, size, name))
        return lf_fail_nomem(err, "the trace's methods");
    return 0;
}

/* The events of one block: [c->pos, c->size). */
static int read_blobs(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, int metadata, lf_error *err)
{
    uint16_t header_size, flags;
    size_t at = c->pos;
    if (nt_u16(c, &header_size, "a block's header size", err) || nt_u16(c, &flags, "a block's flags", err))
        return -1;
    if (header_size < 20)
        return lf_fail_at(err, at, "bad .nettrace", "a block header of %u bytes (at least 20)", header_size);
    if (nt_need(c, header_size - 4u, "a block's header", err))
        return -1;
    c->pos = at + header_size;
    nt_header h = {0};
    while (c->pos < c->size) {
        size_t event_at = c->pos;
        if (flags & 1 ? read_compressed_header(c, &h, err) : read_plain_header(c, &h, err))
            return -1;
        if (nt_need(c, h.payload_size, "an event's payload", err))
            return -1;
        nt_cursor p = {c->data, c->pos + h.payload_size, c->pos};
        if (metadata) {
            if (read_metadata(&p, t, k, err))
                return -1;
        } else {
            if (h.metadata_id >= k->id_cap || k->of_id[h.metadata_id].kind == KIND_UNDEFINED)
                return lf_fail_at(err, event_at, "bad .nettrace",
                                  "an event names metadata id %llu, which no MetadataBlock defined",
                                  (unsigned long long)h.metadata_id);
            const nt_kind *kind = &k->of_id[h.metadata_id];
            t->events++;
            if (kind->kind == KIND_TICK &&
                read_tick(&p, t, k, kind->version, h.stack_id, event_at, err))
                return -1;
            if (kind->kind == KIND_METHOD && read_method(&p, t, err))
                return -1;
        }
        c->pos += h.payload_size;
        if (!(flags & 1))
            c->pos = (c->pos + 3) & ~(size_t)3; /* plain events are 4-byte aligned in the file */
    }
    return 0;
}

int nt_read_metadata_block(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err)
{
    return read_blobs(c, t, k, 1, err);
}

int nt_read_event_block(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err)
{
    return read_blobs(c, t, k, 0, err);
}

int nt_read_stack_block(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err)
{
    uint32_t first, count;
    size_t at = c->pos;
    if (nt_u32(c, &first, "a StackBlock's first id", err) || nt_u32(c, &count, "a StackBlock's count", err))
        return -1;
    if (count > (c->size - c->pos) / 4)
        return lf_fail_at(err, at + 4, "bad .nettrace", "%u stacks in a StackBlock of %zu bytes", count,
                          c->size - c->pos);
    if (!k->region_count)
        k->region_first = first;
    if (first < k->region_first || first - k->region_first < k->region_count)
        return lf_fail_at(err, at, "bad .nettrace", "a StackBlock's ids start at %u, before the ids given already",
                          first);
    /* ids skipped since the last block are unknown; they too cost bytes */
    uint64_t need = (uint64_t)(first - k->region_first) + count;
    if (need - k->region_count > c->size || need > UINT32_MAX)
        return lf_fail_at(err, at, "bad .nettrace", "stack id %u past what the file could hold", first);
    if (need > k->region_cap) {
        uint64_t cap = k->region_cap ? k->region_cap : 256;
        while (cap < need)
            cap *= 2;
        uint32_t *p = realloc(k->stack_of_id, cap * sizeof *p);
        if (!p)
            return lf_fail_nomem(err, "the trace's stacks");
        k->stack_of_id = p;
        k->region_cap = (uint32_t)cap;
    }
    while (k->region_count < first - k->region_first)
        k->stack_of_id[k->region_count++] = UINT32_MAX;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t bytes;
        size_t stack_at = c->pos;
        if (nt_u32(c, &bytes, "a stack's size", err) || nt_need(c, bytes, "a stack", err))
            return -1;
        if (bytes % t->pointer_size)
            return lf_fail_at(err, stack_at, "bad .nettrace", "a stack of %u bytes, not a multiple of %u",
                              bytes, t->pointer_size);
        int64_t s = nt_intern_stack(t, c->data + c->pos, bytes / t->pointer_size);
        if (s < 0)
            return lf_fail_nomem(err, "the trace's stacks");
        k->stack_of_id[k->region_count++] = (uint32_t)s;
        c->pos += bytes;
    }
    return 0;
}
