/* hprof_writer.h - a test-only HPROF writer, to build dumps no JVM at hand
 * writes: Android's 1.0.3 with its root kinds and heap-info records, 4-byte
 * ids, old single HEAP DUMP records, broken files. */
#ifndef LF_HPROF_WRITER_H
#define LF_HPROF_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct hw_buf {
    uint8_t *data;
    size_t len, cap;
    unsigned id_size;
    size_t record_start;     /* open top-level record, or 0 */
    uint32_t trace_serial;   /* the stack trace serial of the objects written next (0) */
} hw_buf;

void hw_begin(hw_buf *b, const char *version, unsigned id_size);
void hw_u1(hw_buf *b, uint8_t v);
void hw_u2(hw_buf *b, uint16_t v);
void hw_u4(hw_buf *b, uint32_t v);
void hw_id(hw_buf *b, uint64_t v);
void hw_bytes(hw_buf *b, const void *p, size_t n);
/* A top-level record: tag, time 0, length filled in by hw_record_end. */
void hw_record(hw_buf *b, uint8_t tag);
void hw_record_end(hw_buf *b);
void hw_string(hw_buf *b, uint64_t sid, const char *s);
void hw_load_class(hw_buf *b, uint32_t serial, uint64_t class_id, uint64_t name_sid);
/* STACK FRAME: line > 0, or 0 (no line), -1 (unknown), -2, -3 (native). */
void hw_stack_frame(hw_buf *b, uint64_t frame_id, uint64_t method_sid, uint64_t signature_sid,
                    uint64_t source_sid, uint32_t class_serial, int32_t line);
/* STACK TRACE of n frames, innermost first. */
void hw_stack_trace(hw_buf *b, uint32_t serial, uint32_t thread_serial, uint32_t n,
                    const uint64_t *frame_ids);
/* CLASS DUMP with no constant pool or statics; fields: (name sid, type) pairs. */
void hw_class_dump(hw_buf *b, uint64_t id, uint64_t super_id, uint64_t loader_id,
                   uint32_t instance_size, int nfields, const uint64_t *field_sid,
                   const uint8_t *field_type);
/* START THREAD (a top-level record): thread serial, its object, its name. */
void hw_start_thread(hw_buf *b, uint32_t serial, uint64_t object_id, uint64_t name_sid);
/* Heap dump sub-records of roots. */
void hw_root_jni_global(hw_buf *b, uint64_t id);
void hw_root_thread_object(hw_buf *b, uint64_t id, uint32_t thread_serial, uint32_t trace_serial);
/* A JNI local of a thread, in no frame. */
void hw_root_jni_local(hw_buf *b, uint64_t id, uint32_t thread_serial);
/* INSTANCE DUMP whose field data is `len` bytes. */
void hw_instance(hw_buf *b, uint64_t id, uint64_t class_id, const uint8_t *data, uint32_t len);
void hw_obj_array(hw_buf *b, uint64_t id, uint64_t class_id, int n, const uint64_t *elems);
void hw_prim_array(hw_buf *b, uint64_t id, uint8_t type, uint32_t n, const void *elems, size_t elem_size);
int hw_write(const hw_buf *b, const char *path);
/* Whether the fixture file at path is this construction, byte for byte: 1
 * same, 0 different, -1 unreadable. With LF_WRITE_FIXTURES=1 in the
 * environment the construction is written there first (how fixtures are made). */
int hw_matches_fixture(const hw_buf *b, const char *path);
void hw_free(hw_buf *b);

#endif
