/* series_order.c - see series_order.h. */
#include "series_order.h"

#include <stdlib.h>
#include <string.h>

void series_order(char **pos, int npos, double *workload, unsigned given, char **series)
{
    double first = given ? workload[0] : 0;
    for (int i = 0; i < npos; i++) {
        int arg = i == npos - 1 ? 0 : i + 1;
        series[i] = pos[arg];
        /* shifting down in place: workload[i] still holds argument i until written */
        workload[i] = given ? (arg == 0 ? first : workload[arg]) : i + 1;
    }
}
