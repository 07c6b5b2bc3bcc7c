/* path_rows.h - the rows of `path`, one per hop, written in batches.
 *
 * A hop's label is the edge by which the previous object holds it. Found hop
 * by hop, that scans the holder's edges and on a JVM dump decodes their
 * labels from the first one on: a path to each element of a large array was
 * quadratic (issue 19). Hops are therefore kept until a batch is full, their
 * labels found together (edge_batch.h: each holder's edges read once per
 * batch), then the rows written in the order they came. */
#ifndef LF_PATH_ROWS_H
#define LF_PATH_ROWS_H

#include "../../core/model/edge_batch.h"
#include "../../core/model/snapshot.h"
#include "output.h"

/* path's columns: target ... root, then location (cmd_path.c). */
enum { PATH_COLUMN_LOCATION = 10 };

/* Hops per batch: as many as objects, from 2^16 to 2^20 (about 40 bytes a
 * hop while its batch is answered), so that a batch costs little next to the
 * snapshot and reads each holder's edges at most once per that many hops. */
size_t path_rows_batch(const lf_snapshot *s);

/* The roots by the object they name: node << 32 | root index, ascending, so
 * an object's first root is one binary search away. Returns NULL (memory). */
uint64_t *path_root_index(const lf_snapshot *s);
/* "root: JNI global" for node's first root, an empty cell when it has none. */
/* The `root` column of a path's first object: the root that names it ("static
 * field X.y"), or null. */
void path_write_root(out_writer *w, const lf_snapshot *s, const uint64_t *root_index, uint32_t node);

typedef struct path_run path_run;

typedef struct path_rows {
    out_writer *w;
    const lf_snapshot *s;
    const uint64_t *root_index;
    path_run *run;             /* pieces of paths, in order */
    size_t run_count, run_cap;
    uint32_t *node;            /* their hops */
    size_t node_count, node_cap;
    lf_edge_question *question;
    size_t question_cap;
    lf_edge_answer *answer;
    size_t answer_cap;
    size_t batch;              /* path_rows_batch */
} path_rows;

void path_rows_init(path_rows *r, out_writer *w, const lf_snapshot *s, const uint64_t *root_index);
/* Path number `number` to target: path[0..len) from the root object to the
 * target; weak when it goes through weak references. Returns 0 or -1 (memory). */
int path_rows_add(path_rows *r, uint32_t target, unsigned number, const uint32_t *path, int64_t len, int weak);
/* Writes the rows kept. Returns 0 or -1 (memory). */
int path_rows_flush(path_rows *r);
void path_rows_free(path_rows *r);

#endif
