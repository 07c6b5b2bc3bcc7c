/* record_tree.h - the processes `leakfind record --follow` records: those
 * under the program (it included) with an OCaml agent loaded. */
#ifndef LF_RECORD_TREE_H
#define LF_RECORD_TREE_H

#include <sys/types.h>

/* Sends sig to each of them (agents_only 0: to every process under the
 * program, it included); returns how many it was sent to. */
int record_tree_signal(pid_t root, int sig, int agents_only);

#endif
