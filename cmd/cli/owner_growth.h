/* owner_growth.h - diff --owners and trend --owners: what grew between two
 * snapshots, by owner (dominator-tree nodes matched by their path from the
 * roots, core/analysis/owners.h), one row each. Shared by the two commands,
 * so it is neither one's. */
#ifndef LF_OWNER_GROWTH_H
#define LF_OWNER_GROWTH_H

#include <stdint.h>

#include "../../core/model/snapshot.h"
#include "cli.h"

/* The owners that grew from s[0] to s[1], largest growth first, at most top
 * rows (0: all). *grew is set when one gained min_count objects and
 * min_bytes retained bytes. span > 0 adds the growth per unit of workload.
 * 0, or -1 with the message printed (memory). */
int show_owner_growth(const cli_context *ctx, const lf_snapshot *s, uint64_t top, uint64_t min_count,
                      uint64_t min_bytes, double span, int *grew);

#endif
