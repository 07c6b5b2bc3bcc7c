/* trace_callers.c - see trace_callers.h. */
#include "trace_callers.h"

#include <stdio.h>
#include <string.h>

size_t trace_callers_text(char *buf, size_t size, const char *site, size_t most)
{
    size_t site_len = strlen(site), gap = strlen(TRACE_FRAME_GAP);
    if (strncmp(buf, site, site_len) != 0 || strncmp(buf + site_len, TRACE_FRAME_GAP, gap) != 0)
        return 0; /* the site alone, or a backtrace not its own */
    size_t len = strlen(buf + site_len + gap);
    memmove(buf, buf + site_len + gap, len + 1);
    size_t shown = 1, more = 0;
    char *cut = NULL;
    for (char *p = strstr(buf, TRACE_FRAME_GAP); p; p = strstr(p + gap, TRACE_FRAME_GAP)) {
        if (shown++ == most)
            cut = p;
        more += cut != NULL;
    }
    if (cut) {
        int n = snprintf(cut, size - (size_t)(cut - buf), "%s… %zu more", TRACE_FRAME_GAP, more);
        len = (size_t)(cut - buf) + (n > 0 ? (size_t)n : 0);
    }
    return len < size ? len : size - 1;
}
