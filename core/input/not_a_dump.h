/* not_a_dump.h - what a file that is not a heap dump is, when it is
 * recognisable, and what to take instead (people hand leakfind profiles,
 * core files and archives by mistake). */
#ifndef LF_NOT_A_DUMP_H
#define LF_NOT_A_DUMP_H

#include <stddef.h>
#include <stdint.h>

/* A sentence saying what the first bytes are and what to do, or NULL. */
const char *lf_not_a_dump_describe(const uint8_t *head, size_t len);

#endif
