/* bigmem.h - allocations for the arrays that grow with the heap (one entry per
 * object, per reference, per string).
 *
 * On this project's virtual machines a fault on a fresh 4 KiB page costs about
 * 3 us (touching 2 GB: 6.4 s), which made page faults the largest part of a
 * 1 GB dump's analysis. These helpers ask the kernel for 2 MiB pages on the
 * whole pages of any allocation of 4 MiB or more (MADV_HUGEPAGE: honoured
 * when transparent huge pages are in "madvise" or "always" mode, ignored
 * otherwise).
 *
 * Past a memory budget (lf_big_set_budget) the arrays spill: they come from
 * file-backed shared mappings of unlinked temporary files in a directory,
 * which the kernel writes back and evicts under pressure, so RAM is not the
 * limit. The files have no name from the start (O_TMPFILE, else unlinked at
 * once), so exit, a signal or a crash leaves nothing behind. Memory from
 * these helpers, and from lf_vec_reserve, is released with lf_big_free. */
#ifndef LF_BIGMEM_H
#define LF_BIGMEM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

void *lf_big_malloc(size_t bytes);
/* calloc with the same advice; NULL when count * size overflows. */
void *lf_big_calloc(size_t count, size_t size);
/* Keeps a spilled block spilled (the file grows and is remapped). */
void *lf_big_realloc(void *p, size_t bytes);
/* free() for the above: unmaps a spilled block; p may be NULL. */
void lf_big_free(void *p);
/* Advises huge pages for [p, p + bytes) when it is big enough; p may be NULL. */
void lf_big_advise(void *p, size_t bytes);

/* The process's budget for big arrays in RAM (UINT64_MAX, the default: no
 * limit, nothing spills) and the directory spill files go to. Call before
 * any big allocation; dir is copied. */
void lf_big_set_budget(uint64_t budget, const char *dir);

/* Told once, when spilling starts: about how many bytes the arrays need, the
 * budget, the directory. cmd/ says it; library code never prints. */
typedef void lf_big_notice(uint64_t need, uint64_t budget, const char *dir);
void lf_big_on_spill(lf_big_notice *notice);

/* Before reading a dump whose big arrays are estimated at `need` bytes: when
 * they do not fit in what is left of the budget, every big array from now on
 * spills, once the directory is known to take files and to have room for
 * `need` bytes (else -1: an LF_ERR_SYSTEM error, nothing changed). */
int lf_big_plan(uint64_t need, lf_error *err);

typedef struct lf_big_usage {
    uint64_t ram_peak;      /* bytes of big arrays in RAM at most at once */
    uint64_t spilled_peak;  /* bytes of spill files at most at once */
    uint64_t spilled_blocks; /* arrays that ever spilled */
    int spilling;           /* spilling was switched on */
} lf_big_usage;
void lf_big_usage_get(lf_big_usage *u);

/* "1.5 GiB", "12.0 KiB", "512 B": for the messages about the budget. */
void lf_big_size_text(char *buf, size_t size, uint64_t bytes);

#endif
