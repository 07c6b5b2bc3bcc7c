/* session_objects.h - objects that taking the dump itself creates. */
#ifndef LF_SESSION_OBJECTS_H
#define LF_SESSION_OBJECTS_H

#include <stdint.h>

#include "../model/snapshot.h"

/* 1 when class_index names a class whose instances the dumping session
 * made in the process (a .NET EventPipe session enables the runtime's
 * NativeRuntimeEventSource, which then holds ~200 KB of event metadata):
 * never a suspect of the program's own (docs/DOTNET.md). */
int lf_class_is_session_made(const lf_snapshot *s, uint32_t class_index);

#endif
