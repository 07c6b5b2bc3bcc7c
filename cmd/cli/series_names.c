/* series_names.c - see series_names.h. */
#include "series_names.h"

#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The longest text every name starts with, not ending in a digit. */
static size_t common_prefix(char *const *names, int n)
{
    size_t len = strlen(names[0]);
    for (int i = 1; i < n; i++) {
        size_t k = 0;
        while (k < len && names[i][k] == names[0][k])
            k++;
        len = k;
    }
    while (len > 0 && is_digit(names[0][len - 1]))
        len--;
    return len;
}

/* The longest text every name ends with after prefix bytes, not starting
 * with a digit. */
static size_t common_suffix(char *const *names, int n, size_t prefix)
{
    size_t first = strlen(names[0]), len = first - prefix;
    for (int i = 1; i < n; i++) {
        size_t other = strlen(names[i]), k = 0;
        size_t most = other - prefix < len ? other - prefix : len;
        while (k < most && names[i][other - 1 - k] == names[0][first - 1 - k])
            k++;
        len = k;
    }
    while (len > 0 && is_digit(names[0][first - len]))
        len--;
    return len;
}

int series_name_numbers(char *const *names, int n, uint64_t *number)
{
    enum { MOST_DIGITS = 18 }; /* fits in 64 bits */
    if (n < 2)
        return 0;
    size_t prefix = common_prefix(names, n), suffix = common_suffix(names, n, prefix);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if (len < prefix + suffix + 1 || len - prefix - suffix > MOST_DIGITS)
            return 0;
        uint64_t v = 0;
        for (size_t k = prefix; k < len - suffix; k++) {
            if (!is_digit(names[i][k]))
                return 0;
            v = v * 10 + (uint64_t)(names[i][k] - '0');
        }
        number[i] = v;
        for (int j = 0; j < i; j++)
            if (number[j] == v)
                return 0; /* "run-01" and "run-1": no order between them */
    }
    return 1;
}
