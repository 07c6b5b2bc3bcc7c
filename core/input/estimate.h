/* estimate.h - how much memory the big arrays of an input will need, known
 * before reading it, so the choice to spill is made up front. */
#ifndef LF_ESTIMATE_H
#define LF_ESTIMATE_H

#include <stdint.h>

/* Bytes of big arrays (bigmem.h) that reading and analysing the input on fd
 * takes at the peak, from its size and format; 0 when it cannot be known (a
 * pipe). An estimate: spilling still starts by itself past the budget. */
uint64_t lf_estimate_big_bytes(int fd);

#endif
