/* record_watch.c - the recorded program's lifetime and the signals sent to
 * leakfind meanwhile (record_watch.h).
 *
 * The handler only writes what came (the signal and who sent it) to a pipe
 * that the main thread reads, one at a time, so that each is decided
 * outside a handler, where /proc may be read. A pipe and not sigwaitinfo:
 * leakfind has a thread of its own (core/base/resident.c) that blocks no
 * signal, and a signal sent to the process may be given to it. */
#include "record_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "record_spawn.h"
#include "record_tree.h"

/* Those that end a program: passed on, so that stopping record stops the
 * program, unless the terminal sent them (the kernel, to the whole
 * foreground process group: the program has it too). */
static const int ending_signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};
/* The others (USR1, USR2) a program may use for its own ends: passed on
 * only when it handles or ignores them, since their default action would
 * end it. */

static int signal_pipe[2] = {-1, -1};
static long requests_passed; /* snapshot signals passed on */

typedef struct came {
    int sig, code;
} came;

static void note_signal(int sig, siginfo_t *info, void *unused)
{
    (void)unused;
    int saved = errno;
    came c = {sig, info ? info->si_code : SI_USER};
    ssize_t n = write(signal_pipe[1], &c, sizeof c); /* atomic: under PIPE_BUF */
    (void)n;
    errno = saved;
}

/* A mask in /proc/PID/status ("SigCgt:", "SigIgn:") has bit N-1 for signal N. */
static int status_mask_has(const char *line, int sig)
{
    unsigned long long mask = strtoull(line, NULL, 16);
    return sig <= 64 && (mask >> (sig - 1)) & 1;
}

/* Whether the program catches or ignores sig (1), leaves it at its
 * default action (0), or cannot be asked (-1). */
static int program_handles(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int handled = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "SigIgn:", 7) == 0 && status_mask_has(line + 7, sig))
            handled = 1;
        else if (strncmp(line, "SigCgt:", 7) == 0)
            handled = handled == 1 || status_mask_has(line + 7, sig);
    }
    fclose(f);
    return handled;
}

static int is_one_of(int sig, const int *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == sig)
            return 1;
    return 0;
}

/* "SIGUSR1", or "signal 40" for one with no name here. */
static const char *sig_name(int sig, char *buf, size_t len)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"}, {SIGINT, "SIGINT"},
        {SIGQUIT, "SIGQUIT"}, {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, len, "signal %d", sig);
    return buf;
}

/* USR1 or USR2 that is not the snapshot signal, which the program would
 * die of: kept, and said (once per signal) with what to send instead. */
static void keep_user_signal(int sig, pid_t pid, const record_watch *w)
{
    static int said[2];
    int *once = &said[sig == SIGUSR2];
    char a[32], b[32];
    if ((*once)++ || w->quiet)
        return;
    if (w->snapshot_signal)
        cli_message("warning", "%s not passed on: '%s' (pid %ld) does not handle it, and it would end "
                               "the program; the snapshot signal is %s (kill -%d %ld)",
                    sig_name(sig, a, sizeof a), w->program, (long)pid,
                    sig_name(w->snapshot_signal, b, sizeof b),
                    w->snapshot_signal, (long)getpid());
    else
        cli_message("warning", "%s not passed on: '%s' (pid %ld) does not handle it, and it would end "
                               "the program; snapshots come every %ld major cycles here (--signal "
                               "USR1 adds a snapshot on demand)",
                    sig_name(sig, a, sizeof a), w->program, (long)pid, w->every_major);
}

static void pass_on(int sig, int code, pid_t pid, const record_watch *w)
{
    int from_terminal = code == SI_KERNEL;
    if (sig == w->snapshot_signal && !from_terminal)
        requests_passed++;
    if (sig == w->snapshot_signal && w->follow) {
        static int said;
        if (!record_tree_signal(pid, sig, 1) && !said++ && !w->quiet)
            cli_message("warning", "no process under '%s' is recorded yet: the snapshot signal went to "
                                   "none", w->program);
        return;
    }
    if (sig == w->snapshot_signal || is_one_of(sig, ending_signals, 4)) {
        if (!from_terminal && w->follow) /* a wrapper's children would outlive it */
            record_tree_signal(pid, sig, 0);
        else if (!from_terminal)
            kill(pid, sig);
        return;
    }
    if (program_handles(pid, sig) != 0) /* unknown: as if sent to it directly */
        kill(pid, sig);
    else
        keep_user_signal(sig, pid, w);
}

