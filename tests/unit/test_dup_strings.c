/* test_dup_strings.c - a string object's preview (core/analysis/dup_strings.h,
 * lf_string_preview) on a dump written here: which objects are strings,
 * their texts as built, an empty one, and a long one cut; and the
 * duplicate groups of more strings than the comparison sort takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/analysis/dup_strings.h"
#include "../../core/hprof/hprof.h"
#include "../../core/hprof/hprof_format.h"
#include "hprof_writer.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

enum { LONG_CHARS = 50 };

/* The header, class java.lang.String (0x100) and byte[] (0x200) loaded,
 * and a heap dump segment begun. */
static void begin_strings(hw_buf *b)
{
    static const char *names[] = {"java/lang/String", "value", "coder", "[B"};
    hw_begin(b, "JAVA PROFILE 1.0.2", 4);
    for (unsigned i = 0; i < 4; i++)
        hw_string(b, i + 1, names[i]);
    hw_load_class(b, 1, 0x100, 1);
    hw_load_class(b, 2, 0x200, 4);
    hw_record(b, HPROF_HEAP_DUMP_SEGMENT);
}

/* class java.lang.String { Object value; byte coder; } (JDK 9+ layout) and
 * the strings 0x1000 "a\tb\n" (Latin-1), 0x1100 "" and 0x1200 of LONG_CHARS
 * 'y's, their byte[] values 0x2000 + ..., and a byte[] 0x3000 "zz" that is
 * no String's; JNI globals hold them all. */
static void build(hw_buf *b)
{
    begin_strings(b);
    static const uint64_t held[] = {0x1000, 0x1100, 0x1200, 0x3000};
    for (unsigned i = 0; i < 4; i++) {
        hw_u1(b, HPROF_ROOT_JNI_GLOBAL);
        hw_id(b, held[i]);
        hw_id(b, 0);
    }
    uint64_t sid[2] = {2, 3};
    uint8_t type[2] = {HPROF_OBJECT, HPROF_BYTE};
    hw_class_dump(b, 0x100, 0, 0, 5, 2, sid, type);
    hw_class_dump(b, 0x200, 0, 0, 0, 0, NULL, NULL);
    static const char *const text[3] = {"a\tb\n", "", NULL};
    char longer[LONG_CHARS];
    memset(longer, 'y', sizeof longer);
    for (unsigned i = 0; i < 3; i++) {
        uint32_t value = 0x2000 + 0x100 * i;
        uint8_t fields[5] = {0, 0, (uint8_t)(value >> 8), (uint8_t)value, 0 /* LATIN1 */};
        hw_instance(b, 0x1000 + 0x100 * i, 0x100, fields, sizeof fields);
        const char *t = text[i] ? text[i] : longer;
        uint32_t n = text[i] ? (uint32_t)strlen(text[i]) : LONG_CHARS;
        hw_prim_array(b, value, HPROF_BYTE, n, t, 1);
    }
    hw_prim_array(b, 0x3000, HPROF_BYTE, 2, "zz", 1);
    hw_record_end(b);
    hw_record(b, HPROF_HEAP_DUMP_END);
    hw_record_end(b);
}

void test_string_preview(void)
{
    hw_buf b;
    build(&b);
    lf_snapshot s;
    if (test_parse_hprof(&b, &s))
        return;
    char buf[4 * 40 + 8];
    size_t len;
    uint64_t chars;
    /* the text as built, control characters and all (the CLI escapes them) */
    CHECK(lf_string_preview(&s, lf_snapshot_find_id(&s, 0x1000), 40, buf, sizeof buf, &len, &chars) == 1);
    CHECK(len == 4 && memcmp(buf, "a\tb\n", 4) == 0 && chars == 4);
    /* an empty String is a string with no characters */
    CHECK(lf_string_preview(&s, lf_snapshot_find_id(&s, 0x1100), 40, buf, sizeof buf, &len, &chars) == 1);
    CHECK(len == 0 && chars == 0);
    /* a long one: the first 40 characters, and how many it has */
    CHECK(lf_string_preview(&s, lf_snapshot_find_id(&s, 0x1200), 40, buf, sizeof buf, &len, &chars) == 1);
    CHECK_EQ_U64(len, 40);
    CHECK_EQ_U64(chars, LONG_CHARS);
    CHECK(buf[0] == 'y' && buf[39] == 'y');
    /* a byte[], its String's or not, is no string to preview */
    CHECK(lf_string_preview(&s, lf_snapshot_find_id(&s, 0x2000), 40, buf, sizeof buf, &len, &chars) == 0);
    CHECK(lf_string_preview(&s, lf_snapshot_find_id(&s, 0x3000), 40, buf, sizeof buf, &len, &chars) == 0);
    lf_snapshot_free(&s);
    hw_free(&b);
}

