/* test.h - a minimal unit-test harness: checks count failures, the runner
 * prints "N passed, M failed" as its last line. */
#ifndef LF_TEST_H
#define LF_TEST_H

#include <stdio.h>

extern int test_failures;        /* failures in the current test */

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            test_failures++;                                                     \
            fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                       \
    do {                                                                         \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        if (a_ != b_) {                                                          \
            test_failures++;                                                     \
            fprintf(stderr, "  %s:%d: %s == %llu, expected %s == %llu\n", __FILE__, __LINE__, \
                    #a, a_, #b, b_);                                             \
        }                                                                        \
    } while (0)

typedef void (*test_fn)(void);
typedef struct test_case {
    const char *name;
    test_fn fn;
} test_case;

#endif
