/* finalizer_queue.h - .NET objects that only the finalizer queue keeps. */
#ifndef LF_FINALIZER_QUEUE_H
#define LF_FINALIZER_QUEUE_H

#include <stdint.h>

#include "../model/snapshot.h"

/* The objects reachable from `finalizer` roots (a .gcdump's [finalizer
 * Handles]: the f-reachable queue) and from no other root, by strong
 * references: garbage the collector found and keeps only until its
 * finalizer has run, never a leak of the program (docs/DOTNET.md). *only is
 * a bit per object (malloc'd, the caller frees it), or NULL when the
 * snapshot has no finalizer root (every runtime but .NET: OCaml's
 * `finaliser` roots are values the program registered, alive). One walk
 * from the other roots. Returns 0, or -1 with err (memory). */
int lf_finalizer_only(const lf_snapshot *s, uint64_t **only, lf_error *err);

static inline int lf_bit_is_set(const uint64_t *bits, uint32_t i)
{
    return (int)((bits[i >> 6] >> (i & 63)) & 1);
}

#endif
