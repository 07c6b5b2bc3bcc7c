/* row_pipeline.h - a long listing made on two cores: blocks of rows go
 * alternately to the calling thread and a second one, each gathering its
 * block (random reads of the snapshot) and making its text; the calling
 * thread writes the blocks in order. */
#ifndef LF_ROW_PIPELINE_H
#define LF_ROW_PIPELINE_H

#include <stddef.h>

#include "output.h"

typedef struct row_pipeline_ops {
    void *ctx;
    size_t block_rows;   /* rows per block */
    size_t slot_bytes;   /* bytes of one gathered block */
    /* Rows [first, first + n) into slot, then their text into w. Called on
     * both threads at once: reads only what no one writes meanwhile. */
    void (*write_block)(void *ctx, size_t first, size_t n, void *slot, out_writer *w);
} row_pipeline_ops;

/* Rows [0, total) through ops into w, in order. Returns 0, or 1 when it
 * could not start (a table, no memory, no thread): nothing was written and
 * the caller writes the rows itself. */
int row_pipeline_run(out_writer *w, size_t total, const row_pipeline_ops *ops);

#endif
