/* test_support.c - small helpers several unit-test files share. */
#include "test_support.h"
#include "test.h"
#include "../../core/analysis/analysis.h"
#include "../../core/hprof/hprof.h"
#include "../../core/textgraph/textgraph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int test_str_is(lf_str s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

void test_tmp_path(char *buf, size_t size, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, size, "%s/leakfind-unit-%d-%s", dir ? dir : "/tmp", (int)getpid(), name);
}

void test_append_pair(const lf_snapshot *s, uint64_t base, uint32_t key, uint32_t value, char *out, size_t size,
                      size_t *at)
{
    char k[24] = "-", v[24] = "-";
    if (key != LF_NODE_NONE)
        snprintf(k, sizeof k, "%llu", (unsigned long long)(lf_snapshot_object_id(s, key) - base));
    if (value != LF_NODE_NONE)
        snprintf(v, sizeof v, "%llu", (unsigned long long)(lf_snapshot_object_id(s, value) - base));
    if (*at >= size)
        return;
    int n = snprintf(out + *at, size - *at, "%s%s:%s", *at ? " " : "", k, v);
    *at = n < 0 ? *at : *at + (size_t)n < size ? *at + (size_t)n : size - 1;
}

void test_expect_text(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) == 0)
        return;
    test_failures++;
    fprintf(stderr, "  %s: '%s', expected '%s'\n", what, got, want);
}

int test_parse_analyzed(const char *text, lf_snapshot *s)
{
    lf_error err;
    int rc = lf_textgraph_parse((const uint8_t *)text, strlen(text), s, &err);
    return rc == 0 ? lf_analyze(s, 0, 1, &err) : rc;
}

int test_parse_hprof(hw_buf *b, lf_snapshot *s)
{
    lf_error err = {0};
    int rc = lf_hprof_parse(b->data, b->len, 0, 1, s, &err);
    CHECK(rc == 0);
    if (rc)
        hw_free(b);
    return rc ? -1 : 0;
}
