/* test_hprof_values.c - inspect's field decoder (core/hprof/hprof_values.h) on a
 * dump written here: exact values set by construction, and damaged records
 * that must give an error with the offset, not a crash. */
#include <stdlib.h>
#include <string.h>

#include "../../core/hprof/hprof.h"
#include "../../core/hprof/hprof_format.h"
#include "../../core/hprof/hprof_values.h"
#include "../../core/query/query.h"
#include "hprof_writer.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

/* class Base { long baseId; }  class Item extends Base { int count; float
 * ratio; boolean flag; Object next; }  one Item 0x1000 = {4711, 0.5, true,
 * 0x1000 (itself), baseId 77}, and a char[] 0x2000 "hé". */
static void build(hw_buf *b)
{
    static const char *names[] = {"Base", "Item", "count", "ratio", "flag", "next", "baseId", "[C"};
    hw_begin(b, "JAVA PROFILE 1.0.2", 4);
    for (unsigned i = 0; i < 8; i++)
        hw_string(b, i + 1, names[i]);
    hw_load_class(b, 1, 0x100, 1);
    hw_load_class(b, 2, 0x200, 2);
    hw_load_class(b, 3, 0x300, 8);
    hw_record(b, HPROF_HEAP_DUMP_SEGMENT);
    hw_u1(b, HPROF_ROOT_STICKY_CLASS);
    hw_id(b, 0x100);
    hw_u1(b, HPROF_ROOT_JNI_GLOBAL);
    hw_id(b, 0x1000);
    hw_id(b, 0);
    uint64_t base_sid = 7, item_sid[4] = {3, 4, 5, 6};
    uint8_t base_type = HPROF_LONG, item_type[4] = {HPROF_INT, HPROF_FLOAT, HPROF_BOOLEAN, HPROF_OBJECT};
    hw_class_dump(b, 0x100, 0, 0, 8, 1, &base_sid, &base_type);
    hw_class_dump(b, 0x200, 0x100, 0, 21, 4, item_sid, item_type);
    hw_class_dump(b, 0x300, 0, 0, 0, 0, NULL, NULL);
    uint8_t data[21] = {0, 0, 0x12, 0x67,     /* count 4711 */
                        0x3f, 0, 0, 0,       /* ratio 0.5f */
                        1,                   /* flag */
                        0, 0, 0x10, 0,       /* next */
                        0, 0, 0, 0, 0, 0, 0, 77}; /* baseId */
    hw_instance(b, 0x1000, 0x200, data, sizeof data);
    uint8_t chars[4] = {0, 'h', 0, 0xe9};
    hw_prim_array(b, 0x2000, HPROF_CHAR, 2, chars, 2);
    hw_record_end(b);
    hw_record(b, HPROF_HEAP_DUMP_END);
    hw_record_end(b);
}

static const uint8_t *find_bytes(const hw_buf *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + n <= b->len; i++)
        if (memcmp(b->data + i, p, n) == 0)
            return b->data + i;
    return NULL;
}

static int walk_all(const struct hprof_lazy *l, const lf_jobject *o, lf_jfield *f, int max, lf_error *err)
{
    lf_jfield_walk w;
    int n = 0, got;
    lf_jfields_start(&w, l, o, 0);
    while (n < max && (got = lf_jfields_next(&w, &f[n], err)) == 1)
        n++;
    return n < max && got < 0 ? -1 : n;
}

