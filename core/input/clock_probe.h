/* clock_probe.h - when a dump was taken, read before it is analysed, so
 * that a series is put in order whatever order its files are named in
 * (DESIGN 15). Cheap by design: the HPROF header, an .lfs's META, a
 * .gcdump's fields after its graph, and for V8 one scan of the nodes array
 * (no edges, no strings); gzip is inflated only as far as that. */
#ifndef LF_CLOCK_PROBE_H
#define LF_CLOCK_PROBE_H

#include "../model/snapshot.h"

/* The dump's clock (snapshot.h), and into *format (may be NULL) what made
 * the graph the file holds (an .lfs: its source; LF_FORMAT_UNKNOWN when
 * not read); LF_CLOCK_NONE when the format has none
 * (text graphs, .lfs files before 1.5 or written without one), when path
 * is not a regular file (a pipe is read once, by the analysis), or when
 * the bytes do not get that far (the analysis then says what is wrong). */
lf_clock lf_probe_clock(const char *path, lf_source_format *format);

/* Where a clock comes from, for people: "their HPROF header times". */
const char *lf_clock_source(lf_source_format format, lf_clock_kind kind);

#endif
