/* nettrace_internal.h - what the .nettrace reader's files share. */
#ifndef LF_NETTRACE_INTERNAL_H
#define LF_NETTRACE_INTERNAL_H

#include "nettrace.h"

/* A position in the trace; every read checks the bytes left. */
typedef struct nt_cursor {
    const uint8_t *data;
    size_t size;       /* the end of what this cursor may read */
    size_t pos;        /* file offset */
} nt_cursor;

int nt_need(nt_cursor *c, size_t n, const char *what, lf_error *err);
int nt_u8(nt_cursor *c, uint8_t *v, const char *what, lf_error *err);
int nt_u16(nt_cursor *c, uint16_t *v, const char *what, lf_error *err);
int nt_u32(nt_cursor *c, uint32_t *v, const char *what, lf_error *err);
int nt_u64(nt_cursor *c, uint64_t *v, const char *what, lf_error *err);
int nt_varint(nt_cursor *c, uint64_t *v, unsigned max_bytes, const char *what, lf_error *err);
/* A NUL-terminated UTF-16 string, appended to t->names as UTF-8 with its NUL;
 * *at gets its offset there. */
int nt_utf16z(nt_cursor *c, lf_nettrace *t, uint32_t *at, const char *what, lf_error *err);
/* The same, skipped. */
int nt_skip_utf16z(nt_cursor *c, const char *what, lf_error *err);

/* Interning (nettrace_table.c): each returns the index, or -1 when out of memory. */
int64_t nt_intern_type(lf_nettrace *t, uint32_t name);
int64_t nt_intern_stack(lf_nettrace *t, const uint8_t *ips, uint32_t count);
int nt_add_tick(lf_nettrace *t, uint32_t type, uint32_t stack, uint64_t bytes);
int nt_add_method(lf_nettrace *t, uint64_t start, uint64_t size, uint32_t name);
int nt_tables_init(lf_nettrace *t);
void nt_methods_sort(lf_nettrace *t);

/* The blocks' events (nettrace_events.c). */
typedef struct nt_event_kinds nt_event_kinds;
nt_event_kinds *nt_event_kinds_new(void);
void nt_event_kinds_free(nt_event_kinds *k);
/* A MetadataBlock's or EventBlock's content, [c->pos, c->size). */
int nt_read_metadata_block(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err);
int nt_read_event_block(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err);
/* StackBlock and SPBlock: the stack ids of the current sequence-point region. */
int nt_read_stack_block(nt_cursor *c, lf_nettrace *t, nt_event_kinds *k, lf_error *err);
void nt_sequence_point(nt_event_kinds *k);

#endif
