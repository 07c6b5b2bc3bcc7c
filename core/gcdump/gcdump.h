/* gcdump.h - the .NET heap dump (.gcdump: dotnet-gcdump, dotnet-monitor,
 * PerfView; docs/DOTNET.md). */
#ifndef LF_GCDUMP_H
#define LF_GCDUMP_H

#include "../base/progress.h"
#include "../model/snapshot.h"

/* True when the bytes start as a .gcdump does ("!FastSerialization.1"). */
int lf_gcdump_detect(const uint8_t *head, uint64_t len);
/* The snapshot reads its objects' ids (addresses) from data, which must
 * stay mapped as long as it lives (lf_open keeps the mapping with it). */
/* When the dump was taken (its "time collected"), read without building
 * the snapshot; LF_CLOCK_NONE when the file does not get that far. */
lf_clock lf_gcdump_clock(const uint8_t *data, uint64_t size);
int lf_gcdump_parse(const uint8_t *data, uint64_t size, const lf_progress *progress, lf_snapshot *out,
                    lf_error *err);

#endif
