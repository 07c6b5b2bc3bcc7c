/* record_spawn.c - starting the watched program (record_spawn.h). */
#include "record_spawn.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../cli/cli.h"

pid_t record_spawn(char **argv, const char *file, volatile sig_atomic_t *pid_slot,
                   const sigset_t *child_mask)
{
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* SIGKILL to leakfind (which nothing can catch) ends the program
         * too. If leakfind died before the prctl, the child was already
         * given to another parent: end it now, it would never be sent. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
            _exit(128 + SIGKILL);
        sigprocmask(SIG_SETMASK, child_mask ? child_mask : &before, NULL);
        execv(file, argv);
        fprintf(stderr, "leakfind: error: cannot run '%s': %s\n", file, strerror(errno));
        _exit(127);
    }
    if (pid > 0)
        *pid_slot = pid;
    sigprocmask(SIG_SETMASK, &before, NULL);
    if (pid < 0)
        cli_message("error", "cannot start '%s': %s", file, strerror(errno));
    return pid;
}
