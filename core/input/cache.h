/* cache.h - the opt-in cache of an analysed dump next to it (--cache).
 *
 * A dump is read and analysed once; the result is written in leakfind's own
 * format to "<dump>.leakfind-cache", tagged with a key of the dump: its size,
 * modification time, a hash of its first and last MiB and the read options.
 * Later runs open the cache, memory-mapped, when the key still matches. */
#ifndef LF_CACHE_H
#define LF_CACHE_H

#include "open.h"
#include "../model/snapshot.h"

/* Bumped whenever a reader or the analysis changes what it produces, so
 * caches written by an older leakfind are not trusted. */
/* 2: allocation sites; 3: non-owning edges counted; 4: thread names
 * unquoted; 5: class loaders; 6: 4-byte sizes (format 1.2), which an older
 * cache would have widened into memory on every open; 7: V8 edge types
 * (ETYP, format 1.3), without which inspect on a cache says "weak" for a
 * non-owning property edge; 8: V8 source places (PLAC, format 1.4),
 * without which a cache shows no closure's name and place; 9: V8 objects
 * with a constructor's place a class apart from those without (DevTools'
 * class keys) */
#define LF_CACHE_GENERATION 9

/* Fills key for the regular file open on fd read with opt. Returns 0 or -1
 * (err; a pipe or device has no key). */
int lf_cache_key_fd(int fd, const lf_open_options *opt, lf_source_key *key, lf_error *err);
/* "<path>.leakfind-cache", malloc'ed; NULL when out of memory. */
char *lf_cache_path(const char *path);
/* Opens the cache at cache_path if it exists, is sound and carries key.
 * Returns 0 (out filled), or 1 when there is no usable cache (out empty;
 * *why says which: "none", "stale", "unreadable"). */
int lf_cache_open(const char *cache_path, const lf_source_key *key, lf_snapshot *out,
                  const char **why);

#endif
