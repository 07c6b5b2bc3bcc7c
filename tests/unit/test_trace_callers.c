/* test_trace_callers.c - a site's callers from its backtrace
 * (cmd/cli/trace_rows.h): the site's own frame goes, the callers stay in
 * order, and past the most shown one entry says how many more. */
#include <stdio.h>
#include <string.h>

#include "../../cmd/cli/trace_callers.h"
#include "test.h"
#include "tests.h"

void test_trace_callers(void)
{
    char buf[256];
    strcpy(buf, "A.f (a.ml:3) < B (b.ml:9)");
    CHECK(trace_callers_text(buf, sizeof buf, "A.f (a.ml:3)", 16) == 10 && strcmp(buf, "B (b.ml:9)") == 0);
    /* the site alone: no callers */
    strcpy(buf, "A.f (a.ml:3)");
    CHECK(trace_callers_text(buf, sizeof buf, "A.f (a.ml:3)", 16) == 0);
    /* a backtrace that starts elsewhere is none of the site's */
    strcpy(buf, "A.g (a.ml:4) < B (b.ml:9)");
    CHECK(trace_callers_text(buf, sizeof buf, "A.f (a.ml:3)", 16) == 0);
    /* 5 callers, 2 shown: "C1 < C2 < … 3 more" */
    strcpy(buf, "S < C1 < C2 < C3 < C4 < C5");
    size_t len = trace_callers_text(buf, sizeof buf, "S", 2);
    CHECK(strcmp(buf, "C1 < C2 < … 3 more") == 0 && len == strlen(buf));
    /* exactly as many as shown: nothing cut */
    strcpy(buf, "S < C1 < C2");
    CHECK(trace_callers_text(buf, sizeof buf, "S", 2) == 7 && strcmp(buf, "C1 < C2") == 0);
    /* a small buffer: the note is cut, the text stays terminated */
    char small[12];
    strcpy(small, "S < C1 < C2");
    len = trace_callers_text(small, 10, "S", 1);
    CHECK(len == 9 && strlen(small) == 9 && strncmp(small, "C1 < …", strlen("C1 < …")) == 0);
}
