/* estimate.h - how much memory the big arrays of an input will need, known
 * before reading it, so the choices of where they go are made up front. */
#ifndef LF_ESTIMATE_H
#define LF_ESTIMATE_H

#include <stdint.h>

/* Bytes of big arrays (bigmem.h) that reading and analysing an input takes:
 * the working arrays at their peak, the results (the snapshot and the
 * analysis' outputs) at the end, and what files would hold at the run's
 * peak with every array in one: only the pages written take disk, and the
 * peaks of the two kinds do not coincide, so this is less than their sum
 * where it was measured (docs/MEMORY.md, "On disk"). */
typedef struct lf_big_estimate {
    uint64_t work;
    uint64_t results;
    uint64_t written;
} lf_big_estimate;

/* For the input on fd, from its size and format; zeros when it cannot be
 * known (a pipe). An estimate: spilling still starts by itself past the
 * budget. */
lf_big_estimate lf_estimate_big_bytes(int fd);

#endif
