/* series_names.h - the order a series' file names give: "leaky.1.gcdump",
 * "leaky.2.gcdump", "leaky.3.gcdump" are the same text around a number,
 * which says which was taken first when the dumps themselves do not
 * (dotnet-gcdump writes no time; text graphs have none). Without it a
 * series given oldest first, as people list numbered files, was read
 * backwards by `suspects`' convention (the first the newest) and found
 * nothing. */
#ifndef LF_SERIES_NAMES_H
#define LF_SERIES_NAMES_H

#include <stdint.h>

/* Whether names[0..n) (n > 1) are one text around a run of decimal digits
 * that differs in each: then number[i] is names[i]'s. The digits next to
 * the common text belong to the number (ids 9 and 10 share the "1" of
 * "10" with no one). */
int series_name_numbers(char *const *names, int n, uint64_t *number);

#endif
