/* session_objects.c - objects that taking the dump itself creates (see session_objects.h). */
#include "session_objects.h"

#include <string.h>

/* dotnet-gcdump, dotnet-trace and dotnet-monitor talk to the runtime over
 * EventPipe: the session enables these event sources, whose first use builds
 * their metadata. A process nobody dumps has none of it. */
static const char *const session_classes[] = {
    "System.Diagnostics.Tracing.NativeRuntimeEventSource",
    "System.Diagnostics.Tracing.RuntimeEventSource",
};

int lf_class_is_session_made(const lf_snapshot *s, uint32_t class_index)
{
    if (class_index >= s->class_count)
        return 0;
    lf_str name = lf_snapshot_class_name(s, class_index);
    for (size_t i = 0; i < sizeof session_classes / sizeof *session_classes; i++)
        if (name.len == strlen(session_classes[i]) && memcmp(name.ptr, session_classes[i], name.len) == 0)
            return 1;
    return 0;
}
