/* bench_stage.c - times each stage of an analysis in one process and reports
 * the peak resident memory after each: all of it (ru_maxrss, file-backed pages
 * of the mapped dump included) and the anonymous part alone (sampled from
 * /proc/self/statm every 5 ms by a watcher thread: resident - shared), which
 * is what the memory budget is about (the dump itself is not counted).
 * Results go to files as the CLI puts them (LEAKFIND_RESULTS=ram: in RAM).
 * usage: bench_stage SNAPSHOT
 * Output: TSV rows stage, seconds, objects_per_second, peak_rss_bytes,
 * peak_anon_bytes, anon_pct_of_budget, budget_bytes (DESIGN 5: 24 per
 * object + 4 per reference). Peaks are for the whole run so far. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/bigmem.h"
#include "../../core/base/file.h"
#include "../../core/input/estimate.h"
#include "../../core/lfs/lfs.h"
#include "../../core/input/open.h"
#include "../../graph/dominators.h"
#include "../../graph/domtree.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t peak_rss(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)ru.ru_maxrss * 1024;
}

static volatile uint64_t peak_anon_bytes;
static volatile int watching = 1;

static void *watch_anon(void *arg)
{
    (void)arg;
    long page = sysconf(_SC_PAGESIZE);
    while (watching) {
        FILE *f = fopen("/proc/self/statm", "r");
        unsigned long size, resident, shared;
        if (f && fscanf(f, "%lu %lu %lu", &size, &resident, &shared) == 3) {
            uint64_t anon = (uint64_t)(resident - shared) * (uint64_t)page;
            if (anon > peak_anon_bytes)
                peak_anon_bytes = anon;
        }
        if (f)
            fclose(f);
        usleep(5000);
    }
    return NULL;
}

static void report(const char *stage, double seconds, const lf_snapshot *s)
{
    uint64_t rss = peak_rss();
    uint64_t budget = 24ull * s->object_count + 4ull * s->edge_count;
    printf("%s\t%.3f\t%.0f\t%llu\t%llu\t%.1f\t%llu\n", stage, seconds, s->object_count / seconds,
           (unsigned long long)rss, (unsigned long long)peak_anon_bytes,
           (double)peak_anon_bytes / budget * 100, (unsigned long long)budget);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_stage SNAPSHOT\n");
        return 2;
    }
    lf_snapshot s;
    lf_error err;
    const char *results = getenv("LEAKFIND_RESULTS");
    lf_big_set_budget(UINT64_MAX, lf_temp_dir());
    lf_big_set_result_store(!(results && strcmp(results, "ram") == 0));
    int fd = open(argv[1], O_RDONLY);
    lf_big_estimate need = fd >= 0 ? lf_estimate_big_bytes(fd) : (lf_big_estimate){0, 0, 0};
    if (fd >= 0)
        close(fd);
    if (lf_big_plan(need.work, need.results, need.written, &err))
        return 4;
    pthread_t watcher;
    pthread_create(&watcher, NULL, watch_anon, NULL);
    double t0 = now();
    if (lf_open(argv[1], NULL, &s, &err)) {
        char msg[400];
        lf_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "bench_stage: %s\n", msg);
        return 3;
    }
    printf("stage\tseconds\tobjects_per_s\tpeak_rss_bytes\tpeak_anon_bytes\tanon_pct_of_budget\tbudget_bytes\n");
    report("load", now() - t0, &s);

    const uint32_t n = s.object_count;
    uint32_t *root_node = malloc((s.root_count + 1) * sizeof *root_node);
    uint32_t *idom = lf_big_result_malloc((size_t)n * sizeof *idom);
    uint32_t *retained = lf_big_result_malloc((size_t)n * sizeof *retained);
    lf_size_table retained_big = {0};
    for (uint32_t r = 0; r < s.root_count; r++)
        root_node[r] = s.root[r].node;
    lf_graph g = lf_snapshot_graph(&s);
    g.root_count = s.root_count;
    g.root_node = root_node;
    lf_dominator_result result;
    t0 = now();
    if (lf_dominators_compute(&g, &s.object_shallow, 0, idom, retained, &retained_big, &result))
        return 4;
    report("dominators+retained", now() - t0, &s);

    lf_domtree tree;
    t0 = now();
    lf_sizes retained_sizes = lf_sizes_of(retained, &retained_big);
    if (lf_domtree_build(n, idom, &retained_sizes, 2, &tree))
        return 4;
    report("dominator_tree", now() - t0, &s);

    uint64_t *class_retained = malloc((s.class_count + 1) * sizeof *class_retained);
    t0 = now();
    if (lf_class_retained(tree.child_offset, tree.child, n, s.object_class, s.class_count,
                          &retained_sizes, (s.flags & LF_SNAP_EMPTY_UNCOUNTED) ? &s.object_shallow : NULL,
                          class_retained))
        return 4;
    report("class_retained", now() - t0, &s);
    fprintf(stderr, "%u objects, %llu references, %u reachable\n", n,
            (unsigned long long)s.edge_count, result.reachable_count);
    lf_domtree_free(&tree);
    free(class_retained);
    free(root_node);
    lf_big_free(idom);
    lf_big_free(retained);
    lf_size_table_free(&retained_big);
    lf_snapshot_free(&s);
    watching = 0;
    pthread_join(watcher, NULL);
    return 0;
}
