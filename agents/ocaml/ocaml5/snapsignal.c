/* snapsignal.c (OCaml 5) - the snapshot signal of `leakfind record`.
 *
 * The handler asks the domain that received the signal for a major slice
 * (as the runtime asks itself, through the domain's interrupt word), and
 * notes the snapshot as pending; the end of that slice, at the domain's
 * next poll, takes it in the agent's own stop-the-world section
 * (triggers.c). OCaml 5 polls in loops and at function entries, so a
 * program running OCaml code takes it at once, allocating or not. A
 * program waiting in a system call reaches no poll, but it has released
 * its domain's lock: a taker thread of the agent's, made domain 0's as
 * the runtime makes a C thread it registers (caml_init_domain_self), takes
 * that lock and the snapshot on domain 0's behalf, as the domain's backup
 * thread serves the GC's stop-the-world sections while it waits; the
 * thread that wakes up waits for the lock until the snapshot is written.
 * A domain that holds its lock in a long C call reaches neither: after
 * PENDING_NOTICE seconds a watchdog says so on stderr, and a snapshot
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
/* what a running domain needs to reach its next poll, before the taker
 * queues for the domain lock (it would slow a program that blocks often) */
static const struct timespec TAKER_DELAY = {0, 50 * 1000000};

/* In 5.3's domain.h; weak, so a runtime without it loads the agent and
 * leaves blocked programs to the notice. */
extern void caml_init_domain_self(int domain_id) __attribute__((weak));
/* 5.3's; without it (5.1) a thread outside OCaml leaves the snapshot to
 * the taker */
extern void caml_interrupt_all_signal_safe(void) __attribute__((weak));

static atomic_int requested;      /* set by the handler, cleared when written */
static atomic_int pending_said;
static sem_t wake;
static sem_t take;
static int watchdog_running;
static int taker_running;
static atomic_int runtime_up; /* all_domains exists: interrupts and the taker may use it */
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
    caml_domain_state *d = Caml_state;
    if (d) {
        d->requested_major_slice = 1;
        caml_interrupt_self();
    } else if (atomic_load(&runtime_up) && caml_interrupt_all_signal_safe) {
        caml_interrupt_all_signal_safe();
    }
    if (watchdog_running)
        sem_post(&wake); /* async-signal-safe */
    errno = saved;
}

int agent5_signal_snapshot(void)
{
    if (!atomic_exchange(&requested, 0))
        return 0;
    int rc = agent_series_dump();
    if (rc == AGENT_SNAPSHOT_BUSY) {
        atomic_store(&requested, 1);
        return rc;
    }
    if (atomic_exchange(&pending_said, 0))
        fprintf(stderr, "leakfind: the pending snapshot was written, %.1f s after it was asked for\n",
                seconds_since(&requested_at));
    return rc;
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
        nanosleep(&TAKER_DELAY, NULL);
        if (atomic_load(&requested) && taker_running && atomic_load(&runtime_up))
            sem_post(&take);
        while (atomic_load(&requested) && seconds_since(&requested_at) < PENDING_NOTICE)
            nanosleep(&poll, NULL);
        if (atomic_load(&requested) && !atomic_exchange(&pending_said, 1))
            fprintf(stderr, "leakfind: snapshot requested %d s ago, pending: no domain has run "
                            "OCaml code since (all wait in system calls); it is written when one "
                            "does, or at exit\n", PENDING_NOTICE);
    }
}

/* Domain 0's lock, once every thread of domain 0 has left OCaml for a
 * system call; then the snapshot, if the domain has not taken it itself. */
static void *taker(void *unused)
{
    (void)unused;
    int made_domain_0s = 0;
    for (;;) {
        while (sem_wait(&take) != 0)
            if (errno != EINTR)
                return NULL;
        if (!made_domain_0s++) /* not before: record starts the agent before the runtime */
            caml_init_domain_self(0);
        caml_acquire_domain_lock();
        agent5_signal_snapshot();
        caml_release_domain_lock();
    }
}

/* Neither thread takes a signal: the program's threads get them as before. */
static int start_thread(void *(*body)(void *), sem_t *sem)
{
    sigset_t all, before;
    pthread_t thread;
    if (sem_init(sem, 0, 0))
        return 0;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int rc = pthread_create(&thread, NULL, body, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (rc != 0)
        return 0;
    pthread_detach(thread);
    return 1;
}

static void start_watchdog(void)
{
    if (caml_init_domain_self)
        taker_running = start_thread(taker, &take);
    watchdog_running = start_thread(watchdog, &wake);
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
    taker_running = 0;
}

void agent_runtime_up(void)
{
    atomic_store(&runtime_up, 1);
}

int agent_on_signal(int sig, const char *prefix)
{
    if (Caml_state)
        agent_runtime_up(); /* Leakfind.dump_on_signal, from OCaml */
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
