/* resident.h - keeps the process's resident memory under the memory budget
 * by letting go of file pages it has mapped.
 *
 * Pages of a file mapping count in a process's resident set (RSS) until the
 * kernel takes them, which it does only once the whole machine runs short.
 * A spilled run (bigmem.h) maps files larger than the budget, so its RSS
 * would grow to the machine's memory although the process holds almost no
 * memory of its own. The regions tracked here are file mappings whose
 * contents live in the file (the dump, mapped read-only; spill files, mapped
 * shared): dropping their pages from the process (MADV_DONTNEED) loses
 * nothing, the next access maps them back from the page cache or the file.
 * A thread started with the first finite budget looks at RSS a few dozen
 * times a second and drops every tracked region's pages when RSS is over
 * the budget and file pages are a part of it worth dropping. */
#ifndef LF_RESIDENT_H
#define LF_RESIDENT_H

#include <stddef.h>
#include <stdint.h>

/* Only for file-backed mappings whose pages may be dropped at any moment:
 * read-only mappings of a file, or MAP_SHARED ones. Untrack before unmapping
 * (the keeper holds the registry's lock while it drops pages, so a region
 * is never dropped after its address was given to other memory). A region
 * that cannot be tracked (no memory for the registry) is merely kept. */
void lf_resident_track(void *addr, size_t bytes);
void lf_resident_untrack(void *addr);

/* The resident set the keeper holds the process to (UINT64_MAX: none). */
void lf_resident_set_cap(uint64_t bytes);

/* Drops the pages of every tracked region now. */
void lf_resident_release(void);

/* How many times the tracked regions were dropped, by the keeper or by
 * lf_resident_release. */
uint64_t lf_resident_releases(void);

/* The most memory of the process's own (resident, less file-backed and
 * shared pages: anonymous memory) the keeper saw in its looks, 100 a
 * second; 0 when it never ran (no budget). */
uint64_t lf_resident_peak_own(void);

#endif
