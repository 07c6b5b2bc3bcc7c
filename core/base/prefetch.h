/* prefetch.h - helpers that ask the caches for words a pass reads soon. */
#ifndef LF_BASE_PREFETCH_H
#define LF_BASE_PREFETCH_H

/* A helper made of prefetches alone must be inlined where it is called:
 * GCC finds that such a function has no effect it can see (a prefetch has
 * none), marks it const and drops every call to it before inlining it.
 * This happened to two of them (2026-12-06): write each with this. */
#define LF_PREFETCH_HELPER static inline __attribute__((always_inline))

#endif
