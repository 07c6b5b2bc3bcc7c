/* series_order.h - `SNAPSHOT [BEFORE...]`: the dump to look at first, then
 * earlier dumps of the same process, oldest first (suspects, report). The
 * analyses read a series oldest first; this puts the arguments in that
 * order, with the workload the user gave in argument order. */
#ifndef LF_SERIES_ORDER_H
#define LF_SERIES_ORDER_H

/* series[0..npos): pos[1], ..., pos[npos-1], pos[0]. workload: in argument
 * order on entry when given > 0 (given numbers), in series order on
 * return; 1, 2, ... N when none was given. */
void series_order(char **pos, int npos, double *workload, unsigned given, char **series);

#endif