static void check_values(const lf_snapshot *s, const struct hprof_lazy *l)
{
    lf_jobject o;
    lf_error err = {0};
    lf_jfield f[8];
    CHECK(lf_jobject_read(l, lf_snapshot_find_id(s, 0x1000), &o, &err) == 0);
    CHECK(o.kind == LF_J_INSTANCE);
    CHECK_EQ_U64(walk_all(l, &o, f, 8, &err), 5);
    CHECK_EQ_U64(f[0].value.type, HPROF_INT);
    CHECK_EQ_U64(f[0].value.bits, 4711);
    CHECK_EQ_U64(f[1].value.bits, 0x3f000000);
    CHECK_EQ_U64(f[2].value.bits, 1);
    CHECK_EQ_U64(f[3].value.bits, 0x1000);
    CHECK_EQ_U64(f[4].value.type, HPROF_LONG);
    CHECK_EQ_U64(f[4].value.bits, 77);
    uint64_t sid[5] = {f[0].name_sid, f[1].name_sid, f[2].name_sid, f[3].name_sid, f[4].name_sid};
    lf_str name[5];
    CHECK(lf_hprof_names(l, sid, 5, name, &err) == 0);
    CHECK(name[0].len == 5 && memcmp(name[0].ptr, "count", 5) == 0);
    CHECK(name[4].len == 6 && memcmp(name[4].ptr, "baseId", 6) == 0);
    char buf[32];
    lf_jtext t = {buf, sizeof buf, 0, 0, 0};
    CHECK(lf_jtext_read(l, s, lf_snapshot_find_id(s, 0x2000), 10, &t, &err) == 1);
    CHECK(t.len == 3 && memcmp(buf, "h\xc3\xa9", 3) == 0);
    CHECK(lf_jtext_read(l, s, lf_snapshot_find_id(s, 0x2000), 1, &t, &err) == 1);
    CHECK(t.chars == 2 && t.shown == 1 && t.len == 1);
}

void test_hprof_values(void)
{
    hw_buf b;
    build(&b);
    lf_snapshot s;
    lf_error err = {0};
    if (test_parse_hprof(&b, &s))
        return;
    const struct hprof_lazy *l = lf_hprof_lazy(&s);
    CHECK(l != NULL);
    if (l)
        check_values(&s, l);
    /* A field descriptor with a type byte no JVM writes: an error at it. */
    static const uint8_t count_desc[5] = {0, 0, 0, 3, HPROF_INT};
    uint8_t *desc = (uint8_t *)find_bytes(&b, count_desc, 5);
    lf_jobject o;
    lf_jfield f[8];
    CHECK(desc != NULL);
    if (l && desc) {
        desc[4] = 0x33;
        CHECK(lf_jobject_read(l, lf_snapshot_find_id(&s, 0x1000), &o, &err) == 0);
        CHECK(walk_all(l, &o, f, 8, &err) == -1);
        CHECK_EQ_U64(err.position, (uint64_t)(desc + 4 - b.data));
        CHECK(strstr(err.reason, "bad field type") != NULL);
        desc[4] = HPROF_INT;
    }
    /* Field bytes shorter than the class says: an error, not a read past them. */
    static const uint8_t item_head[12] = {0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 2, 0};
    uint8_t *head = (uint8_t *)find_bytes(&b, item_head, 12);
    CHECK(head != NULL);
    if (l && head) {
        head[15] = 10; /* 21 field bytes said to be 10 */
        CHECK(lf_jobject_read(l, lf_snapshot_find_id(&s, 0x1000), &o, &err) == 0);
        CHECK(walk_all(l, &o, f, 8, &err) == -1);
        CHECK(strstr(err.reason, "truncated") != NULL);
        head[15] = 0xff, head[14] = 0xff; /* past the end of the file */
        CHECK(lf_jobject_read(l, lf_snapshot_find_id(&s, 0x1000), &o, &err) == -1);
        CHECK(strstr(err.reason, "truncated") != NULL);
    }
    lf_snapshot_free(&s);
    hw_free(&b);
}

/* What `query` reads: Item's layout (its own fields, then Base's), the
 * string ids of names, a value at an offset. */
static void check_layout(const lf_snapshot *s, const struct hprof_lazy *l)
{
    uint32_t item = s->object_class[lf_snapshot_find_id(s, 0x1000)];
    uint32_t base = lf_jclass_super(l, item);
    CHECK(base < s->class_count && lf_jclass_super(l, base) == UINT32_MAX);
    lf_jfield_walk w;
    lf_jfield f;
    lf_error err = {0};
    static const uint64_t at[5] = {0, 4, 8, 9, 13}, sid[5] = {3, 4, 5, 6, 7};
    int n = 0;
    lf_jfields_layout(&w, l, item);
    for (; n < 6 && lf_jfields_next(&w, &f, &err) == 1; n++)
        CHECK(n < 5 && f.at == at[n] && f.name_sid == sid[n] && f.declared_in == (n < 4 ? item : base));
    CHECK_EQ_U64(n, 5);
    static const lf_str names[3] = {{"baseId", 6}, {"count", 5}, {"nope", 4}};
    lf_hprof_sid *found;
    size_t count;
    CHECK(lf_hprof_find_strings(l, names, 3, &found, &count, &err) == 0);
    CHECK_EQ_U64(count, 2);
    CHECK(count == 2 && found[0].sid == 3 && found[0].name == 1 && found[1].sid == 7 && found[1].name == 0);
    free(found);
}

