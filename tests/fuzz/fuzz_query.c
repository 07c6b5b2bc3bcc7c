/* fuzz_query.c - the query language: arbitrary text parsed, and when it
 * parses, prepared and run against real snapshots (the Sessions fixtures:
 * a JVM dump, whose fields are read from its records, and a V8 snapshot;
 * QueryShapes, a JVM dump with interfaces, garbage and weak references),
 * the first byte choosing which ('0', '1', '2'). Class names are resolved here by their
 * full or simple name (cmd/'s rules are the CLI's). Run from the
 * repository's root, as run_libfuzzer.sh and the replay do. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/analysis.h"
#include "../../core/input/open.h"
#include "../../core/query/query.h"
#include "fuzz.h"

enum { SNAPSHOTS = 3 };
static lf_snapshot snapshots[SNAPSHOTS];
static int opened[SNAPSHOTS];

static const lf_snapshot *snapshot(int which)
{
    static const char *const paths[SNAPSHOTS] = {"fixtures/java/dumps/sessions.hprof.gz",
                                                 "fixtures/node/sessions.heapsnapshot.gz",
                                                 "fixtures/java/dumps/query_shapes.hprof.gz"};
    if (!opened[which]) {
        lf_open_options options = {0};
        lf_error err;
        opened[which] = -1;
        if (lf_open(paths[which], &options, &snapshots[which], &err) == 0 &&
            lf_analyze(&snapshots[which], 0, 1, &err) == 0)
            opened[which] = 1;
    }
    return opened[which] == 1 ? &snapshots[which] : NULL;
}

static uint8_t *resolve(const lf_snapshot *s, lf_qclass c)
{
    uint8_t *match = calloc(s->class_count + 1, 1);
    for (uint32_t k = 0; match && k < s->class_count; k++) {
        lf_str name = lf_snapshot_class_name(s, k);
        int full = name.len == c.len && memcmp(name.ptr, c.pattern, c.len) == 0;
        int simple = name.len > c.len && memcmp(name.ptr + name.len - c.len, c.pattern, c.len) == 0 &&
                     (name.ptr[name.len - c.len - 1] == '$' || name.ptr[name.len - c.len - 1] == '.');
        match[k] = (uint8_t)(full || simple || (c.len == 1 && c.pattern[0] == '*'));
    }
    return match;
}

static int count_row(void *ctx, const lf_qvalue *cell, size_t n)
{
    size_t *rows = ctx;
    for (size_t i = 0; i < n; i++) /* touch every text, for the sanitizers */
        if (cell[i].type == LF_QV_STR && cell[i].len)
            *rows += (unsigned char)cell[i].str[cell[i].len - 1] == 0xff;
    return ++*rows > 100000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    lf_query *q;
    lf_error err;
    if (lf_query_parse((const char *)data + 1, size - 1, &q, &err))
        return 0;
    const lf_snapshot *s = snapshot(data[0] % SNAPSHOTS);
    int ok = s != NULL;
    for (size_t i = 0; ok && i < lf_query_class_count(q); i++) {
        uint8_t *match = resolve(s, lf_query_class(q, i));
        ok = match != NULL;
        lf_query_set_class(q, i, match);
    }
    size_t rows = 0;
    if (ok && lf_query_prepare(q, s, &err) == 0 && lf_query_run(q, s, count_row, &rows, &err) == 0)
        for (size_t i = 0; i < lf_query_note_count(q); i++) /* the run's notes too: a text no object has */
            if (strlen(lf_query_note(q, i)) >= 300)
                abort();
    lf_query_free(q);
    return 0;
}
