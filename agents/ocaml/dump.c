/* dump.c - one snapshot, and the triggers that take them.
 *
 * A snapshot is written without the analysis (leakfind computes the
 * dominators when it opens the file), so the program stops only for the
 * walk and the write. A failure prints one line on stderr and the program
 * goes on; the writer's atomic rename leaves no partial file. The triggers
 * are the runtime's (triggers.c, snapsignal.c): they call agent_snapshot,
 * which stops what must be stopped and calls agent_dump. */
#define CAML_INTERNALS
#include "agent.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>


static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Milliseconds since 1970: when the snapshot was taken, which orders a
 * series whatever its files' names (DESIGN 15). */
static uint64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Walks the heap into w; NULL, or which step failed: the walk fails on
 * memory, or on a block it cannot place in the heap's regions (which says
 * the agent misread the runtime). */
static const char *walk_into(lfs_writer *w, uint64_t *blocks, uint64_t *memory)
{
    agent_walk *walk = agent_walk_new(w);
    const char *failed = !walk                              ? "out of memory for the walk"
                         : agent_roots_collect(walk) != 0 ? "the roots could not be walked (out of memory, "
                                                            "or a root's block outside the heap)"
                         : agent_walk_run(walk) != 0      ? "the heap could not be walked (out of memory, "
                                                            "or a block outside the heap's regions)"
                                                          : NULL;
    if (walk) {
        *blocks = agent_walk_count(walk);
        *memory = agent_walk_memory(walk);
    }
    agent_walk_free(walk);
    agent_slots_reset();
    return failed;
}

int agent_dump(const char *path)
{
    double start = now_seconds();
    uint64_t blocks = 0, memory = 0, taken_at_ms = wall_ms();
    /* streaming: the blocks go to the file as they are walked (docs/OCAML.md) */
    lfs_writer *w = lfs_writer_new_streaming(path);
    double walked = 0;
    const char *failed = w ? walk_into(w, &blocks, &memory) : "out of memory for the writer";
    if (failed) {
        char why[512];
        if (w && lfs_writer_failure(w, why, sizeof why)) /* the file's error, not the walk's */
            failed = why;
        fprintf(stderr, "leakfind: snapshot '%s' not written: %s\n", path, failed);
        if (w)
            lfs_writer_abandon(w);
        return -1;
    }
    walked = now_seconds();
    lfs_writer_taken_at(w, taken_at_ms);
    char err[512];
    if (lfs_writer_finish(w, path, err, sizeof err)) {
        fprintf(stderr, "leakfind: snapshot '%s' not written: %s\n", path, err);
        return -1;
    }
    uint64_t typed;
    double typing;
    agent_types_last(&typed, &typing);
    if (getenv("LEAKFIND_AGENT_VERBOSE"))
        fprintf(stderr,
                "leakfind: wrote '%s': %llu blocks in %.3f s (walk %.3f s, of which typing %.3f s "
                "for %llu blocks; write %.3f s); agent memory %llu bytes (%.2f per block)\n",
                path, (unsigned long long)blocks, now_seconds() - start, walked - start, typing,
                (unsigned long long)typed, now_seconds() - walked, (unsigned long long)memory,
                blocks ? (double)memory / (double)blocks : 0.0);
    return 0;
}

/* ---- numbered snapshots PREFIX.N.lfs, within record's budget */

static char *series_prefix;
static unsigned series_count;

/* The snapshots on disk, oldest first (only tracked under a budget). */
typedef struct kept_snapshot {
    unsigned number;
    uint64_t bytes;
} kept_snapshot;

static unsigned budget_count;
static uint64_t budget_bytes;
static kept_snapshot *kept;
static unsigned kept_count, kept_cap;
static uint64_t kept_bytes, removed_bytes;
static unsigned removed_count;

static void series_path(char *path, size_t len, unsigned number)
{
    snprintf(path, len, "%s.%u.lfs", series_prefix, number);
}

static int over_budget(void)
{
    return (budget_count && kept_count > budget_count) || (budget_bytes && kept_bytes > budget_bytes);
}

static void say_budget(char *out, size_t len)
{
    if (budget_count && budget_bytes)
        snprintf(out, len, "--max-snapshots %u, --max-bytes %llu", budget_count,
                 (unsigned long long)budget_bytes);
    else if (budget_count)
        snprintf(out, len, "--max-snapshots %u", budget_count);
    else
        snprintf(out, len, "--max-bytes %llu", (unsigned long long)budget_bytes);
}

/* Removes the oldest snapshots but the first while over the budget. */
static void keep_within_budget(void)
{
    while (kept_count > 2 && over_budget()) {
        char path[4096], budget[96];
        series_path(path, sizeof path, kept[1].number);
        if (unlink(path) == 0) { /* else someone removed it already: no longer ours to count */
            if (removed_count++ == 0) {
                say_budget(budget, sizeof budget);
                fprintf(stderr, "leakfind: %s reached: removed '%s'; keeping the first snapshot and "
                                "the latest from now on\n", budget, path);
            }
            removed_bytes += kept[1].bytes;
        }
        kept_bytes -= kept[1].bytes;
        memmove(&kept[1], &kept[2], (kept_count - 2) * sizeof *kept);
        kept_count--;
    }
}

static void track_snapshot(unsigned number, const char *path)
{
    struct stat st;
    if (kept_count == kept_cap) {
        unsigned cap = kept_cap ? 2 * kept_cap : 16;
        kept_snapshot *grown = realloc(kept, cap * sizeof *kept);
        if (!grown)
            return; /* not tracked: never removed */
        kept = grown;
        kept_cap = cap;
    }
    uint64_t bytes = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
    kept[kept_count++] = (kept_snapshot){number, bytes};
    kept_bytes += bytes;
    keep_within_budget();
}

int agent_series_dump(void)
{
    char path[4096];
    unsigned number = series_count + 1;
    series_path(path, sizeof path, number);
    int rc = agent_snapshot(path);
    if (rc == AGENT_SNAPSHOT_BUSY)
        return rc;
    series_count = number;
    if (rc == 0 && (budget_count || budget_bytes))
        track_snapshot(number, path);
    return rc;
}

static void report_budget(void)
{
    if (!removed_count)
        return;
    char budget[96], between[4200] = "";
    say_budget(budget, sizeof budget);
    if (kept_count > 2)
        snprintf(between, sizeof between, "%s.%u.lfs to ", series_prefix, kept[1].number);
    fprintf(stderr, "leakfind: %s: removed %u snapshots (%llu bytes); kept %s.%u.lfs and %s%s.%u.lfs "
                    "(%llu bytes)\n",
            budget, removed_count, (unsigned long long)removed_bytes, series_prefix, kept[0].number,
            between, series_prefix, kept[kept_count - 1].number, (unsigned long long)kept_bytes);
}

void agent_series_budget(unsigned max_count, uint64_t max_bytes)
{
    budget_count = max_count;
    budget_bytes = max_bytes;
    if (max_count || max_bytes)
        atexit(report_budget);
}

int agent_series_prefix(const char *prefix)
{
    char *copy = strdup(prefix);
    if (!copy)
        return -1;
    free(series_prefix);
    series_prefix = copy;
    return 0;
}