typedef struct seen_rows {
    int rows;
    lf_qvalue cell[2];
} seen_rows;

static int keep_row(void *ctx, const lf_qvalue *cell, size_t n)
{
    seen_rows *r = ctx;
    if (r->rows++ == 0 && n == 2)
        r->cell[0] = cell[0], r->cell[1] = cell[1];
    return 0;
}

/* A query of Item's fields: count and baseId, or, when the record holds
 * fewer bytes than its class's fields, count and null (as the reader
 * reads no reference from such a record). */
static void check_query(const lf_snapshot *s, int64_t want_base_id)
{
    lf_query *q;
    lf_error err = {0};
    seen_rows r = {0};
    CHECK(lf_query_parse("select count, baseId from Item", 30, &q, &err) == 0);
    if (!q)
        return;
    uint8_t *match = calloc(s->class_count + 1, 1);
    if (match)
        match[s->object_class[lf_snapshot_find_id(s, 0x1000)]] = 1;
    lf_query_set_class(q, 0, match);
    CHECK(lf_query_prepare(q, s, &err) == 0 && lf_query_run(q, s, keep_row, &r, &err) == 0);
    CHECK_EQ_U64(r.rows, 1);
    CHECK(r.cell[0].type == LF_QV_INT && r.cell[0].i == 4711);
    CHECK(want_base_id < 0 ? r.cell[1].type == LF_QV_NULL : r.cell[1].type == LF_QV_INT && r.cell[1].i == want_base_id);
    lf_query_free(q);
}

void test_hprof_values_layout(void)
{
    hw_buf b;
    build(&b);
    lf_snapshot s;
    lf_error err = {0};
    int rc = lf_hprof_parse(b.data, b.len, 0, 1, &s, &err);
    const struct hprof_lazy *l = rc ? NULL : lf_hprof_lazy(&s);
    CHECK(l != NULL);
    if (l) {
        check_layout(&s, l);
        check_query(&s, 77);
    }
    /* 21 field bytes said to be 10: baseId (8 bytes at 13) is past them, an
     * error at the record's offset; count (at 0) is in them */
    static const uint8_t item_head[12] = {0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 2, 0};
    uint8_t *head = (uint8_t *)find_bytes(&b, item_head, 12);
    CHECK(head != NULL);
    if (l && head) {
        head[15] = 10;
        lf_jobject o;
        lf_jvalue v;
        CHECK(lf_jobject_read(l, lf_snapshot_find_id(&s, 0x1000), &o, &err) == 0);
        CHECK(lf_jfield_value(l, &o, 0, HPROF_INT, &v, &err) == 0 && v.bits == 4711);
        CHECK(lf_jfield_value(l, &o, 13, HPROF_LONG, &v, &err) == -1);
        CHECK_EQ_U64(err.position, o.record_at);
        CHECK_EQ_U64(err.position, (uint64_t)(head - 1 - b.data));
        CHECK(strcmp(err.reason, "truncated record") == 0);
        check_query(&s, -1);
        head[15] = 21;
    }
    if (!rc)
        lf_snapshot_free(&s);
    hw_free(&b);
}

/* Latin-1 and UTF-16 (with a surrogate pair and a lone surrogate) to UTF-8. */
void test_hprof_values_text(void)
{
    char buf[64];
    lf_jtext t = {buf, sizeof buf, 0, 0, 0};
    const uint8_t latin1[3] = {'Z', 0xfc, '!'};
    lf_jtext_latin1(latin1, 3, 100, &t);
    CHECK(t.len == 4 && memcmp(buf, "Z\xc3\xbc!", 4) == 0 && t.chars == 3);
    const uint8_t utf16le[8] = {0xac, 0x20, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8}; /* € 😀 lone */
    lf_jtext_utf16(utf16le, 4, 0, 100, &t);
    CHECK(t.chars == 3);
    CHECK(t.len == 3 + 4 + 3 && memcmp(buf, "\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbd", 10) == 0);
}
