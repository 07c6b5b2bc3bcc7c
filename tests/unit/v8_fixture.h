/* v8_fixture.h - hand-made V8 snapshots and comparisons the V8 tests share. */
#ifndef LF_TEST_V8_FIXTURE_H
#define LF_TEST_V8_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/model/snapshot.h"

/* The header's meta of the hand-made snapshots: DevTools' field and type
 * lists, up to the counts. */
#define V8_TEST_META                                                                                     \
    "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"],"   \
    "\"node_types\":[[\"hidden\",\"array\",\"string\",\"object\",\"code\",\"closure\",\"regexp\","          \
    "\"number\",\"native\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"     \
    "\"edge_types\":[[\"context\",\"element\",\"property\",\"internal\",\"hidden\",\"shortcut\",\"weak\"]]},"

/* (root) -> n1 -> n2 -> ... -> nK, each node 16 bytes, ids 2i+1; node i also
 * has a weak edge back to the root. The first padded_rows node rows start
 * with 80 blanks; the last string is tail_bytes of blanks with a comma
 * every 100. */

/* (root) -> n1 -> n2 -> ... -> nK, each node 16 bytes, ids 2i+1; node i also
 * has a weak edge back to the root. The first padded_rows node rows start
 * with 80 blanks; the last string is tail_bytes of blanks with a comma
 * every 100. Edge rows are "\n,2,3,<5(i+1)>" and "\n,6,4,0". malloc'd. */
char *v8_chain_snapshot_padded(uint32_t k, uint32_t padded_rows, size_t tail_bytes, size_t *len);
char *v8_chain_snapshot(uint32_t k, size_t *len);
/* Checks that two snapshots of one file read alike, object for object and
 * edge for edge (ids, kinds and labels through the lazy fields). */
void v8_check_same_arrays(const lf_snapshot *one, const lf_snapshot *two);

#endif
