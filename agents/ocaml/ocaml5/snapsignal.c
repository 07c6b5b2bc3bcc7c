/* snapsignal.c (OCaml 5) - the snapshot signal of `leakfind record`.
 *
 * The handler asks the domain that received the signal for a major slice
 * (as the runtime asks itself, through the domain's interrupt word), and
 * notes the snapshot as pending; the end of that slice, at the domain's
 * next poll, takes it in the agent's own stop-the-world section
 * (triggers.c). OCaml 5 polls in loops and at function entries, so a
 * program running OCaml code takes it at once, allocating or not. A
 * program waiting in a system call (every domain blocked) reaches no poll:
 * after PENDING_NOTICE seconds a watchdog says so on stderr, and a snapshot
 * still pending at exit is written then. */
#define CAML_INTERNALS
#include "ocaml5.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <caml/domain.h>
#include <caml/startup_aux.h>

enum { PENDING_NOTICE = 2 }; /* seconds before a pending snapshot is said */

static atomic_int requested;      /* set by the handler, cleared when written */
static atomic_int pending_said;
static sem_t wake;
static int watchdog_running;
static struct timespec requested_at;

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static void on_signal(int sig)
{
    (void)sig;
    int saved = errno;
    atomic_store(&requested, 1);
    agent5_request_signal_snapshot();
    caml_domain_state *d = Caml_state;
    if (d) {
        d->requested_major_slice = 1;
        caml_interrupt_self();
    } else {
        caml_interrupt_all_signal_safe();
    }
    if (watchdog_running)
        sem_post(&wake); /* async-signal-safe */
    errno = saved;
}

void agent5_signal_snapshot(void)
{
    if (!atomic_exchange(&requested, 0))
        return;
    agent_series_dump();
    if (atomic_exchange(&pending_said, 0))
        fprintf(stderr, "leakfind: the pending snapshot was written, %.1f s after it was asked for\n",
                seconds_since(&requested_at));
}

/* Says on stderr that a snapshot waits for the program, once per request. */
static void *watchdog(void *unused)
{
    (void)unused;
    for (;;) {
        while (sem_wait(&wake) != 0)
            if (errno != EINTR)
                return NULL;
        while (sem_trywait(&wake) == 0) /* several signals: one request */
            ;
        clock_gettime(CLOCK_MONOTONIC, &requested_at);
        const struct timespec poll = {0, 10 * 1000000};
        while (atomic_load(&requested) && seconds_since(&requested_at) < PENDING_NOTICE)
            nanosleep(&poll, NULL);
        if (atomic_load(&requested) && !atomic_exchange(&pending_said, 1))
            fprintf(stderr, "leakfind: snapshot requested %d s ago, pending: no domain has run "
                            "OCaml code since (all wait in system calls); it is written when one "
                            "does, or at exit\n", PENDING_NOTICE);
    }
}

/* The watchdog takes no signal: the program's threads get them as before. */
static void start_watchdog(void)
{
    sigset_t all, before;
    pthread_t thread;
    if (sem_init(&wake, 0, 0))
        return;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int rc = pthread_create(&thread, NULL, watchdog, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (rc == 0) {
        pthread_detach(thread);
        watchdog_running = 1;
    }
}

/* At exit the heap is still whole, unless the runtime freed it
 * (OCAMLRUNPARAM=c). */
static void pending_at_exit(void)
{
    if (!atomic_load(&requested) || !Caml_state)
        return;
    if (caml_params && caml_params->cleanup_on_exit) {
        fprintf(stderr, "leakfind: the pending snapshot is not written: the runtime freed the heap "
                        "at exit (OCAMLRUNPARAM=c)\n");
        return;
    }
    agent5_signal_snapshot();
}

static void after_fork_child(void)
{
    watchdog_running = 0;
}

int agent_on_signal(int sig, const char *prefix)
{
    static int started;
    if (agent_series_prefix(prefix))
        return -1;
    if (!started) {
        started = 1;
        agent5_hook_slices();
        atexit(pending_at_exit);
        start_watchdog();
        pthread_atfork(NULL, NULL, after_fork_child);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}
