/* hprof_names.c - names as Java programmers write them: classes in source form,
 * stack frames as "Class.method (File.java:42)", root kinds. */
#include <stdio.h>
#include <string.h>

#include "hprof_internal.h"

const uint8_t *hprof_string(const hprof_reader *r, uint64_t sid, uint32_t *len)
{
    PWord_t slot;
    JLG(slot, r->string_at, (Word_t)sid);
    if (!slot)
        return NULL;
    /* the value is the offset of the bytes; the record length precedes the id */
    uint64_t at = *slot;
    const uint8_t *rec = r->data + at - r->id_size - 4; /* u4 length field */
    uint32_t body = (uint32_t)rec[0] << 24 | (uint32_t)rec[1] << 16 | (uint32_t)rec[2] << 8 | rec[3];
    *len = body - r->id_size;
    return r->data + at;
}

int64_t hprof_intern_sid(hprof_reader *r, uint64_t sid)
{
    uint32_t len = 0;
    const uint8_t *s = hprof_string(r, sid, &len);
    if (!s)
        return lf_strtab_intern(&r->strings, "?", 1);
    return lf_strtab_intern(&r->strings, (const char *)s, len);
}

static const char *primitive_name(char code)
{
    switch (code) {
    case 'Z': return "boolean";
    case 'C': return "char";
    case 'F': return "float";
    case 'D': return "double";
    case 'B': return "byte";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'V': return "void";
    default: return NULL;
    }
}

int64_t hprof_intern_class_name(hprof_reader *r, const uint8_t *name, size_t len)
{
    char buf[1024];
    size_t dims = 0;
    while (dims < len && name[dims] == '[')
        dims++;
    const uint8_t *base = name + dims;
    size_t base_len = len - dims;
    size_t o = 0;
    if (dims > 0 && base_len == 1 && primitive_name((char)base[0])) {
        o = (size_t)snprintf(buf, sizeof buf, "%s", primitive_name((char)base[0]));
    } else {
        if (dims > 0 && base_len >= 2 && base[0] == 'L' && base[base_len - 1] == ';') {
            base++;
            base_len -= 2;
        }
        if (base_len > sizeof buf - 64)
            base_len = sizeof buf - 64;
        for (size_t i = 0; i < base_len; i++)
            buf[o++] = base[i] == '/' ? '.' : (char)base[i];
    }
    for (size_t d = 0; d < dims && o + 2 < sizeof buf; d++) {
        buf[o++] = '[';
        buf[o++] = ']';
    }
    return lf_strtab_intern(&r->strings, buf, o);
}

const char *hprof_root_kind_name(uint8_t tag)
{
    switch (tag) {
    case HPROF_ROOT_JNI_GLOBAL: return "JNI global";
    case HPROF_ROOT_JNI_LOCAL: return "JNI local";
    case HPROF_ROOT_JAVA_FRAME: return "Java frame";
    case HPROF_ROOT_NATIVE_STACK: return "native stack";
    case HPROF_ROOT_STICKY_CLASS: return "system class";
    case HPROF_ROOT_THREAD_BLOCK: return "thread block";
    case HPROF_ROOT_MONITOR_USED: return "busy monitor";
    case HPROF_ROOT_THREAD_OBJECT: return "thread";
    case HPROF_ROOT_INTERNED_STRING: return "interned string";
    case HPROF_ROOT_FINALIZING: return "finalizing";
    case HPROF_ROOT_DEBUGGER: return "debugger";
    case HPROF_ROOT_REFERENCE_CLEANUP: return "reference cleanup";
    case HPROF_ROOT_VM_INTERNAL: return "VM internal";
    case HPROF_ROOT_JNI_MONITOR: return "JNI monitor";
    case HPROF_UNREACHABLE: return "unreachable";
    default: return "unknown";
    }
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be_id(const uint8_t *p, unsigned id_size)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < id_size; i++)
        v = v << 8 | p[i];
    return v;
}

/* Appends at most `room` bytes of string sid, dots for slashes when asked. */
static size_t put_sid(const hprof_reader *r, uint64_t sid, char *out, size_t room, int dots)
{
    uint32_t len = 0;
    const uint8_t *s = hprof_string(r, sid, &len);
    if (!s) {
        if (room)
            out[0] = '?';
        return room ? 1 : 0;
    }
    size_t n = len < room ? len : room;
    for (size_t i = 0; i < n; i++)
        out[i] = dots && s[i] == '/' ? '.' : (char)s[i];
    return n;
}

int64_t hprof_frame_label(hprof_reader *r, uint32_t thread_serial, uint32_t frame, const char *prefix)
{
    char buf[1024];
    size_t o = (size_t)snprintf(buf, sizeof buf, "%s", prefix);
    PWord_t trace_serial, trace_at, frame_at = NULL;
    JLG(trace_serial, r->thread_trace, (Word_t)thread_serial);
    trace_at = NULL;
    if (trace_serial)
        JLG(trace_at, r->trace_at, *trace_serial);
    if (trace_at && frame != HPROF_NONE) {
        /* STACK TRACE body: u4 serial, u4 thread serial, u4 n, id frames[n] */
        const uint8_t *t = r->data + *trace_at;
        uint32_t n = be32(t + 8);
        if (frame < n) {
            uint64_t frame_id = be_id(t + 12 + (uint64_t)frame * r->id_size, r->id_size);
            JLG(frame_at, r->frame_at, (Word_t)frame_id);
        }
    }
    if (frame != HPROF_NONE)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%sframe %u", o ? " " : "", frame);
    if (frame_at) {
        /* STACK FRAME body: id frame, id method, id signature, id source file,
         * u4 class serial, i4 line */
        const uint8_t *f = r->data + *frame_at;
        uint64_t method = be_id(f + r->id_size, r->id_size);
        uint64_t source = be_id(f + 3 * r->id_size, r->id_size);
        uint32_t class_serial = be32(f + 4 * r->id_size);
        int32_t line = (int32_t)be32(f + 4 * r->id_size + 4);
        PWord_t class_id, name_sid = NULL;
        JLG(class_id, r->class_by_serial, (Word_t)class_serial);
        if (class_id)
            JLG(name_sid, r->class_name_sid, *class_id);
        o += (size_t)snprintf(buf + o, sizeof buf - o, ": ");
        if (name_sid && o < sizeof buf - 1) {
            o += put_sid(r, *name_sid, buf + o, sizeof buf - 1 - o, 1);
            if (o < sizeof buf - 1)
                buf[o++] = '.';
        }
        o += put_sid(r, method, buf + o, sizeof buf - 1 - o, 0);
        if (o < sizeof buf - 2) {
            buf[o++] = ' ';
            buf[o++] = '(';
        }
        if (line == -3)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "Native Method");
        else
            o += put_sid(r, source, buf + o, sizeof buf - 1 - o, 0);
        if (line > 0)
            o += (size_t)snprintf(buf + o, sizeof buf - o, ":%d", line);
        if (o < sizeof buf - 1)
            buf[o++] = ')';
    }
    if (o >= sizeof buf)
        o = sizeof buf - 1;
    return lf_strtab_intern(&r->strings, buf, o);
}
