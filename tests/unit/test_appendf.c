/* test_appendf.c - printf onto a fixed buffer (core/base/appendf.h): the
 * text is cut at the buffer's end, never past it, and stays terminated. */
#include <stdio.h>
#include <string.h>

#include "../../core/base/appendf.h"
#include "test.h"
#include "tests.h"

void test_appendf(void)
{
    char buf[12];
    size_t at = 0;
    memset(buf, 'x', sizeof buf);
    buf[0] = 0;
    lf_appendf(buf, sizeof buf, &at, "%s'%s'", "", "ab");
    CHECK(at == 4 && strcmp(buf, "'ab'") == 0);
    lf_appendf(buf, sizeof buf, &at, ", %d", 12345);
    CHECK(at == 11 && strcmp(buf, "'ab', 12345") == 0);
    CHECK(!lf_append_room(sizeof buf, at));
    /* full: nothing more, the text as it was */
    lf_appendf(buf, sizeof buf, &at, "more");
    CHECK(at == 11 && strcmp(buf, "'ab', 12345") == 0);
    /* a piece that does not fit is cut, terminated in the last byte */
    char small[8];
    at = 0;
    lf_appendf(small, sizeof small, &at, "%s", "abc");
    lf_appendf(small, sizeof small, &at, "%s", "defghij");
    CHECK(at == 7 && strcmp(small, "abcdefg") == 0);
}
