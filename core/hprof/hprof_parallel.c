/* hprof_parallel.c - the heap dump walk on several threads, and pass 1's
 * collections merged back in file order. */
#include <pthread.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "hprof_passes.h"

/* Pass 1 on several threads: each collects into its own vectors and maps,
 * merged afterwards in file order, so the result is the one thread's. */
static void collector_reset(hprof_reader *c)
{
    lf_idset_init(&c->ids);
    c->roots = NULL;
    c->root_count = c->root_cap = 0;
    c->classes = NULL;
    c->class_count = c->class_cap = 0;
    c->class_index = NULL;
    c->thread_object = NULL;
    c->thread_trace = NULL;
}

static int append(hprof_reader *r, void **to, size_t *count, size_t *cap, const void *from, size_t n,
                  size_t elem)
{
    if (n == 0)
        return 0;
    if (lf_vec_reserve(to, cap, *count + n, elem))
        return lf_fail_nomem(r->err, "reading the dump");
    memcpy((char *)*to + *count * elem, from, n * elem);
    *count += n;
    return 0;
}

static int merge_judy(hprof_reader *r, Pvoid_t *into, Pvoid_t from)
{
    Word_t key = 0;
    PWord_t value;
    JLF(value, from, key);
    while (value) {
        if (hprof_judy_set(r, into, key, *value))
            return -1;
        JLN(value, from, key);
    }
    return 0;
}

static int collector_merge(hprof_reader *r, hprof_reader *c)
{
    int rc = lf_idset_merge(&r->ids, &c->ids) ? lf_fail_nomem(r->err, "reading objects") : 0;
    if (rc == 0 && r->ids.count > LF_NODE_MAX)
        rc = lf_fail_at(r->err, 0, "unsupported dump", "more than %u objects", LF_NODE_MAX);
    if (rc == 0)
        rc = append(r, (void **)&r->roots, &r->root_count, &r->root_cap, c->roots, c->root_count,
                    sizeof *r->roots);
    for (size_t i = 0; rc == 0 && i < c->class_count; i++) {
        PWord_t slot;
        JLI(slot, r->class_index, (Word_t)c->classes[i].id);
        if (slot == PJERR) {
            rc = lf_fail_nomem(r->err, "reading classes");
        } else if (*slot) {
            r->warnings++; /* the same class twice: keep the first */
        } else {
            rc = append(r, (void **)&r->classes, &r->class_count, &r->class_cap, &c->classes[i], 1,
                        sizeof *r->classes);
            *slot = r->class_count;
        }
    }
    if (rc == 0)
        rc = merge_judy(r, &r->thread_object, c->thread_object);
    if (rc == 0)
        rc = merge_judy(r, &r->thread_trace, c->thread_trace);
    Word_t freed;
    JLFA(freed, c->class_index);
    JLFA(freed, c->thread_object);
    JLFA(freed, c->thread_trace);
    (void)freed;
    lf_idset_free(&c->ids);
    lf_big_free(c->roots);
    lf_big_free(c->classes);
    collector_reset(c);
    return rc;
}

typedef struct walk_job {
    hprof_reader reader;        /* a copy: its own error and warning count */
    lf_error err;
    int pass;
    object_visitor visit;
    void *state;
    size_t first, last;         /* segments [first, last) */
    int rc;
} walk_job;

static void *walk_job_run(void *arg)
{
    walk_job *j = arg;
    for (size_t i = j->first; i < j->last && j->rc == 0; i++) {
        hprof_cursor c = {j->reader.data, j->reader.segment[2 * i], j->reader.segment[2 * i + 1]};
        j->rc = hprof_walk_heap(&j->reader, &c, j->pass, j->visit, j->state);
    }
    return NULL;
}

#define HPROF_MAX_THREADS 64

int hprof_walk_parallel(hprof_reader *r, unsigned threads, int pass, object_visitor visit,
                  void **states)
{
    if (threads > HPROF_MAX_THREADS)
        threads = HPROF_MAX_THREADS;
    if (threads > r->segment_count)
        threads = r->segment_count ? (unsigned)r->segment_count : 1;
    walk_job job[HPROF_MAX_THREADS];
    pthread_t tid[HPROF_MAX_THREADS];
    uint64_t total = 0;
    for (size_t i = 0; i < r->segment_count; i++)
        total += r->segment[2 * i + 1] - r->segment[2 * i];
    static const char *const stage[] = {"", "pass 1 of 3", "pass 2 of 3", "pass 3 of 3"};
    lf_progress_counter progress;
    lf_progress_begin(&progress, r->progress_to, pass >= 1 && pass <= 3 ? stage[pass] : "", total);
    r->progress = progress.progress ? &progress : NULL; /* the jobs' copies share it */
    size_t seg = 0;
    uint64_t done = 0;
    for (unsigned k = 0; k < threads; k++) {
        job[k].reader = *r;
        job[k].reader.err = &job[k].err;
        job[k].reader.warnings = 0;
        if (pass == 1)
            collector_reset(&job[k].reader);
        job[k].pass = pass;
        job[k].visit = visit;
        job[k].state = states[k];
        job[k].rc = 0;
        job[k].first = seg;
        uint64_t goal = total / threads * (k + 1);
        while (seg < r->segment_count && (k + 1 == threads || done < goal)) {
            done += r->segment[2 * seg + 1] - r->segment[2 * seg];
            seg++;
        }
        job[k].last = seg;
    }
    unsigned started = 0;
    for (unsigned k = 1; k < threads; k++) {
        if (pthread_create(&tid[k], NULL, walk_job_run, &job[k]) != 0)
            break;
        started = k;
    }
    walk_job_run(&job[0]);
    for (unsigned k = started + 1; k < threads; k++) /* could not start: run here */
        walk_job_run(&job[k]);
    for (unsigned k = 1; k <= started; k++)
        pthread_join(tid[k], NULL);
    r->progress = NULL;
    int rc = 0;
    for (unsigned k = 0; k < threads; k++) {
        r->warnings += job[k].reader.warnings;
        r->has_alloc_traces |= job[k].reader.has_alloc_traces;
        r->array_class_has_fields |= job[k].reader.array_class_has_fields;
        if (job[k].rc < 0 && rc == 0) {
            *r->err = job[k].err;
            rc = -1;
        }
    }
    for (unsigned k = 0; pass == 1 && k < threads; k++) /* in file order */
        if (collector_merge(r, &job[k].reader) && rc == 0)
            rc = -1;
    return rc;
}
