/* fuzz_memtrace.c - the Memtrace trace reader (core/memtrace, issue 51) on
 * arbitrary bytes: the events read through a window into a snapshot (the
 * live blocks, the builder's sites), the suspects' judgement, and every
 * site's frames walked as the commands walk them. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../core/analysis/caller_tree.h"
#include "../../core/memtrace/mt_snapshot.h"
#include "../../core/memtrace/mt_suspects.h"
#include "fuzz.h"

/* Every site's caller is an earlier site and its location exists. */
static void check_sites(const lf_mt_trace *t)
{
    char label[256];
    for (uint32_t s = 1; s < t->site_count; s++) {
        if (t->site[s].caller >= s || t->site[s].location >= t->location_count)
            abort();
        lf_mt_frame_label(t, lf_mt_site_frame(t, s), label, sizeof label);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    lf_mt_trace t;
    lf_mt_suspects found;
    lf_error err;
    const lf_mt_rules rules = LF_MT_RULES_DEFAULT;
    lf_mt_timeline tl;
    if (lf_mt_suspects_read(fd, &rules, &t, &tl, &found, &err) == 0) {
        check_sites(&t);
        lf_mt_suspects_free(&found);
    }
    lf_mt_trace_free(&t);
    /* a window with every filter, built into a snapshot */
    lf_mt_filter f = {{1, 1000, 1000}, {1, 0, 5000}, {1, 0, 2000}};
    lf_snapshot s;
    if (lf_mt_snapshot(fd, &f, &t, NULL, &s, &err) == 0) {
        lf_caller_tree tree;
        if (s.object_site && lf_caller_tree_make(&s, 4, &tree, &err) == 0)
            lf_caller_tree_free(&tree);
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    lf_mt_trace_free(&t);
    close(fd);
    return 0;
}
