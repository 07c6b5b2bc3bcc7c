/* bigmem.h - allocations for the arrays that grow with the heap (one entry per
 * object, per reference, per string).
 *
 * On this project's virtual machines a fault on a fresh 4 KiB page costs 3
 * to 25 us (touching 2 GB: 6.4 s at the least), which made page faults the
 * largest part of a 1 GB dump's analysis. These helpers ask the kernel for
 * 2 MiB pages (MADV_HUGEPAGE: honoured when transparent huge pages are in
 * "madvise" or "always" mode, ignored otherwise): an array in RAM of 256
 * KiB or more starts on a 2 MiB boundary and takes whole 2 MiB pages (from
 * posix_memalign: free() stays valid on it), a file-backed one is advised
 * on its whole pages.
 *
 * Past a memory budget (lf_big_set_budget) the arrays spill: they come from
 * file-backed shared mappings of unlinked temporary files in a directory,
 * which the kernel writes back and evicts under pressure, so RAM is not the
 * limit. The files have no name from the start (O_TMPFILE, else unlinked at
 * once), so exit, a signal or a crash leaves nothing behind. Memory from
 * these helpers, and from lf_vec_reserve, is released with lf_big_free.
 *
 * Results go to files before any budget is reached, when the result store
 * is on: the arrays that outlive the phase that fills them (the snapshot a
 * reader builds, the analysis' outputs) are written once and then only read,
 * so, as the pages of a mapped .lfs, the kernel can write them back and
 * drop them when memory runs short, where anonymous memory (no swap) could
 * only fail. Working arrays (the dominators' search, a reader's scratch)
 * stay in RAM, where random access is cheapest, until the budget. */
#ifndef LF_BIGMEM_H
#define LF_BIGMEM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

void *lf_big_malloc(size_t bytes);
/* calloc with the same advice; NULL when count * size overflows. */
void *lf_big_calloc(size_t count, size_t size);
/* Keeps a block in a file there (the file grows and is remapped, or
 * shrinks and gives its tail back). */
void *lf_big_realloc(void *p, size_t bytes);
/* The same for results: in the store when it is on (and the array is not
 * tiny), else as lf_big_malloc. */
void *lf_big_result_malloc(size_t bytes);
void *lf_big_result_calloc(size_t count, size_t size);
/* A block in RAM that grows big enough for the store moves there. */
void *lf_big_result_realloc(void *p, size_t bytes);
/* free() for the above: unmaps a spilled block; p may be NULL. */
void lf_big_free(void *p);
/* Advises huge pages for [p, p + bytes) when it is big enough; p may be NULL. */
void lf_big_advise(void *p, size_t bytes);

/* The process's budget for big arrays in RAM (UINT64_MAX, the default: no
 * limit, nothing spills) and the directory spill files go to. Call before
 * any big allocation; dir is copied. */
void lf_big_set_budget(uint64_t budget, const char *dir);

/* For tests only (cmd/main.c: LEAKFIND_FAIL_BIG_ALLOC): the call-th big
 * allocation or reallocation from now on (1: the next) and every later one
 * fail as when memory runs out; 0 (the default) turns this off. */
void lf_big_fail_from(uint64_t call);

/* Told once, when spilling starts: about how many bytes the arrays need, the
 * budget, the directory. cmd/ says it; library code never prints. */
typedef void lf_big_notice(uint64_t need, uint64_t budget, const char *dir);
void lf_big_on_spill(lf_big_notice *notice);

/* Whether results should go to files (off unless asked: tests and tools
 * that never ask keep everything in RAM). lf_big_plan decides, per input,
 * whether the directory can take them. */
void lf_big_set_result_store(int wanted);

/* Before reading a dump whose working arrays are estimated at `work` bytes
 * at their peak, whose results at `results`, and whose files, were every
 * array in one, at `written` bytes written at the peak: the store takes the
 * results when it is asked for, the run is not small beside the budget (a
 * sixteenth of it) and the directory is on disk with room for them; when what stays in RAM does not fit in what is left of the budget,
 * the big arrays past half the budget go to files, once the directory is
 * known to take files and to have room for what they will write (else -1:
 * an LF_ERR_SYSTEM error, nothing spills). */
int lf_big_plan(uint64_t work, uint64_t results, uint64_t written, lf_error *err);

typedef struct lf_big_usage {
    uint64_t ram_peak;      /* bytes of big arrays in RAM at most at once */
    uint64_t spilled_peak;  /* bytes of spill files at most at once */
    uint64_t spilled_blocks; /* arrays that ever spilled */
    int spilling;           /* spilling was switched on */
    uint64_t store_peak;    /* bytes of results in files at most at once */
    int store_on;           /* results go to files */
    const char *store_off;  /* when not: why (static text) */
} lf_big_usage;
void lf_big_usage_get(lf_big_usage *u);

/* "1.5 GiB", "12.0 KiB", "512 B": for the messages about the budget. */
void lf_big_size_text(char *buf, size_t size, uint64_t bytes);

#endif
