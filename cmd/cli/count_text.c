/* count_text.c - counts in prose; see count_text.h. */
#include "count_text.h"

#include <inttypes.h>
#include <stdio.h>

int cli_count_text(char *buf, size_t size, uint64_t v)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    if (size == 0)
        return 0;
    for (int i = 0; i < len && (size_t)o + 2 < size; i++) {
        buf[o++] = digits[i];
        if (i < len - 1 && (len - 1 - i) % 3 == 0)
            buf[o++] = ',';
    }
    buf[o] = '\0';
    return o;
}
