/* test_nearest_ids.c - the ids offered for one no object has
 * (cmd/cli/nearest_ids.h): the same objects whether every id is scanned or
 * only those one edit away are looked up, in the style the id was typed
 * in, ranked by nearness and then by size. */
#include <stdio.h>
#include <string.h>

#include "../../cmd/cli/nearest_ids.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include "tests.h"

/* ids 10, 12, 21, 120 and 300 (0xa, 0xc, 0x15, 0x78, 0x12c), own sizes
 * 5, 50, 500, 7 and 9 bytes; no analysis: ranked by own size */
static const char graph[] = "node\t10\t5\tTen\n"
                            "node\t12\t50\tTwelve\n"
                            "node\t21\t500\tTwentyOne\n"
                            "node\t120\t7\tOneTwenty\n"
                            "node\t300\t9\tThreeHundred\n"
                            "root\t10\tstatic field\tA.x\n";

/* The ids offered for arg, by scan and by edits alike, as "id id id". */
static void offered(const lf_snapshot *s, const char *arg, int by_edits, char *out, size_t size)
{
    nearest_id best[NEAREST_KEEP];
    size_t n = nearest_ids(s, arg, by_edits, best), o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && o + 32 < size; i++) {
        if (i)
            out[o++] = ' ';
        o += nearest_id_write(out + o, lf_snapshot_object_id(s, best[i].node), nearest_id_style(arg));
        out[o] = '\0';
    }
}

static void check_both(const lf_snapshot *s, const char *arg, const char *want)
{
    char got[128];
    for (int by_edits = 0; by_edits < 2; by_edits++) {
        offered(s, arg, by_edits, got, sizeof got);
        if (strcmp(got, want) != 0)
            fprintf(stderr, "  %s (%s): '%s', expected '%s'\n", arg, by_edits ? "edits" : "scan", got, want);
        CHECK(strcmp(got, want) == 0);
    }
}

void test_nearest_ids(void)
{
    lf_snapshot s;
    lf_error err;
    CHECK(lf_textgraph_parse((const uint8_t *)graph, sizeof graph - 1, &s, &err) == 0);
    /* 11: 21 (a swap), 12 and 10 (a digit changed), largest first; 120 is two away */
    check_both(&s, "11", "21 12 10");
    /* 0xb: 0xc and 0xa; 0x15 is two away */
    check_both(&s, "0xb", "0xc 0xa");
    /* upper case is the same id: 0XB is 0xb */
    check_both(&s, "0XB", "0xc 0xa");
    /* @30: 300 (a digit added, 9 B), then 10 (a digit changed, 5 B) */
    check_both(&s, "@30", "@300 @10");
    /* 1200: 120 (a digit left out) */
    check_both(&s, "1200", "120");
    /* nothing within one edit */
    check_both(&s, "77", "");
    /* two edits (0x12ca0 less "a0" is 0x12c): the scan alone finds it, as
     * an id of 7 characters may be two away; the edits' lookups do not */
    char got[128];
    offered(&s, "0x12ca0", 0, got, sizeof got);
    CHECK(strcmp(got, "0x12c") == 0);
    offered(&s, "0x12ca0", 1, got, sizeof got);
    CHECK(strcmp(got, "") == 0);
    lf_snapshot_free(&s);
}
