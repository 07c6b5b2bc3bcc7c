/* record_spawn.h - starting the program `leakfind record` watches: every
 * signal is held until its pid is known, so that none sent meanwhile is
 * lost or passed to nobody; and the program never outlives leakfind. */
#ifndef LF_RECORD_SPAWN_H
#define LF_RECORD_SPAWN_H

#include <signal.h>
#include <sys/types.h>

/* Runs file with argv in a child; *pid_slot (read by the signal handlers)
 * is set before any signal is let through. The child starts with
 * child_mask as its signal mask (NULL: the caller's), and is killed
 * (SIGKILL) when leakfind ends first, however it ends. Returns the pid, or
 * -1 with the error said on stderr. */
pid_t record_spawn(char **argv, const char *file, volatile sig_atomic_t *pid_slot,
                   const sigset_t *child_mask);

#endif
