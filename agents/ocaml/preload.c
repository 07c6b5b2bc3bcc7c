/* preload.c - the agent loaded into an unmodified program by `leakfind
 * record` (LD_PRELOAD). The program must export the runtime's symbols
 * (linked with `-ccopt -Wl,-E` or for natdynlink); record checks that before
 * it starts the program. Settings come from the environment record sets,
 * and are removed so that the program's own children run without the agent. */
#define CAML_INTERNALS
#include "agent.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

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
}

__attribute__((constructor)) static void leakfind_record_start(void)
{
    const char *prefix = getenv("LEAKFIND_RECORD_PREFIX");
    if (!prefix)
        return;
    char *owned = strdup(prefix);
    const char *every = getenv("LEAKFIND_RECORD_EVERY_MAJOR");
    const char *sig = getenv("LEAKFIND_RECORD_SIGNAL");
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
