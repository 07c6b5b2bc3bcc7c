/* test_suggest.c - "did you mean" (core/base/suggest.h): distances worked
 * out by hand, and the one nearest name kept as names are offered. */
#include <string.h>

#include "../../core/base/suggest.h"
#include "test.h"
#include "tests.h"

void test_suggest_nearest(void)
{
    /* one swap, one deletion, one insertion, one substitution */
    CHECK_EQ_U64(suggest_distance("sspects", 7, "suspects", 8, 4), 1);
    CHECK_EQ_U64(suggest_distance("domintors", 9, "dominators", 10, 4), 1);
    CHECK_EQ_U64(suggest_distance("thershold", 9, "threshold", 9, 4), 1);
    CHECK_EQ_U64(suggest_distance("formt", 5, "format", 6, 4), 1);
    /* past the bound: bound + 1 */
    CHECK_EQ_U64(suggest_distance("abc", 3, "xyz", 3, 1), 2);
    CHECK_EQ_U64(suggest_max_distance(2), 1);
    CHECK_EQ_U64(suggest_max_distance(9), 3);
    CHECK_EQ_U64(suggest_max_distance(40), 4);

    char near[16];
    suggest_nearest n;
    suggest_nearest_init(&n, "threshhold", 10, near, sizeof near);
    CHECK(near[0] == 0);
    suggest_nearest_offer(&n, "top", 3);          /* too far: nothing kept */
    CHECK(near[0] == 0);
    suggest_nearest_offer(&n, "thresholds", 10);  /* 2 edits */
    CHECK(strcmp(near, "thresholds") == 0 && n.bound == 2);
    suggest_nearest_offer(&n, "threshold", 9);    /* 1: nearer, kept */
    CHECK(strcmp(near, "threshold") == 0 && n.bound == 1);
    suggest_nearest_offer(&n, "threshol", 8);     /* 2 again: the first nearest stays */
    CHECK(strcmp(near, "threshold") == 0);
    /* a name too long for the buffer is never half kept */
    suggest_nearest_init(&n, "abcdefghijklmnop", 16, near, sizeof near);
    suggest_nearest_offer(&n, "abcdefghijklmnopq", 17);
    CHECK(near[0] == 0);
    /* equal: the bound falls to 0 and nothing replaces it */
    suggest_nearest_init(&n, "trend", 5, near, sizeof near);
    suggest_nearest_offer(&n, "trend", 5);
    suggest_nearest_offer(&n, "tren", 4);
    CHECK(strcmp(near, "trend") == 0 && n.bound == 0);
}
