/* test_json_scan.c - skipping JSON values: where each skip ends, on values
 * whose ends are known from how they are written. */
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
