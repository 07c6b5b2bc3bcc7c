/* test_support.h - small helpers several unit-test files share. */
#ifndef LF_TEST_SUPPORT_H
#define LF_TEST_SUPPORT_H

#include <stddef.h>

#include "../../core/model/snapshot.h"

/* Whether the snapshot string s is exactly want. */
int test_str_is(lf_str s, const char *want);

/* "$TMPDIR/leakfind-unit-PID-name" (TMPDIR: /tmp when unset) into buf: a
 * temporary file of this run that no other run writes. */
void test_tmp_path(char *buf, size_t size, const char *name);

#endif
