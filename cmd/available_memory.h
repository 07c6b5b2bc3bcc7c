/* available_memory.h - the memory this process may take (see the .c). */
#ifndef LF_AVAILABLE_MEMORY_H
#define LF_AVAILABLE_MEMORY_H

#include <stdint.h>

/* Bytes: the smaller of MemAvailable and the room the process's memory
 * cgroups leave (limit less what their processes hold that cannot be
 * reclaimed); UINT64_MAX when neither is known. */
uint64_t available_memory(void);

#endif
