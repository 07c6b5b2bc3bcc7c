/* record_dotnet.c - `leakfind record -- dotnet app.dll` (docs/DOTNET.md,
 * "Recording"). The .NET runtime takes heap dumps through its diagnostics
 * port: dotnet-gcdump collect -p PID, run by leakfind on the snapshot
 * signal (which leakfind keeps: the program never sees it) and every
 * --every seconds. The budget (--max-snapshots, --max-bytes) is kept as for
 * OCaml programs: past it, each new dump removes the oldest but the first. */
#include "record_dotnet.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../cli/agent_path.h"
#include "../cli/cli.h"
#include "record_spawn.h"

static volatile sig_atomic_t program_pid, dump_asked;

static void ask_dump(int sig)
{
    (void)sig;
    dump_asked = 1;
}

static void pass_on(int sig)
{
    if (program_pid > 0)
        kill((pid_t)program_pid, sig);
}

int record_is_dotnet(const char *file)
{
    char copy[PATH_MAX], sibling[PATH_MAX + 32];
    snprintf(copy, sizeof copy, "%s", file);
    if (strcmp(basename(copy), "dotnet") == 0)
        return 1;
    snprintf(sibling, sizeof sibling, "%s.runtimeconfig.json", file);
    if (access(sibling, R_OK) != 0)
        return 0;
    snprintf(sibling, sizeof sibling, "%s.dll", file);
    return access(sibling, R_OK) == 0;
}

/* dotnet-gcdump on PATH, or where `dotnet tool install -g` puts it. */
static int find_gcdump(char *out, size_t len)
{
    return cli_find_program("dotnet-gcdump", ".dotnet/tools", out, len);
}

/* ---- the dumps kept, oldest first, within the budget */

typedef struct kept_dump {
    unsigned number;
    uint64_t bytes;
} kept_dump;

typedef struct dump_series {
    const record_dotnet *o;
    char tool[PATH_MAX];
    unsigned taken;
    kept_dump *kept;
    size_t kept_count;
    uint64_t kept_bytes;
    unsigned removed;
    int said_budget;
} dump_series;

static void dump_path(const dump_series *d, unsigned number, char *out, size_t len)
{
    snprintf(out, len, "%s.%u.gcdump", d->o->prefix, number);
}

static int over_budget(const dump_series *d)
{
    const record_dotnet *o = d->o;
    return d->kept_count > 2 && ((o->max_snapshots && d->kept_count > (size_t)o->max_snapshots) ||
                                 (o->max_bytes && d->kept_bytes > o->max_bytes));
}

static void keep_within_budget(dump_series *d)
{
    while (over_budget(d)) {
        char path[PATH_MAX];
        dump_path(d, d->kept[1].number, path, sizeof path);
        unlink(path);
        d->kept_bytes -= d->kept[1].bytes;
        memmove(&d->kept[1], &d->kept[2], (d->kept_count - 2) * sizeof *d->kept);
        d->kept_count--;
        d->removed++;
        if (!d->said_budget && !d->o->quiet)
            cli_message("note", "past the budget: each new dump removes the oldest but the first");
        d->said_budget = 1;
    }
}

/* One dump: dotnet-gcdump collect, its output kept for when it fails. */
static void take_dump(dump_series *d, pid_t pid)
{
    char path[PATH_MAX], pid_text[24];
    unsigned number = d->taken + 1;
    dump_path(d, number, path, sizeof path);
    snprintf(pid_text, sizeof pid_text, "%ld", (long)pid);
    pid_t tool = fork();
    if (tool == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            if (d->o->quiet) /* its warnings too (lossy buffering before .NET 11) */
                dup2(null, STDERR_FILENO);
        }
        execl(d->tool, d->tool, "collect", "-p", pid_text, "-o", path, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (tool > 0 && waitpid(tool, &status, 0) < 0 && errno == EINTR)
        ;
    struct stat st;
    if (tool < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(path, &st) != 0) {
        if (!d->o->quiet)
            cli_message("warning", "dump %s not written: dotnet-gcdump collect failed", path);
        return;
    }
    d->taken = number;
    kept_dump *grown = realloc(d->kept, (d->kept_count + 1) * sizeof *d->kept);
    if (!grown)
        return;
    d->kept = grown;
    d->kept[d->kept_count++] = (kept_dump){number, (uint64_t)st.st_size};
    d->kept_bytes += (uint64_t)st.st_size;
    if (!d->o->quiet)
        cli_message("note", "wrote %s", path);
    keep_within_budget(d);
}

/* ---- the program */

static void install_handlers(int signo)
{
    static const int ending[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = pass_on;
    for (size_t i = 0; i < sizeof ending / sizeof *ending; i++)
        if (ending[i] != signo)
            sigaction(ending[i], &sa, NULL);
    sa.sa_handler = ask_dump;
    if (signo)
        sigaction(signo, &sa, NULL);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits for the program, dumping it when asked and on the interval. */
static int watch(dump_series *d, pid_t pid)
{
    const struct timespec tick = {0, 50 * 1000 * 1000};
    double next = d->o->every_seconds ? now_seconds() + (double)d->o->every_seconds : 0;
    for (;;) {
        int status;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
        if (done < 0 && errno != EINTR)
            return EXIT_SYSTEM;
        if (dump_asked || (next && now_seconds() >= next)) {
            dump_asked = 0;
            take_dump(d, pid);
            if (next)
                next = now_seconds() + (double)d->o->every_seconds;
        }
        nanosleep(&tick, NULL);
    }
}

int record_dotnet_run(char **argv, const char *file, const record_dotnet *o)
{
    dump_series d = {.o = o};
    if (find_gcdump(d.tool, sizeof d.tool)) {
        cli_message("error", "'%s' is a .NET program: record takes its dumps with dotnet-gcdump, which is "
                             "not on PATH nor in ~/.dotnet/tools (dotnet tool install -g dotnet-gcdump)",
                    file);
        return EXIT_SYSTEM;
    }
    install_handlers(o->signo);
    if (!o->quiet && o->signo)
        cli_message("note", "dumps %s.N.gcdump on signal %d (kill -%d %ld)%s", o->prefix, o->signo, o->signo,
                    (long)getpid(), o->every_seconds ? " and on the interval" : "");
    pid_t pid = record_spawn(argv, file, &program_pid, NULL);
    if (pid < 0)
        return EXIT_SYSTEM;
    int rc = watch(&d, pid);
    if (d.removed && !o->quiet)
        cli_message("note", "%u dumps removed to keep within the budget; %zu kept", d.removed, d.kept_count);
    free(d.kept);
    return rc;
}
