/* snapsignal.c - the snapshot signal of `leakfind record`, answered in a
 * bounded time whatever the program is doing.
 *
 * The agent may read the heap only where it is consistent and still:
 *  - at a safe point: the signal handler asks for a minor collection (as the
 *    runtime's own handler does), which runs at the program's next
 *    allocation, and the snapshot is written at its end;
 *  - while the program waits in a blocking section (a system call through
 *    the runtime: reading a channel, Unix.read, Unix.sleep, select...),
 *    where by the runtime's own rule no code touches the heap. A program
 *    blocked on input never allocates, so a watchdog thread writes the
 *    snapshot there. The runtime's blocking-section hooks are wrapped to say
 *    when the program is inside one, and leaving it waits while the
 *    watchdog writes, so the program never runs on a heap being read.
 * A program that runs OCaml code that neither allocates nor makes a system
 * call cannot be stopped anywhere safe (OCaml 4.13/4.14 have no other safe
 * points), nor can it run its own signal handlers: after PENDING_NOTICE
 * seconds the watchdog says on stderr that the snapshot is pending. A
 * snapshot still pending when the program exits is written then.
 *
 * The threads library replaces the blocking-section hooks when it starts
 * (it does not chain them). In a program with systhreads the heap is still
 * whenever no thread holds the runtime lock, so the watchdog asks a thread
 * of the agent's own, registered with the runtime (caml_c_thread_register),
 * to take that lock as any thread does when it leaves a blocking section,
 * write the snapshot, and give the lock back. The other threads' stacks are
 * in their descriptors then, as during a collection. */
#define CAML_INTERNALS
#include "../agent.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <caml/domain_state.h>
#include <caml/minor_gc.h>
#include <caml/misc.h>
#include <caml/signals.h>
#include <caml/startup_aux.h>

enum { PENDING_NOTICE = 2 };     /* seconds before a pending snapshot is said */
enum { POLL_NS = 10 * 1000000 }; /* the watchdog's look at a pending request */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t requested; /* set by the handler, cleared by the writer */
static int blocked;                     /* in a blocking section (under lock) */
static int watchdog_running;            /* not in a forked child */
static int pending_said;                /* the notice was printed for this request */
static double requested_at;             /* when the watchdog saw the request */
static sem_t wake;
static sem_t take;          /* the taker's turn (systhreads) */
static int taker_started;   /* by the watchdog, once */
static caml_timing_hook previous_minor_end;
static void (*previous_enter)(void);
static void (*previous_leave)(void);

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The snapshot, with the lock held and the heap still. */
static void write_requested(void)
{
    requested = 0;
    agent_series_dump();
    if (pending_said)
        fprintf(stderr, "leakfind: the pending snapshot was written, %.1f s after it was asked for\n",
                now_seconds() - requested_at);
    pending_said = 0;
}

static void on_signal(int sig)
{
    (void)sig;
    int saved = errno;
    requested = 1;
    caml_request_minor_gc(); /* what the runtime's own handler does */
    if (watchdog_running)
        sem_post(&wake); /* async-signal-safe */
    errno = saved;
}

static void on_minor_end(void)
{
    if (previous_minor_end)
        previous_minor_end();
    if (!requested)
        return;
    pthread_mutex_lock(&lock);
    if (requested)
        write_requested();
    pthread_mutex_unlock(&lock);
}

/* The wrappers: said to the watchdog once the previous hook has run (the
 * threads library's would release the runtime), and on the way out before
 * it, so that the program waits there for a snapshot being written. */
static void enter_blocking(void)
{
    if (previous_enter)
        previous_enter();
    pthread_mutex_lock(&lock);
    blocked = 1;
    pthread_mutex_unlock(&lock);
}

static void leave_blocking(void)
{
    pthread_mutex_lock(&lock);
    blocked = 0;
    pthread_mutex_unlock(&lock);
    if (previous_leave)
        previous_leave();
}

static void say_pending(void)
{
    int ours = caml_enter_blocking_section_hook == enter_blocking;
    fprintf(stderr, "leakfind: snapshot requested %d s ago, pending: %s; it is written when it does, "
                    "or at exit\n", PENDING_NOTICE,
            ours ? "the program has neither allocated nor waited in a system call since"
                 : "a thread runs OCaml code that neither allocates nor lets the others run");
    pending_said = 1;
}

/* The taker (systhreads): a thread the runtime knows, which takes the
 * runtime lock when the watchdog asks. Leaving and entering the blocking
 * section neither runs the program's OCaml signal handlers (the _no_pending
 * entry) nor lets it run while the snapshot is written. */
