/* available.h - the memory this process may take (see the .c). */
#ifndef LF_AVAILABLE_H
#define LF_AVAILABLE_H

#include <stdint.h>

/* Bytes: the smaller of MemAvailable and the room the process's memory
 * cgroups leave (limit less what their processes hold that cannot be
 * reclaimed: anonymous and shared memory), v1 or v2, the smallest of every
 * level up the hierarchy; UINT64_MAX when neither is known. */
uint64_t lf_available_memory(void);
/* The same with every path under root ("" for the real /proc and /sys):
 * the tests give it a made-up tree. */
uint64_t lf_available_memory_at(const char *root);

#endif
