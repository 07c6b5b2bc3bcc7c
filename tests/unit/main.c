/* main.c - runs every unit test; the last line is "N passed, M failed". */
#include <string.h>

#include "test.h"
#include "tests.h"

int test_failures;

static const test_case all_tests[] = {
#define T(name) {#name, name},
    LF_UNIT_TESTS(T)
#undef T
};

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof all_tests / sizeof all_tests[0]; i++) {
        if (argc > 1 && !strstr(all_tests[i].name, argv[1]))
            continue;
        test_failures = 0;
        all_tests[i].fn();
        if (test_failures) {
            failed++;
            printf("FAIL %s\n", all_tests[i].name);
        } else {
            passed++;
            printf("ok   %s\n", all_tests[i].name);
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
