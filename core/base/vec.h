/* vec.h - growing arrays for readers that do not know their counts up front. */
#ifndef LF_VEC_H
#define LF_VEC_H

#include <stddef.h>
#include <stdint.h>

/* Makes room for `need` elements of `elem` bytes in *p (capacity *cap, in
 * elements), doubling. Returns 0, or -1 when out of memory (*p unchanged). */
int lf_vec_reserve(void **p, size_t *cap, size_t need, size_t elem);
/* The same for an array that becomes a result (bigmem.h: in the result
 * store's files when it is on): room for exactly `need` when *p is empty. */
int lf_vec_reserve_result(void **p, size_t *cap, size_t need, size_t elem);

#endif
