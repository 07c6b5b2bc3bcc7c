/* row_pipeline.c - see row_pipeline.h. The calling thread makes the even
 * blocks straight into the output, the second thread the odd ones into a
 * buffer of its own, which the calling thread appends after each even block
 * (issue 33 item 5: a full listing on one core took 2.3x the time of
 * --top 10, the analysis included). */
#include "row_pipeline.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct pipeline {
    const row_pipeline_ops *ops;
    size_t total, blocks;
    pthread_mutex_t mu;
    pthread_cond_t changed;
    void *worker_rows;
    out_writer *worker_text;   /* holds block `made` until the calling thread takes it */
    size_t made, taken;        /* odd blocks finished by the worker, appended by the caller */
} pipeline;

static size_t block_size(const pipeline *p, size_t k)
{
    size_t per = p->ops->block_rows, first = k * per;
    return p->total - first < per ? p->total - first : per;
}

/* Odd blocks: each one once the calling thread has taken the one before. */
static void *make_odd_blocks(void *arg)
{
    pipeline *p = arg;
    for (size_t k = 1; k < p->blocks; k += 2) {
        pthread_mutex_lock(&p->mu);
        while (p->taken != p->made)
            pthread_cond_wait(&p->changed, &p->mu);
        pthread_mutex_unlock(&p->mu);
        p->ops->write_block(p->ops->ctx, k * p->ops->block_rows, block_size(p, k), p->worker_rows,
                            p->worker_text);
        pthread_mutex_lock(&p->mu);
        p->made++;
        pthread_cond_broadcast(&p->changed);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

/* Even blocks here, each followed by the worker's next odd block. */
static void make_even_blocks(pipeline *p, out_writer *w, void *rows)
{
    for (size_t k = 0; k < p->blocks; k += 2) {
        p->ops->write_block(p->ops->ctx, k * p->ops->block_rows, block_size(p, k), rows, w);
        if (k + 1 == p->blocks)
            break;
        pthread_mutex_lock(&p->mu);
        while (p->made == p->taken)
            pthread_cond_wait(&p->changed, &p->mu);
        pthread_mutex_unlock(&p->mu);
        out_append_rows(w, p->worker_text);
        pthread_mutex_lock(&p->mu);
        p->taken++;
        pthread_cond_broadcast(&p->changed);
        pthread_mutex_unlock(&p->mu);
    }
}

int row_pipeline_run(out_writer *w, size_t total, const row_pipeline_ops *ops)
{
    pipeline p = {.ops = ops, .total = total, .blocks = (total + ops->block_rows - 1) / ops->block_rows};
    void *rows = malloc(ops->slot_bytes);
    p.worker_rows = malloc(ops->slot_bytes);
    p.worker_text = out_begin_rows(w);
    int started = 0;
    if (rows && p.worker_rows && p.worker_text && pthread_mutex_init(&p.mu, NULL) == 0) {
        if (pthread_cond_init(&p.changed, NULL) == 0) {
            pthread_t worker;
            started = pthread_create(&worker, NULL, make_odd_blocks, &p) == 0;
            if (started) {
                make_even_blocks(&p, w, rows);
                pthread_join(worker, NULL);
            }
            pthread_cond_destroy(&p.changed);
        }
        pthread_mutex_destroy(&p.mu);
    }
    free(rows);
    free(p.worker_rows);
    out_end(p.worker_text);
    return started ? 0 : 1;
}