/* More strings than dup_strings.c sorts by comparison (its buckets take
 * 65,536 and up): string i (id 0x10000 + i) has text "text-<k>", k = i *
 * 7919 mod TEXTS, so each text's copies lie all over the node order. */
enum { MANY_STRINGS = 70000, TEXTS = 1000 };

static void build_many(hw_buf *b)
{
    begin_strings(b);
    for (uint32_t i = 0; i < MANY_STRINGS; i++) {
        hw_u1(b, HPROF_ROOT_JNI_GLOBAL);
        hw_id(b, 0x10000 + i);
        hw_id(b, 0);
    }
    uint64_t sid[2] = {2, 3};
    uint8_t type[2] = {HPROF_OBJECT, HPROF_BYTE};
    hw_class_dump(b, 0x100, 0, 0, 5, 2, sid, type);
    hw_class_dump(b, 0x200, 0, 0, 0, 0, NULL, NULL);
    for (uint32_t i = 0; i < MANY_STRINGS; i++) {
        uint32_t value = 0x100000 + i;
        uint8_t fields[5] = {(uint8_t)(value >> 24), (uint8_t)(value >> 16), (uint8_t)(value >> 8), (uint8_t)value,
                             0 /* LATIN1 */};
        hw_instance(b, 0x10000 + i, 0x100, fields, sizeof fields);
        char text[16];
        int n = snprintf(text, sizeof text, "text-%u", (unsigned)((uint64_t)i * 7919 % TEXTS));
        hw_prim_array(b, value, HPROF_BYTE, (uint32_t)n, text, 1);
    }
    hw_record_end(b);
    hw_record(b, HPROF_HEAP_DUMP_END);
    hw_record_end(b);
}

void test_strings_many(void)
{
    hw_buf b;
    build_many(&b);
    lf_snapshot s;
    lf_error err = {0};
    if (test_parse_hprof(&b, &s))
        return;
    lf_string_set set;
    CHECK(lf_analyze(&s, 0, 1, &err) == 0);
    CHECK(lf_strings_find(&s, 2, &set, &err) == 0);
    CHECK_EQ_U64(set.count, MANY_STRINGS);
    /* 7919 is prime to 1000: every text has 70 copies */
    CHECK_EQ_U64(set.group_count, TEXTS);
    uint64_t wrong_copies = 0, out_of_order = 0, wrong_text = 0;
    for (uint64_t g = 0; g < set.group_count; g++) {
        const lf_dup_group *d = &set.group[g];
        wrong_copies += d->copies != MANY_STRINGS / TEXTS;
        /* a group's copies: one run of its key, in node order, one text */
        char first[32], text[32];
        size_t len0, len;
        uint64_t chars;
        lf_string_preview(&s, set.str[d->first].node, 20, first, sizeof first, &len0, &chars);
        for (uint32_t k = 1; k < d->copies; k++) {
            const lf_string_obj *a = &set.str[d->first + k - 1], *o = &set.str[d->first + k];
            out_of_order += o->key != a->key || o->node <= a->node;
            lf_string_preview(&s, o->node, 20, text, sizeof text, &len, &chars);
            wrong_text += len != len0 || memcmp(text, first, len) != 0;
        }
    }
    CHECK_EQ_U64(wrong_copies, 0);
    CHECK_EQ_U64(out_of_order, 0);
    CHECK_EQ_U64(wrong_text, 0);
    uint64_t keys_down = 0;
    for (uint64_t i = 1; i < set.count; i++)
        keys_down += set.str[i].key < set.str[i - 1].key;
    CHECK_EQ_U64(keys_down, 0);
    lf_strings_free(&set);
    lf_snapshot_free(&s);
    hw_free(&b);
}
