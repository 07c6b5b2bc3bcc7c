/* textgraph.h - the text graph format (DESIGN section 3), for scripts and tests.
 *
 *   node <id> <shallow-bytes> <class>
 *   edge <from-id> <to-id> <strong|weak> [<field-name-or-index>]
 *   root <id> <kind> [<name>]
 *
 * Fields are separated by one TAB; '#' starts a comment line; blank lines are
 * skipped; ids are decimal or 0x hex 64-bit numbers. An all-digit edge label is
 * an array index, any other label a field name. */
#ifndef LF_TEXTGRAPH_H
#define LF_TEXTGRAPH_H

#include "../model/snapshot.h"

/* True when the bytes look like a text graph (first meaningful line). */
int lf_textgraph_detect(const uint8_t *data, uint64_t size);
int lf_textgraph_parse(const uint8_t *data, uint64_t size, lf_snapshot *out, lf_error *err);

#endif
