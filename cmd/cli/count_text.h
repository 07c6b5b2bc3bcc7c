/* count_text.h - a count in prose ("3,000 x Session", "... 1,171 more"):
 * with thousands separators in every output format, since it is part of a
 * text, not a number column (`dominators`' group and summary rows, the
 * report's tree). */
#ifndef LF_COUNT_TEXT_H
#define LF_COUNT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Writes v as "119,988" into buf (NUL-terminated); returns its length. */
int cli_count_text(char *buf, size_t size, uint64_t v);

#endif
