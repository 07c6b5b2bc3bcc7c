/* test_support.h - small helpers several unit-test files share. */
#ifndef LF_TEST_SUPPORT_H
#define LF_TEST_SUPPORT_H

#include <stddef.h>

#include "../../core/model/snapshot.h"
#include "hprof_writer.h"

/* Whether the snapshot string s is exactly want. */
int test_str_is(lf_str s, const char *want);

/* "$TMPDIR/leakfind-unit-PID-name" (TMPDIR: /tmp when unset) into buf: a
 * temporary file of this run that no other run writes. */
void test_tmp_path(char *buf, size_t size, const char *name);

/* A text graph (docs/FORMAT.md) parsed into s and analysed (dominators):
 * 0, or -1 when either failed. */
int test_parse_analyzed(const char *text, lf_snapshot *s);

/* A collection's entry as " key:value" appended at out[*at] (size bytes):
 * each the object's id past `base`, "-" for LF_NODE_NONE, no space before
 * the first (the entry walks' tests compare the lot to a text). */
void test_append_pair(const lf_snapshot *s, uint64_t base, uint32_t key, uint32_t value, char *out, size_t size,
                      size_t *at);

/* The HPROF dump built in b (hprof_writer.h) parsed into s on one thread:
 * 0; else a failed check, b freed, -1 (the test returns). */
int test_parse_hprof(hw_buf *b, lf_snapshot *s);

/* Counts a failure and says so when got is not want (what: the input). */
void test_expect_text(const char *what, const char *got, const char *want);

#endif
