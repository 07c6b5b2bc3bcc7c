/* mt_snapshot.h - the sampled blocks a trace's filters keep, as a snapshot
 * (issue 51): one object per block, its size (length + 1 words), its
 * allocation site and samples, each a root of its own and nothing pointing
 * anywhere, so that what reads sampled OCaml dumps (sites, its estimates)
 * reads a trace's window alike. Frames are "Module.fn (file.ml:LINE)". */
#ifndef LF_MT_SNAPSHOT_H
#define LF_MT_SNAPSHOT_H

#include "../model/snapshot.h"
#include "mt_window.h"

/* Reads the trace on fd through f into *out (and t, timeline: see
 * lf_mt_window_read; timeline may be NULL). On success free out with
 * lf_snapshot_free; free t whatever the outcome. */
int lf_mt_snapshot(int fd, const lf_mt_filter *f, lf_mt_trace *t, lf_mt_timeline *timeline,
                   lf_snapshot *out, lf_error *err);

#endif
