/* test_dup_strings.c - a string object's preview (core/analysis/dup_strings.h,
 * lf_string_preview) on a dump written here: which objects are strings,
 * their texts as built, an empty one, and a long one cut. */
#include <string.h>

#include "../../core/analysis/dup_strings.h"
#include "../../core/hprof/hprof.h"
#include "../../core/hprof/hprof_format.h"
#include "hprof_writer.h"
#include "test.h"
#include "tests.h"

enum { LONG_CHARS = 50 };

/* class java.lang.String { Object value; byte coder; } (JDK 9+ layout) and
 * the strings 0x1000 "a\tb\n" (Latin-1), 0x1100 "" and 0x1200 of LONG_CHARS
 * 'y's, their byte[] values 0x2000 + ..., and a byte[] 0x3000 "zz" that is
 * no String's; JNI globals hold them all. */
static void build(hw_buf *b)
{
    static const char *names[] = {"java/lang/String", "value", "coder", "[B"};
    hw_begin(b, "JAVA PROFILE 1.0.2", 4);
    for (unsigned i = 0; i < 4; i++)
        hw_string(b, i + 1, names[i]);
    hw_load_class(b, 1, 0x100, 1);
    hw_load_class(b, 2, 0x200, 4);
    hw_record(b, HPROF_HEAP_DUMP_SEGMENT);
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
    lf_error err = {0};
    int rc = lf_hprof_parse(b.data, b.len, 0, 1, &s, &err);
    CHECK(rc == 0);
    if (rc) {
        hw_free(&b);
        return;
    }
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
