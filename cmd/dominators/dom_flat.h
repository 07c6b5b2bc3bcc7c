/* dom_flat.h - dominators --flat: every object (or the --top N) by retained
 * size, largest first, one row each. */
#ifndef LF_DOM_FLAT_H
#define LF_DOM_FLAT_H

#include <stdint.h>

#include "../../core/model/snapshot.h"
#include "../cli/output.h"

/* Rows of objects retaining at least min bytes, top of them (0: all);
 * heap: the bytes percentages are of. 0, or -1 (memory). */
int dom_show_flat(out_writer *w, const lf_snapshot *s, uint64_t top, uint64_t min, double heap,
                  unsigned threads);

#endif
