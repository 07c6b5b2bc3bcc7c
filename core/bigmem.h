/* bigmem.h - allocations for the arrays that grow with the heap (one entry per
 * object, per reference, per string).
 *
 * On this project's virtual machines a fault on a fresh 4 KiB page costs about
 * 3 us (touching 2 GB: 6.4 s), which made page faults the largest part of a
 * 1 GB dump's analysis. These helpers ask the kernel for 2 MiB pages on the
 * whole pages of any allocation of 4 MiB or more (MADV_HUGEPAGE: honoured
 * when transparent huge pages are in "madvise" or "always" mode, ignored
 * otherwise). Memory comes from malloc and is released with free(). */
#ifndef LF_BIGMEM_H
#define LF_BIGMEM_H

#include <stddef.h>

void *lf_big_malloc(size_t bytes);
/* calloc with the same advice; NULL when count * size overflows. */
void *lf_big_calloc(size_t count, size_t size);
void *lf_big_realloc(void *p, size_t bytes);
/* Advises huge pages for [p, p + bytes) when it is big enough; p may be NULL. */
void lf_big_advise(void *p, size_t bytes);

#endif
