/* preload.c - the agent loaded into an unmodified program by `leakfind
 * record` (LD_PRELOAD). The program must export the runtime's symbols
 * (linked with `-ccopt -Wl,-E` or for natdynlink); record checks that before
 * it starts the program. Settings come from the environment record sets,
 * and are removed so that the program's own children run without the agent. */
#define CAML_INTERNALS
#include "agent.h"

#include <dlfcn.h>
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
    if (signo > 0)
        agent_on_signal(signo, owned);
    free(owned);
}
