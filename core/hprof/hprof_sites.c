/* hprof_sites.c - allocation sites from an HPROF dump's stack traces
 * (DESIGN 10, docs/HPROF.md "Allocation sites").
 *
 * Every object record carries a stack trace serial. HotSpot gives every
 * object its dummy trace (serial 1, no frames); Android's ART gives an object
 * the trace of its allocation when allocation tracking was on (serial 0, an
 * empty trace, otherwise). A site is made only for a trace with frames:
 *
 *   pass 1    notes whether any object names such a trace (the serial is
 *             looked up only when it changes from the last object's);
 *   pass 2    only then keeps each object's serial, in a per-node array;
 *   after     turns serials into sites, one trace and one frame at a time.
 *
 * Frames: "com.acme.Parser.parse" (class from the frame's class serial,
 * then the method name; the signature is left out, as in Java's stack
 * traces), the source file, the line when it is > 0. A native method's
 * frame (line -3; -2 in ART's dumps, which follow StackTraceElement) has
 * file "Native Method", as Java prints it; every other line <= 0 is 0. */
#include <stdio.h>
#include <string.h>

#include "hprof_internal.h"

void hprof_note_trace_serial(hprof_reader *r, uint32_t serial)
{
    if (serial == 0) { /* no trace: ART's null trace, and writers that have none */
        r->trace_serial_seen = 0;
        return;
    }
    PWord_t at;
    JLG(at, r->trace_at, (Word_t)serial);
    if (!at) {
        r->warnings++; /* names no STACK TRACE: not remembered, so each such object counts */
        return;
    }
    r->trace_serial_seen = serial;
    /* STACK TRACE body: u4 serial, u4 thread serial, u4 frame count, ids */
    if (hprof_be32(r->data + *at + 8) > 0)
        r->has_alloc_traces = 1;
}

typedef struct site_builder {
    hprof_reader *r;
    lf_site_table *table;
    Pvoid_t frame_index;   /* HPROF frame id -> lf frame + 1 */
    Pvoid_t trace_site;    /* trace serial -> site + 1 */
    int64_t native_file;   /* string "Native Method", -1 until needed */
} site_builder;

/* Appends string sid to buf at *o (slashes as dots when asked); 0 when the
 * dump has no such string. */
static int append_sid(const hprof_reader *r, uint64_t sid, char *buf, size_t size, size_t *o,
                      int dots)
{
    uint32_t len = 0;
    const uint8_t *s = hprof_string(r, sid, &len);
    if (!s)
        return 0;
    for (uint32_t i = 0; i < len && *o + 1 < size; i++)
        buf[(*o)++] = dots && s[i] == '/' ? '.' : (char)s[i];
    return 1;
}

/* The lf frame of the STACK FRAME at `at` (checked in pass 1 to hold
 * 4 ids and 8 bytes): -1 when out of memory. */
static int64_t make_frame(site_builder *b, uint64_t at)
{
    hprof_reader *r = b->r;
    hprof_cursor c = {r->data, at + r->id_size, r->size}; /* past the frame id */
    uint64_t method = hprof_id(&c, r->id_size);
    c.pos += r->id_size; /* signature */
    uint64_t source = hprof_id(&c, r->id_size);
    uint32_t class_serial = hprof_u4(&c);
    int32_t line = (int32_t)hprof_u4(&c);

    char name[1200];
    size_t o = 0;
    PWord_t class_id, name_sid = NULL;
    JLG(class_id, r->class_by_serial, (Word_t)class_serial);
    if (class_id)
        JLG(name_sid, r->class_name_sid, *class_id);
    if (name_sid && append_sid(r, *name_sid, name, 900, &o, 1))
        name[o++] = '.';
    if (!append_sid(r, method, name, sizeof name, &o, 0))
        name[o++] = '?';
    int64_t function = lf_strtab_intern(&r->strings, name, o);

    int native = line == -3 || (line == -2 && r->version_minor == 3);
    int64_t file;
    if (native) {
        if (b->native_file < 0)
            b->native_file = lf_strtab_intern(&r->strings, "Native Method", 13);
        file = b->native_file;
    } else {
        uint32_t len = 0;
        const uint8_t *s = hprof_string(r, source, &len);
        file = lf_strtab_intern(&r->strings, s ? (const char *)s : "", s ? len : 0);
    }
    if (function < 0 || file < 0)
        return -1;
    return lf_site_table_frame(b->table, (uint32_t)function, (uint32_t)file,
                               line > 0 ? (uint32_t)line : 0, 0);
}

/* The lf frame of HPROF frame `frame_id`, 0 when the dump has no such
 * STACK FRAME, -1 when out of memory. */
static int64_t frame_of(site_builder *b, uint64_t frame_id)
{
    PWord_t known;
    JLG(known, b->frame_index, (Word_t)frame_id);
    if (known)
        return (int64_t)*known - 1;
    PWord_t at;
    JLG(at, b->r->frame_at, (Word_t)frame_id);
    int64_t f = at ? make_frame(b, *at) : 0;
    if (f < 0)
        return -1;
    JLI(known, b->frame_index, (Word_t)frame_id);
    if (known == PJERR)
        return -1;
    *known = (Word_t)f + 1;
    return f;
}

/* The site of trace `serial`: its frames are innermost first, a stack is
 * built outermost first. A frame the dump does not have is left out (one
 * warning per trace). -1 when out of memory. */
static int64_t make_site(site_builder *b, uint32_t serial)
{
    hprof_reader *r = b->r;
    PWord_t at;
    JLG(at, r->trace_at, (Word_t)serial);
    if (!at)
        return 0; /* counted in pass 1 */
    const uint8_t *trace = r->data + *at;
    uint32_t frames = hprof_be32(trace + 8); /* checked in pass 1 against the record */
    int64_t site = 0;
    int missing = 0;
    for (uint32_t i = frames; i-- > 0;) {
        hprof_cursor c = {r->data, *at + 12 + (uint64_t)i * r->id_size, r->size};
        int64_t f = frame_of(b, hprof_id(&c, r->id_size));
        if (f < 0)
            return -1;
        if (f == 0) {
            missing = 1;
            continue;
        }
        site = lf_site_table_site(b->table, (uint32_t)site, (uint32_t)f);
        if (site < 0)
            return -1;
    }
    r->warnings += missing;
    return site;
}

static int64_t site_of(site_builder *b, uint32_t serial)
{
    PWord_t known;
    JLG(known, b->trace_site, (Word_t)serial);
    if (known)
        return (int64_t)*known - 1;
    int64_t site = make_site(b, serial);
    if (site < 0)
        return -1;
    JLI(known, b->trace_site, (Word_t)serial);
    if (known == PJERR)
        return -1;
    *known = (Word_t)site + 1;
    return site;
}

int64_t hprof_object_sites(hprof_reader *r, uint32_t *object_site, uint32_t n, lf_site_table *table)
{
    site_builder b = {r, table, NULL, NULL, -1};
    uint32_t last_serial = 0, last_site = 0;
    uint64_t with_site = 0;
    int64_t rc = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t serial = object_site[v];
        if (serial != last_serial) {
            int64_t site = serial ? site_of(&b, serial) : 0;
            if (site < 0) {
                rc = lf_fail_nomem(r->err, "reading allocation sites");
                break;
            }
            last_serial = serial;
            last_site = (uint32_t)site;
        }
        object_site[v] = last_site;
        with_site += last_site != 0;
    }
    Word_t freed;
    JLFA(freed, b.frame_index);
    JLFA(freed, b.trace_site);
    (void)freed;
    return rc < 0 ? rc : (int64_t)with_site;
}
