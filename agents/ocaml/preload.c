/* preload.c - the agent loaded into an unmodified program by `leakfind
 * record` (LD_PRELOAD). The program must export the runtime's symbols
 * (linked with `-ccopt -Wl,-E` or for natdynlink); record checks that before
 * it starts the program. Settings come from the environment record sets,
 * and are removed so that the program's own children run without the agent
 * (with --follow, agents/follow/follow.c, they run with the follower). */
#define CAML_INTERNALS
#include "agent.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <caml/domain_state.h>

static void restore_environment(void)
{
    const char *saved = getenv("LEAKFIND_RECORD_SAVED_PRELOAD");
    if (saved && saved[0])
        setenv("LD_PRELOAD", saved, 1);
    else
        unsetenv("LD_PRELOAD");
    unsetenv("LEAKFIND_RECORD_SAVED_PRELOAD");
    unsetenv("LEAKFIND_RECORD_PREFIX");
    if (getenv("LEAKFIND_FOLLOW_PREFIX")) /* record --follow: the same triggers for what it runs, */
        return;                           /* whose LD_PRELOAD (saved) is the follower again */
    unsetenv("LEAKFIND_RECORD_EVERY_MAJOR");
    unsetenv("LEAKFIND_RECORD_SIGNAL");
    unsetenv("LEAKFIND_RECORD_SAMPLE");
    unsetenv("LEAKFIND_RECORD_MAX_SNAPSHOTS");
    unsetenv("LEAKFIND_RECORD_MAX_BYTES");
}

/* record --sample: Memprof can only start once the runtime has its heap,
 * (and the 5.x taker of snapshots needs its domains),
 * after this constructor, before the program's first allocation. The
 * runtime's start-up reads /proc/self/exe (caml_executable_name) right
 * after it sets up the heap and the signals, before any OCaml code runs:
 * the first readlink with the minor heap in place starts the sampling. */
static double pending_sample_rate;

ssize_t readlink(const char *restrict path, char *restrict buf, size_t len)
{
    static ssize_t (*next)(const char *restrict, char *restrict, size_t);
    if (!next)
        next = (ssize_t(*)(const char *restrict, char *restrict, size_t))dlsym(RTLD_NEXT,
                                                                             "readlink");
    static int up;
    if (!up && Caml_state && Caml_state_field(young_start)) {
        up = 1;
        agent_runtime_up();
        double rate = pending_sample_rate;
        pending_sample_rate = 0;
        if (rate > 0)
            agent_sampling_start(rate);
    }
    return next ? next(path, buf, len) : -1;
}

/* A program that installs its own handler for the snapshot signal
 * (Sys.set_signal, or C) replaces the agent's, and would swallow every
 * request without a word: the program's own sigaction and signal calls
 * pass through here, and the first that changes the snapshot signal is
 * said on stderr, with another signal to record it with. The program's
 * handler stays: what the program does with its signal is its own. */
static int snapshot_signo;      /* 0: no snapshot signal */
static int agent_installing;    /* the agent's own handler going in */
static int (*next_sigaction)(int, const struct sigaction *, struct sigaction *);
static sighandler_t (*next_signal)(int, sighandler_t);

static void bind_next(void)
{
    if (!next_sigaction)
        next_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(
            RTLD_NEXT, "sigaction");
    if (!next_signal)
        next_signal = (sighandler_t(*)(int, sighandler_t))dlsym(RTLD_NEXT, "signal");
}

static void say_replaced(int sig, sighandler_t handler)
{
    static int said;
    if (agent_installing || sig != snapshot_signo || said++)
        return;
    const char *name = sig == SIGUSR1 ? "SIGUSR1" : sig == SIGUSR2 ? "SIGUSR2" : "the signal";
    const char *what = handler == SIG_DFL   ? "sets %s, the snapshot signal, back to its default action: a "
                                              "snapshot request would end it"
                       : handler == SIG_IGN ? "ignores %s, the snapshot signal: snapshot requests are lost"
                                            : "installs its own handler for %s, the snapshot signal: "
                                              "snapshot requests go to the program, and none is written";
    fprintf(stderr, "leakfind: '%s' (pid %ld) ", program_invocation_short_name, (long)getpid());
    fprintf(stderr, what, name);
    fprintf(stderr, "; record it with --signal %s (or another signal it leaves alone)\n",
            sig == SIGUSR1 ? "USR2" : "USR1");
}

int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old)
{
    bind_next();
    if (!next_sigaction) {
        errno = ENOSYS;
        return -1;
    }
    int rc = next_sigaction(sig, act, old);
    if (rc == 0 && act)
        say_replaced(sig, act->sa_handler);
    return rc;
}

sighandler_t signal(int sig, sighandler_t handler)
{
    bind_next();
    if (!next_signal) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    sighandler_t previous = next_signal(sig, handler);
    if (previous != SIG_ERR)
        say_replaced(sig, handler);
    return previous;
}

/* A runtime that never read /proc/self/exe after setting up its heap: say
 * why the snapshots had no sites. */
__attribute__((destructor)) static void leakfind_record_end(void)
{
    if (pending_sample_rate > 0)
        fprintf(stderr, "leakfind: --sample: this program's runtime gave the agent no moment to "
                        "start Gc.Memprof; the snapshots have no allocation sites\n");
}

__attribute__((constructor)) static void leakfind_record_start(void)
{
    const char *prefix = getenv("LEAKFIND_RECORD_PREFIX");
    if (!prefix)
        return;
    char *owned = strdup(prefix);
    const char *every = getenv("LEAKFIND_RECORD_EVERY_MAJOR");
    const char *sig = getenv("LEAKFIND_RECORD_SIGNAL");
    const char *sample = getenv("LEAKFIND_RECORD_SAMPLE");
    const char *max_count = getenv("LEAKFIND_RECORD_MAX_SNAPSHOTS");
    const char *max_bytes = getenv("LEAKFIND_RECORD_MAX_BYTES");
    agent_series_budget(max_count ? (unsigned)strtoul(max_count, NULL, 10) : 0,
                        max_bytes ? strtoull(max_bytes, NULL, 10) : 0);
    pending_sample_rate = sample ? strtod(sample, NULL) : 0;
    int every_n = every ? atoi(every) : 0, signo = sig ? atoi(sig) : 0;
    restore_environment();
    if (!owned)
        return;
    if (every_n > 0)
        agent_every_major(every_n, owned);
    bind_next(); /* now, not in a signal handler: dlsym is not async-signal-safe */
    if (signo > 0) {
        agent_installing = 1;
        if (agent_on_signal(signo, owned) == 0)
            snapshot_signo = signo;
        agent_installing = 0;
    }
    free(owned);
}
