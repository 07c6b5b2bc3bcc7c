/* gen_arrays.c - writes a JVM heap dump (HPROF 1.0.2, 8-byte ids) of object
 * arrays full of small objects: the shape that made holder lookups quadratic
 * (issue 19), and, small, a dump whose holders are known by construction.
 *
 * Array a (0-based) is held by a Holder (a JNI global root) through its field
 * `items`; its element i is an Item, except:
 *   - i % 7 == 3: null (the dump's edge numbers then differ from indices);
 *   - i % 1000 == 999: the Item of element i - 1 again (its first index holds it);
 *   - the Item of element 5 is also the Holder's field `first`, so the Holder
 *     dominates it and holds it by `first`.
 * Every other Item is dominated by its array and held by "[i]". The Item of
 * element i of array a has id ITEM_ID(a, i), so a test can work out each
 * object's holder from its id alone; an Item's int field `value` is i.
 *
 * usage: gen_arrays OUT.hprof SMALL BIG [SMALL_LEN [BIG_LEN [GROWTH]]]
 *   SMALL arrays of SMALL_LEN elements (default 262144) and BIG of BIG_LEN
 *   (default 1048576); GROWTH more elements in each (a later dump of the same
 *   program, for diff --owners). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/hprof_writer.h"

enum { T_OBJECT = 2, T_INT = 10 };
enum { SID_OBJECT = 1, SID_HOLDER, SID_ITEM, SID_ARRAY, SID_ITEMS, SID_FIRST, SID_VALUE };
enum { C_OBJECT = 0x100, C_HOLDER = 0x200, C_ITEM = 0x300, C_ARRAY = 0x400 };
#define HOLDER_ID(a) (0x10000000ull + ((uint64_t)(a) << 4))
#define ARRAY_ID(a) (0x20000000ull + ((uint64_t)(a) << 4))
/* up to 2^24 elements per array, 2^8 arrays */
#define ITEM_ID(a, i) (0x100000000ull + (((uint64_t)(a) << 24 | (uint64_t)(i)) << 4))
/* a heap dump segment is flushed to the file past this many bytes */
#define SEGMENT_BYTES (64u << 20)

static FILE *out;

static void flush_segment(hw_buf *b, int reopen)
{
    hw_record_end(b);
    if (fwrite(b->data, 1, b->len, out) != b->len) {
        perror("gen_arrays: write");
        exit(4);
    }
    b->len = 0;
    if (reopen)
        hw_record(b, 0x1c);
}

static void put_u4_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static uint64_t element(uint32_t a, uint32_t i)
{
    if (i % 7 == 3)
        return 0;
    if (i % 1000 == 999)
        return element(a, i - 1);
    return ITEM_ID(a, i);
}

static void write_array(hw_buf *b, uint32_t a, uint32_t len, uint64_t *elems)
{
    uint8_t fields[16];
    /* Holder: items, first (8-byte ids), then the fields of its superclass (none) */
    for (int k = 0; k < 4; k++)
        put_u4_be(fields + 4 * k, 0);
    put_u4_be(fields, (uint32_t)(ARRAY_ID(a) >> 32));
    put_u4_be(fields + 4, (uint32_t)ARRAY_ID(a));
    uint64_t first = len > 5 ? element(a, 5) : 0;
    put_u4_be(fields + 8, (uint32_t)(first >> 32));
    put_u4_be(fields + 12, (uint32_t)first);
    hw_instance(b, HOLDER_ID(a), C_HOLDER, fields, 16);
    for (uint32_t i = 0; i < len; i++)
        elems[i] = element(a, i);
    hw_obj_array(b, ARRAY_ID(a), C_ARRAY, (int)len, elems);
    for (uint32_t i = 0; i < len; i++) {
        if (elems[i] != ITEM_ID(a, i))
            continue;
        uint8_t value[4];
        put_u4_be(value, i);
        hw_instance(b, ITEM_ID(a, i), C_ITEM, value, 4);
        if (b->len > SEGMENT_BYTES)
            flush_segment(b, 1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 7) {
        fprintf(stderr, "usage: gen_arrays OUT.hprof SMALL BIG [SMALL_LEN [BIG_LEN [GROWTH]]]\n");
        return 2;
    }
    uint32_t small = (uint32_t)strtoul(argv[2], NULL, 10), big = (uint32_t)strtoul(argv[3], NULL, 10);
    uint32_t small_len = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 1u << 18;
    uint32_t big_len = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 10) : 1u << 20;
    uint32_t growth = argc > 6 ? (uint32_t)strtoul(argv[6], NULL, 10) : 0;
    if (small + big > 256 || small_len + growth >= 1u << 24 || big_len + growth >= 1u << 24) {
        fprintf(stderr, "gen_arrays: at most 256 arrays of fewer than 2^24 elements\n");
        return 2;
    }
    uint32_t longest = (small ? small_len : 0) > (big ? big_len : 0) ? small_len : big_len;
    uint64_t *elems = malloc(((size_t)longest + growth + 1) * sizeof *elems);
    out = fopen(argv[1], "wb");
    if (!elems || !out) {
        perror("gen_arrays");
        return 4;
    }
    static const char *names[] = {"", "java.lang.Object", "Holder", "Item", "[Ljava.lang.Object;",
                                  "items", "first", "value"};
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    for (uint64_t i = 1; i < sizeof names / sizeof names[0]; i++)
        hw_string(&b, i, names[i]);
    hw_load_class(&b, 1, C_OBJECT, SID_OBJECT);
    hw_load_class(&b, 2, C_HOLDER, SID_HOLDER);
    hw_load_class(&b, 3, C_ITEM, SID_ITEM);
    hw_load_class(&b, 4, C_ARRAY, SID_ARRAY);
    hw_record(&b, 0x1c);
    const uint64_t holder_sid[] = {SID_ITEMS, SID_FIRST}, item_sid[] = {SID_VALUE};
    const uint8_t holder_type[] = {T_OBJECT, T_OBJECT}, item_type[] = {T_INT};
    hw_class_dump(&b, C_OBJECT, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, C_HOLDER, C_OBJECT, 0, 16, 2, holder_sid, holder_type);
    hw_class_dump(&b, C_ITEM, C_OBJECT, 0, 4, 1, item_sid, item_type);
    hw_class_dump(&b, C_ARRAY, C_OBJECT, 0, 0, 0, NULL, NULL);
    for (uint32_t a = 0; a < small + big; a++) {
        hw_u1(&b, 0x01); /* ROOT JNI GLOBAL: the Holder, global ref a + 1 */
        hw_id(&b, HOLDER_ID(a));
        hw_id(&b, a + 1);
    }
    for (uint32_t a = 0; a < small + big; a++)
        write_array(&b, a, (a < small ? small_len : big_len) + growth, elems);
    flush_segment(&b, 0);
    hw_record(&b, 0x2c); /* HEAP DUMP END */
    hw_record_end(&b);
    if (fwrite(b.data, 1, b.len, out) != b.len || fclose(out) != 0) {
        perror("gen_arrays: write");
        return 4;
    }
    hw_free(&b);
    free(elems);
    return 0;
}