/* The signals handled: every one above, but an ignored HUP or TERM
 * (nohup), which stays ignored by both; INT and QUIT reach the program
 * even from a shell's background job, which ignores them. exec gives the
 * program the default action of each handled one back. */
static void handle_signals(const record_watch *w)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = note_signal;
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    int all[8] = {SIGCHLD, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, w->snapshot_signal};
    for (size_t i = 0; i < 8; i++) {
        int sig = all[i];
        if (sig <= 0 || sigaction(sig, NULL, &old))
            continue;
        if (old.sa_handler == SIG_IGN && (sig == SIGHUP || sig == SIGTERM) && sig != w->snapshot_signal)
            continue;
        sigaction(sig, &sa, NULL);
    }
}

/* Whether a snapshot PREFIX.*.lfs was written from `since` on (to the
 * second: an older one, of an earlier run, does not count). */
static int written_since(const char *prefix, time_t since)
{
    char pattern[PATH_MAX * 2];
    size_t k = 0;
    for (const char *p = prefix; *p && k < sizeof pattern - 16; p++) {
        if (strchr("*?[\\", *p))
            pattern[k++] = '\\';
        pattern[k++] = *p;
    }
    snprintf(pattern + k, sizeof pattern - k, ".*.lfs");
    glob_t g;
    int found = 0;
    if (glob(pattern, 0, NULL, &g) == 0) {
        struct stat st;
        for (size_t i = 0; !found && i < g.gl_pathc; i++)
            found = stat(g.gl_pathv[i], &st) == 0 && st.st_mtime >= since;
        globfree(&g);
    }
    return found;
}

/* Nothing written: the usual reasons, so that a run that recorded nothing
 * is not taken for one that found nothing. */
static void say_nothing_written(const record_watch *w)
{
    char name[32];
    if (requests_passed)
        cli_message("note", "nothing recorded: %ld snapshot request%s passed on (%s), and no snapshot "
                            "%s.*.lfs was written: the program may take that signal for itself (then "
                            "--signal %s records it), or have ended before it could write one",
                    requests_passed, requests_passed > 1 ? "s" : "",
                    sig_name(w->snapshot_signal, name, sizeof name), w->prefix,
                    w->snapshot_signal == SIGUSR1 ? "USR2" : "USR1");
    else if (w->follow)
        cli_message("note", "nothing recorded: no snapshot %s.*.lfs was written (no native OCaml program "
                            "of a runtime the agent reads ran under '%s', or none was asked for one%s)",
                    w->prefix, w->program, w->every_major ? " or ended a major cycle" : "");
    else
        cli_message("note", "nothing recorded: no snapshot %s.*.lfs was written (%s); the agent records "
                            "'%s' itself, not the programs it runs: --follow records those",
                    w->prefix, w->every_major ? "no major cycle ended that --every-major counts, nor "
                                                "came a snapshot signal"
                                              : "no snapshot signal came", w->program);
}

int record_watch_run(char **argv, const char *file, const record_watch *w)
{
    static volatile sig_atomic_t pid_slot;
    /* the handler never waits: past 8,192 unread signals, one is dropped */
    if (pipe2(signal_pipe, O_CLOEXEC) || fcntl(signal_pipe[1], F_SETFL, O_NONBLOCK)) {
        cli_message("error", "cannot start '%s': %s", w->program, strerror(errno));
        return -1;
    }
    handle_signals(w);
    time_t started = time(NULL);
    pid_t pid = record_spawn(argv, file, &pid_slot, NULL);
    if (pid < 0)
        return -1;
    for (;;) {
        int status;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done < 0 && errno != EINTR) {
            cli_message("error", "waiting for '%s': %s", w->program, strerror(errno));
            return -1;
        }
        if (done == pid && (WIFEXITED(status) || WIFSIGNALED(status))) {
            if (!w->quiet && !written_since(w->prefix, started))
                say_nothing_written(w);
            return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
        }
        came c; /* the child's end comes as SIGCHLD: no wait is missed */
        ssize_t n = read(signal_pipe[0], &c, sizeof c);
        if (n == (ssize_t)sizeof c && c.sig != SIGCHLD)
            pass_on(c.sig, c.code, pid, w);
        else if (n < 0 && errno != EINTR) {
            cli_message("error", "waiting for '%s': %s", w->program, strerror(errno));
            return -1;
        }
    }
}