static void *taker(void *registered)
{
    int (*c_thread_register)(void) = (int (*)(void))registered;
    if (!c_thread_register())
        return NULL;
    for (;;) {
        while (sem_wait(&take) != 0)
            if (errno != EINTR)
                return NULL;
        caml_leave_blocking_section();
        pthread_mutex_lock(&lock);
        if (requested)
            write_requested();
        pthread_mutex_unlock(&lock);
        caml_enter_blocking_section_no_pending();
    }
}

/* Asks the taker for the snapshot, starting it the first time: 0, or -1
 * when this runtime has no threads library to register it with. */
static int ask_taker(void)
{
    if (!taker_started) {
        void *reg = dlsym(RTLD_DEFAULT, "caml_c_thread_register");
        pthread_t thread;
        if (!reg || sem_init(&take, 0, 0) || pthread_create(&thread, NULL, taker, reg))
            return -1;
        pthread_detach(thread);
        taker_started = 1;
    }
    return sem_post(&take);
}

/* One request: written as soon as the program is in a blocking section (or
 * by the program itself at a safe point); said when it takes long. */
static void serve_request(void)
{
    const struct timespec poll = {0, POLL_NS};
    int asked = 0;
    pthread_mutex_lock(&lock);
    requested_at = now_seconds();
    pthread_mutex_unlock(&lock);
    for (;;) {
        pthread_mutex_lock(&lock);
        int done = !requested, ours = caml_enter_blocking_section_hook == enter_blocking;
        if (!done && !asked && !ours) {
            ask_taker(); /* systhreads: the taker waits for the runtime lock */
            asked = 1;   /* (without a threads library: once is enough to know) */
        }
        /* blocked is only believed while the hooks are ours: the threads
         * library replaces them from OCaml code, never inside a section */
        if (!done && blocked && ours) {
            write_requested();
            done = 1;
        } else if (!done && !pending_said && now_seconds() - requested_at >= PENDING_NOTICE) {
            say_pending();
        }
        pthread_mutex_unlock(&lock);
        if (done)
            return;
        nanosleep(&poll, NULL);
    }
}

static void *watchdog(void *unused)
{
    (void)unused;
    for (;;) {
        while (sem_wait(&wake) != 0)
            if (errno != EINTR)
                return NULL;
        while (sem_trywait(&wake) == 0) /* several signals: one request */
            ;
        serve_request();
    }
}

/* At exit the heap is still whole, unless the runtime freed it
 * (OCAMLRUNPARAM=c): then the snapshot is given up, and said. */
static void pending_at_exit(void)
{
    if (!requested || !Caml_state || !Caml_state_field(young_start))
        return;
    if (caml_cleanup_on_exit) {
        fprintf(stderr, "leakfind: the pending snapshot is not written: the runtime freed the heap "
                        "at exit (OCAMLRUNPARAM=c)\n");
        return;
    }
    pthread_mutex_lock(&lock);
    if (requested)
        write_requested();
    pthread_mutex_unlock(&lock);
}

/* fork: the child has no watchdog, and must not inherit a held lock. */
static void before_fork(void)
{
    pthread_mutex_lock(&lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&lock);
}

static void after_fork_child(void)
{
    watchdog_running = 0;
    pthread_mutex_unlock(&lock);
}

/* The watchdog takes no signal: the program's threads get them as before. */
static int start_watchdog(void)
{
    sigset_t all, before;
    pthread_t thread;
    if (sem_init(&wake, 0, 0))
        return -1;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int rc = pthread_create(&thread, NULL, watchdog, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (rc)
        return -1;
    pthread_detach(thread);
    watchdog_running = 1;
    return pthread_atfork(before_fork, after_fork_parent, after_fork_child) ? -1 : 0;
}

static void wrap_blocking_hooks(void)
{
    if (caml_enter_blocking_section_hook == enter_blocking)
        return;
    previous_enter = caml_enter_blocking_section_hook;
    previous_leave = caml_leave_blocking_section_hook;
    caml_enter_blocking_section_hook = enter_blocking;
    caml_leave_blocking_section_hook = leave_blocking;
}

int agent_on_signal(int sig, const char *prefix)
{
    if (agent_series_prefix(prefix))
        return -1;
    if (caml_minor_gc_end_hook != on_minor_end) {
        previous_minor_end = caml_minor_gc_end_hook;
        caml_minor_gc_end_hook = on_minor_end;
        atexit(pending_at_exit);
        /* without the watchdog, the next allocation or the exit still write it */
        if (start_watchdog() == 0)
            wrap_blocking_hooks();
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

/* 4.x's signal path needs nothing the runtime builds at start-up. */
void agent_runtime_up(void)
{
}
