/* halves.h - a pass over an index range, split in two halves for two cores.
 *
 * The passes that use it write disjoint memory per half, so their result
 * does not depend on whether the halves ran on two threads or one after the
 * other. */
#ifndef LF_HALVES_H
#define LF_HALVES_H

/* Below this many nodes both halves run on the calling thread: a thread
 * costs more than it saves there. The halves are the same either way, so the
 * small graphs of the tests check the split itself. */
#define LF_THREADED_MIN_NODES (1u << 16)

typedef void lf_half_fn(void *ctx, unsigned half);

/* Runs fn(ctx, 0) and fn(ctx, 1), on two threads when threaded (and a thread
 * can be had), else one after the other. */
void lf_run_halves(lf_half_fn *fn, void *ctx, int threaded);

#endif
