/* fastser.h - the FastSerialization container .gcdump files are written in
 * (docs/DOTNET.md, "The file"): little-endian primitives, strings of UTF-16
 * code units each written as 1 to 3 bytes, tagged objects and the type
 * records before them. Every read checks the bytes left and fails with the
 * offset and what it was reading. */
#ifndef LF_GCDUMP_FASTSER_H
#define LF_GCDUMP_FASTSER_H

#include <stddef.h>
#include <stdint.h>

#include "../base/error.h"

enum {
    FS_TAG_NULL = 0x01,
    FS_TAG_OBJECT_REF = 0x02,
    FS_TAG_FORWARD_REF = 0x03,
    FS_TAG_BEGIN_OBJECT = 0x04,
    FS_TAG_BEGIN_PRIVATE = 0x05,
    FS_TAG_END_OBJECT = 0x06,
    FS_TAG_FORWARD_DEF = 0x07,
    FS_TAG_BYTE = 0x08,
    FS_TAG_INT16 = 0x09,
    FS_TAG_INT32 = 0x0a,
    FS_TAG_INT64 = 0x0b,
    FS_TAG_SKIP_REGION = 0x0c,
    FS_TAG_STRING = 0x0d,
    FS_TAG_BLOB = 0x0e,
};

#define FS_HEADER "\x14\0\0\0!FastSerialization.1"
#define FS_HEADER_LEN 24

typedef struct fs_cursor {
    const uint8_t *data;
    uint64_t size, pos;
    /* The forward-reference table at the end of the file (found through
     * the trailer the last 4 bytes point to), read on first use. */
    const uint8_t *forward;
    uint32_t forward_count;
    int forward_read;
} fs_cursor;

/* A string read into caller-owned memory, as UTF-8 (surrogate pairs joined,
 * a lone surrogate U+FFFD); is_null for the null string. */
typedef struct fs_string {
    char *text;
    size_t len, cap;
    int is_null;
} fs_string;

/* The type record a BeginObject names. */
typedef struct fs_type {
    char name[96]; /* "GCHeapDump", "Graphs.MemoryGraph" (longer names cut) */
    int32_t version, min_reader_version;
} fs_type;

/* The type records read so far, by their offset (for ObjectReference). */
typedef struct fs_types {
    uint64_t at[16];
    fs_type type[16];
    size_t count;
} fs_types;

int fs_need(fs_cursor *c, uint64_t n, const char *what, lf_error *err);
int fs_u8(fs_cursor *c, uint8_t *v, const char *what, lf_error *err);
int fs_i32(fs_cursor *c, int32_t *v, const char *what, lf_error *err);
int fs_i64(fs_cursor *c, int64_t *v, const char *what, lf_error *err);
/* A count of items of at least min_item_bytes each: negative, or more than
 * the bytes left could hold, fails before anything is allocated from it. */
int fs_count(fs_cursor *c, uint64_t min_item_bytes, uint32_t *count, const char *what, lf_error *err);
int fs_read_string(fs_cursor *c, fs_string *s, const char *what, lf_error *err);
int fs_skip_string(fs_cursor *c, const char *what, lf_error *err);
void fs_string_free(fs_string *s);
/* The type reference after a BeginObject: a record (BeginObject,
 * NullReference, version, minimum reader version, name, EndObject) or an
 * ObjectReference to one read before. */
int fs_read_type(fs_cursor *c, fs_types *seen, fs_type *type, lf_error *err);
/* The file offset forward reference idx stands for. */
int fs_forward(fs_cursor *c, int32_t idx, uint64_t *offset, lf_error *err);
/* Skips the tagged fields at the end of an object (ones a newer writer
 * added) to just after its EndObject. Only tagged fields may be left: the
 * object's plain fields must have been read. */
int fs_skip_tagged_to_end(fs_cursor *c, lf_error *err);

#endif
