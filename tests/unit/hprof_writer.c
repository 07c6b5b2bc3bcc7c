/* hprof_writer.c - a test-only HPROF writer. */
#include "hprof_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(hw_buf *b, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 256;
        b->data = realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void hw_u1(hw_buf *b, uint8_t v) { put(b, &v, 1); }
void hw_u2(hw_buf *b, uint16_t v) { uint8_t p[2] = {(uint8_t)(v >> 8), (uint8_t)v}; put(b, p, 2); }
void hw_u4(hw_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, p, 4);
}
void hw_id(hw_buf *b, uint64_t v)
{
    if (b->id_size == 8)
        hw_u4(b, (uint32_t)(v >> 32));
    hw_u4(b, (uint32_t)v);
}
void hw_bytes(hw_buf *b, const void *p, size_t n) { put(b, p, n); }

void hw_begin(hw_buf *b, const char *version, unsigned id_size)
{
    memset(b, 0, sizeof *b);
    b->id_size = id_size;
    put(b, version, strlen(version) + 1);
    hw_u4(b, id_size);
    hw_u4(b, 0);
    hw_u4(b, 0);
}

void hw_record(hw_buf *b, uint8_t tag)
{
    hw_u1(b, tag);
    hw_u4(b, 0);
    b->record_start = b->len;
    hw_u4(b, 0);
}

void hw_record_end(hw_buf *b)
{
    uint32_t len = (uint32_t)(b->len - b->record_start - 4);
    uint8_t *p = b->data + b->record_start;
    p[0] = (uint8_t)(len >> 24);
    p[1] = (uint8_t)(len >> 16);
    p[2] = (uint8_t)(len >> 8);
    p[3] = (uint8_t)len;
    b->record_start = 0;
}

void hw_start_thread(hw_buf *b, uint32_t serial, uint64_t object_id, uint64_t name_sid)
{
    hw_record(b, 0x0a);
    hw_u4(b, serial);
    hw_id(b, object_id);
    hw_u4(b, 0); /* no stack trace */
    hw_id(b, name_sid);
    hw_id(b, 0); /* group and parent group names */
    hw_id(b, 0);
    hw_record_end(b);
}

void hw_root_jni_global(hw_buf *b, uint64_t id)
{
    hw_u1(b, 0x01);
    hw_id(b, id);
    hw_id(b, 0); /* the JNI reference's own id */
}

void hw_root_thread_object(hw_buf *b, uint64_t id, uint32_t thread_serial, uint32_t trace_serial)
{
    hw_u1(b, 0x08);
    hw_id(b, id);
    hw_u4(b, thread_serial);
    hw_u4(b, trace_serial);
}

void hw_root_jni_local(hw_buf *b, uint64_t id, uint32_t thread_serial)
{
    hw_u1(b, 0x02);
    hw_id(b, id);
    hw_u4(b, thread_serial);
    hw_u4(b, 0xffffffff); /* no frame */
}

void hw_string(hw_buf *b, uint64_t sid, const char *s)
{
    hw_record(b, 0x01);
    hw_id(b, sid);
    put(b, s, strlen(s));
    hw_record_end(b);
}

void hw_load_class(hw_buf *b, uint32_t serial, uint64_t class_id, uint64_t name_sid)
{
    hw_record(b, 0x02);
    hw_u4(b, serial);
    hw_id(b, class_id);
    hw_u4(b, 0);
    hw_id(b, name_sid);
    hw_record_end(b);
}

void hw_stack_frame(hw_buf *b, uint64_t frame_id, uint64_t method_sid, uint64_t signature_sid,
                    uint64_t source_sid, uint32_t class_serial, int32_t line)
{
    hw_record(b, 0x04);
    hw_id(b, frame_id);
    hw_id(b, method_sid);
    hw_id(b, signature_sid);
    hw_id(b, source_sid);
    hw_u4(b, class_serial);
    hw_u4(b, (uint32_t)line);
    hw_record_end(b);
}

void hw_stack_trace(hw_buf *b, uint32_t serial, uint32_t thread_serial, uint32_t n,
                    const uint64_t *frame_ids)
{
    hw_record(b, 0x05);
    hw_u4(b, serial);
    hw_u4(b, thread_serial);
    hw_u4(b, n);
    for (uint32_t i = 0; i < n; i++)
        hw_id(b, frame_ids[i]);
    hw_record_end(b);
}

void hw_class_dump(hw_buf *b, uint64_t id, uint64_t super_id, uint64_t loader_id,
                   uint32_t instance_size, int nfields, const uint64_t *field_sid,
                   const uint8_t *field_type)
{
    hw_u1(b, 0x20);
    hw_id(b, id);
    hw_u4(b, b->trace_serial);
    hw_id(b, super_id);
    hw_id(b, loader_id);
    for (int i = 0; i < 4; i++)
        hw_id(b, 0);
    hw_u4(b, instance_size);
    hw_u2(b, 0); /* constant pool */
    hw_u2(b, 0); /* statics */
    hw_u2(b, (uint16_t)nfields);
    for (int i = 0; i < nfields; i++) {
        hw_id(b, field_sid[i]);
        hw_u1(b, field_type[i]);
    }
}

void hw_instance(hw_buf *b, uint64_t id, uint64_t class_id, const uint8_t *data, uint32_t len)
{
    hw_u1(b, 0x21);
    hw_id(b, id);
    hw_u4(b, b->trace_serial);
    hw_id(b, class_id);
    hw_u4(b, len);
    put(b, data, len);
}

void hw_obj_array(hw_buf *b, uint64_t id, uint64_t class_id, int n, const uint64_t *elems)
{
    hw_u1(b, 0x22);
    hw_id(b, id);
    hw_u4(b, b->trace_serial);
    hw_u4(b, (uint32_t)n);
    hw_id(b, class_id);
    for (int i = 0; i < n; i++)
        hw_id(b, elems[i]);
}

void hw_prim_array(hw_buf *b, uint64_t id, uint8_t type, uint32_t n, const void *elems, size_t elem_size)
{
    hw_u1(b, 0x23);
    hw_id(b, id);
    hw_u4(b, b->trace_serial);
    hw_u4(b, n);
    hw_u1(b, type);
    put(b, elems, n * elem_size);
}

int hw_write(const hw_buf *b, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(b->data, 1, b->len, f);
    return fclose(f) == 0 && w == b->len ? 0 : -1;
}

int hw_matches_fixture(const hw_buf *b, const char *path)
{
    const char *write = getenv("LF_WRITE_FIXTURES");
    if (write && strcmp(write, "1") == 0 && hw_write(b, path))
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int same = 1;
    uint8_t chunk[4096];
    size_t at = 0, got;
    while (same && (got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        same = got <= b->len - at && memcmp(chunk, b->data + at, got) == 0;
        at += got;
    }
    fclose(f);
    return same && at == b->len;
}

void hw_free(hw_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}
