/* nearest_ids.h - the objects whose ids are nearest a mistyped one, by
 * edit distance of the ids written as the user wrote theirs (0x1f, @123,
 * 123): what "did you mean" offers for an id no object has (object_id.h). */
#ifndef LF_CLI_NEAREST_IDS_H
#define LF_CLI_NEAREST_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/model/snapshot.h"

typedef enum nearest_style { NEAREST_HEX, NEAREST_AT, NEAREST_DECIMAL } nearest_style;
/* How arg writes ids: "0x1f", "@123", "123". */
nearest_style nearest_id_style(const char *arg);
/* id written in that style into buf (24 bytes at least); its length. */
size_t nearest_id_write(char *buf, uint64_t id, nearest_style style);
/* Whether v was found unreachable (never without the analysis). */
int nearest_id_unreachable(const lf_snapshot *s, uint32_t v);

enum { NEAREST_KEEP = 3 };
typedef struct nearest_id {
    uint32_t node;
    size_t distance;
    uint64_t bytes; /* it retains (its own without the analysis); 0 unreachable */
} nearest_id;

/* Up to NEAREST_KEEP objects into best, nearest first, then retaining
 * most, then the first found; returns how many. Either every id
 * against arg, edit distances up to 2 (and a third of arg's length), or,
 * by_edits, the ids one edit away (a digit changed, added, left out, two
 * swapped), each looked up: for a snapshot too big to scan whose ids are
 * sorted (lf_snapshot_find_id then searches by bisection). */
size_t nearest_ids(const lf_snapshot *s, const char *arg, int by_edits, nearest_id *best);

#endif
