/* test_json_scan.c - skipping JSON values: where each skip ends, on values
 * whose ends are known from how they are written. */
#include <stdlib.h>
#include <string.h>

#include "../../core/v8/json_scan.h"
#include "test.h"
#include "tests.h"

/* Skips one value at the start of text; returns where the skip ended (or
 * -1 on an error) and the error's offset in *err_at. */
static long long skip_at_start(const char *text, uint64_t *err_at)
{
    lf_error err;
    memset(&err, 0, sizeof err);
    lf_json j = {(const uint8_t *)text, 0, strlen(text), &err};
    int rc = lf_json_skip(&j);
    *err_at = err.position;
    return rc == 0 ? (long long)j.pos : -1;
}

void test_json_skip_values(void)
{
    static const struct {
        const char *text;
        long long end; /* the first byte after the value: the '|' marker */
    } cases[] = {
        {"12|", 2},
        {"-1.5e+3|", 7},
        {"\"a\\\"b,}\"|", 8},
        {"true|", 4},
        {"null|", 4},
        {"[]|", 2},
        {"{}|", 2},
        {"[1, 2, 3]|", 9},
        /* several members: each key and value must be stepped over */
        {"{\"a\": 1, \"b\": [2, {\"c\": \"}\"}], \"d\": {}}|", 39},
        {"[{\"k\": [[], {\"x\": [1]}]}, \"]\", 7]|", 33},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t err_at = 0;
        long long end = skip_at_start(cases[i].text, &err_at);
        CHECK_EQ_U64(end, cases[i].end);
        CHECK(end >= 0 && cases[i].text[end] == '|');
    }
}

void test_json_skip_errors(void)
{
    /* the offset is the byte that breaks the grammar: a '}' where a member's
     * value belongs, the end where ',' or ']' belongs, a '1' where ':' does */
    static const struct {
        const char *text;
        uint64_t at;
    } cases[] = {
        {"{\"a\": }", 6},
        {"[1, 2", 5},
        {"{\"a\" 1}", 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t err_at = 0;
        CHECK(skip_at_start(cases[i].text, &err_at) == -1);
        CHECK_EQ_U64(err_at, cases[i].at);
    }
    uint64_t err_at = 0;
    CHECK(skip_at_start("\"abc", &err_at) == -1); /* a string that never ends */
}

/* Strings with a quote or backslash at every offset of a 16-byte step and
 * near the end of the input: the decoded text is the run of 'a's around the
 * escape, built here, and the position is just past the closing quote. */
void test_json_string_escape_offsets(void)
{
    for (size_t before = 0; before < 40; before++) {
        for (int escape = 0; escape < 3; escape++) {
            static const char *const written[] = {"\\\"", "\\\\", "\\n"};
            static const char decoded[] = {'"', '\\', '\n'};
            char text[128], want[128];
            size_t at = 0, w = 0;
            text[at++] = '"';
            for (size_t k = 0; k < before; k++)
                text[at++] = 'a', want[w++] = 'a';
            memcpy(text + at, written[escape], 2);
            at += 2;
            want[w++] = decoded[escape];
            for (size_t k = 0; k < 17; k++)
                text[at++] = 'b', want[w++] = 'b';
            text[at++] = '"';
            const size_t end = at;
            text[at] = 0; /* the input ends at the closing quote */
            lf_error err;
            memset(&err, 0, sizeof err);
            lf_json j = {(const uint8_t *)text, 0, end, &err};
            char *buf = NULL;
            size_t cap = 0, len = 0;
            CHECK(lf_json_string(&j, &buf, &cap, &len) == 0);
            CHECK_EQ_U64(len, w);
            CHECK(buf && len == w && memcmp(buf, want, w) == 0);
            CHECK_EQ_U64(j.pos, end);
            free(buf);
        }
    }
    /* no closing quote within the input: an error at its end */
    const char open_text[] = "\"aaaaaaaaaaaaaaaaaaaaaaaa\\n";
    lf_error err;
    memset(&err, 0, sizeof err);
    lf_json j = {(const uint8_t *)open_text, 0, sizeof open_text - 1, &err};
    char *buf = NULL;
    size_t cap = 0, len = 0;
    CHECK(lf_json_string(&j, &buf, &cap, &len) == -1);
    CHECK(err.truncated == 1);
    free(buf);
}
