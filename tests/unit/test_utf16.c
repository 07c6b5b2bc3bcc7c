/* test_utf16.c - UTF-16 to UTF-8 by the one rule every reader shares
 * (core/base/utf8.h): a pair is one code point, a lone surrogate U+FFFD. The
 * expected bytes are worked out by hand from the code points. */
#include <stdlib.h>
#include <string.h>

#include "../../core/base/utf8.h"
#include "../../core/gcdump/fastser.h"
#include "../../core/v8/json_scan.h"
#include "test.h"
#include "tests.h"

void test_utf16_code_point(void)
{
    static const struct {
        uint32_t unit;
        int64_t next;
        uint32_t code_point;
        int took_next;
    } cases[] = {
        {'A', 'B', 'A', 0},
        {0x20ac, -1, 0x20ac, 0},         /* the euro sign, nothing after it */
        {0xd83d, 0xde00, 0x1f600, 1},    /* a pair: U+1F600 */
        {0xdbff, 0xdfff, 0x10ffff, 1},   /* the last code point */
        {0xd800, 'x', 0xfffd, 0},        /* a high surrogate, no low one after */
        {0xd800, 0xd800, 0xfffd, 0},     /* two highs: the first stands alone */
        {0xd800, -1, 0xfffd, 0},         /* a high one at the end */
        {0xdc00, 0xdc00, 0xfffd, 0},     /* a low one first */
        {0xe000, 0xdc00, 0xe000, 0},     /* past the surrogates */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int took = -1;
        CHECK_EQ_U64(lf_utf16_code_point(cases[i].unit, cases[i].next, &took), cases[i].code_point);
        CHECK_EQ_U64(took, (uint64_t)cases[i].took_next);
    }
    char o[4];
    CHECK(lf_utf8_put(o, 0x1f600) == 4 && memcmp(o, "\xf0\x9f\x98\x80", 4) == 0);
    CHECK(lf_utf8_put(o, 0xfffd) == 3 && memcmp(o, "\xef\xbf\xbd", 3) == 0);
}

/* V8's strings: \u escapes, a pair across two of them. */
void test_utf16_json_escapes(void)
{
    static const struct {
        const char *json, *text;
    } cases[] = {
        {"\"a\\ud83d\\ude00b\"", "a\xf0\x9f\x98\x80" "b"},
        {"\"\\ud800\\u0041\"", "\xef\xbf\xbd" "A"},  /* the escape after a lone high stands alone */
        {"\"\\udc00\\ud83d\"", "\xef\xbf\xbd\xef\xbf\xbd"},
        {"\"\\ud83dx\"", "\xef\xbf\xbdx"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lf_error err;
        memset(&err, 0, sizeof err);
        lf_json j = {(const uint8_t *)cases[i].json, 0, strlen(cases[i].json), &err};
        char *buf = NULL;
        size_t cap = 0, len = 0;
        CHECK(lf_json_string(&j, &buf, &cap, &len) == 0);
        CHECK(len == strlen(cases[i].text) && buf && memcmp(buf, cases[i].text, len) == 0);
        CHECK_EQ_U64(j.pos, strlen(cases[i].json));
        free(buf);
    }
}

/* A .gcdump's strings: a count of UTF-16 units, each written in 1 to 3
 * bytes (U+D83D is ED A0 BD, U+DE00 ED B8 80, U+D800 ED A0 80). */
void test_utf16_gcdump_strings(void)
{
    static const uint8_t data[] = {
        6, 0, 0, 0,                         /* six units: */
        'A', 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, /* A, U+1F600 as a pair */
        0xed, 0xa0, 0x80, 'B',              /* a lone high one, B */
        0xed, 0xa0, 0x80,                   /* a high one at the end */
        2, 0, 0, 0, 0xed, 0xa0, 0xbd,       /* two units, the second missing */
    };
    fs_cursor c = {data, sizeof data, 0, NULL, 0, 0};
    fs_string s = {0};
    lf_error err;
    memset(&err, 0, sizeof err);
    CHECK(fs_read_string(&c, &s, "a name", &err) == 0);
    static const char want[] = "A\xf0\x9f\x98\x80\xef\xbf\xbd" "B\xef\xbf\xbd";
    CHECK(s.len == sizeof want - 1 && memcmp(s.text, want, s.len) == 0);
    CHECK_EQ_U64(c.pos, 18);
    CHECK(fs_read_string(&c, &s, "a name", &err) == -1);
    CHECK_EQ_U64(err.position, sizeof data);
    free(s.text);
}
