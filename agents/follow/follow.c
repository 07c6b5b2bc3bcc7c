/* follow.c - `leakfind record --follow`: preloaded into the program and
 * every process it starts, this finds those that are native OCaml programs
 * of a runtime leakfind has an agent for, and starts each again at once,
 * before any of its code has run, with that agent preloaded.
 *
 * It links nothing but libc and touches nothing in the process it leaves
 * alone (a shell, gcc, as, a bytecode program): a process that does not
 * export an OCaml runtime's symbols only passes it on to its children, in
 * LD_PRELOAD. The agent, once in, puts it back there for the children of
 * the process it records (agents/ocaml/preload.c).
 *
 * Settings, from record: LEAKFIND_FOLLOW_PREFIX (the snapshots' prefix),
 * LEAKFIND_FOLLOW_RECORD_PID (record's pid: its child is the program, whose
 * snapshots are PREFIX.N.lfs; any other's are PREFIX.NAME-PID.N.lfs),
 * LEAKFIND_FOLLOW_AGENT4, _AGENT51, _AGENT52, _AGENT53 (the agents built),
 * LEAKFIND_FOLLOW_QUIET; and the agent's own LEAKFIND_RECORD_* triggers,
 * which stay in the environment. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NOT_OCAML, OCAML4, OCAML51, OCAML52, OCAML53, OCAML5_OTHER, OCAML_UNEXPORTED };

static int has(const char *symbol)
{
    return dlsym(RTLD_DEFAULT, symbol) != NULL;
}

/* Which runtime this process links, by the symbols `leakfind record` looks
 * for in a program's file (cmd/cmd_record.c, check_program); found only
 * when the program exports them, as the agent needs. */
static int runtime_here(void)
{
    if (!has("caml_start_program"))
        return NOT_OCAML;
    if (!has("caml_globals"))
        return OCAML_UNEXPORTED;
    if (has("caml_do_local_roots_nat") && has("Caml_state"))
        return OCAML4;
    if (!has("caml_try_run_on_all_domains") || !has("caml_state"))
        return OCAML_UNEXPORTED;
    if (has("caml_callback_res"))
        return OCAML53;
    if (has("caml_ext_table_add_noexc"))
        return OCAML52;
    return has("caml_sys_is_regular_file") ? OCAML51 : OCAML5_OTHER;
}

static void say(const char *fmt, const char *a, long pid, const char *b)
{
    if (!getenv("LEAKFIND_FOLLOW_QUIET"))
        fprintf(stderr, fmt, a, pid, b);
}

/* glibc gives an initialiser the program's argv and environment. */
__attribute__((constructor)) static void follow(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)envp;
    const char *prefix = getenv("LEAKFIND_FOLLOW_PREFIX");
    if (!prefix || getenv("LEAKFIND_RECORD_PREFIX")) /* not followed, or the agent is on its way */
        return;
    int runtime = runtime_here();
    if (runtime == NOT_OCAML)
        return;
    const char *name = program_invocation_short_name;
    long pid = (long)getpid();
    static const char *const agents[] = {
        [OCAML4] = "LEAKFIND_FOLLOW_AGENT4", [OCAML51] = "LEAKFIND_FOLLOW_AGENT51",
        [OCAML52] = "LEAKFIND_FOLLOW_AGENT52", [OCAML53] = "LEAKFIND_FOLLOW_AGENT53"};
    const char *agent = runtime < OCAML5_OTHER && agents[runtime] ? getenv(agents[runtime]) : NULL;
    if (runtime == OCAML_UNEXPORTED || !agent || !*agent) {
        say("leakfind: note: not recorded: '%s' (pid %ld) is %s\n", name, pid,
            runtime == OCAML_UNEXPORTED ? "an OCaml program that does not export its runtime's symbols"
            : agent                     ? "OCaml of a release the agent does not read"
                                        : "OCaml of a runtime whose agent was not built");
        return;
    }
    const char *record = getenv("LEAKFIND_FOLLOW_RECORD_PID");
    int top = record && atol(record) == (long)getppid();
    const char *preload = getenv("LD_PRELOAD");
    size_t len = strlen(prefix) + strlen(name) + 32;
    char *own = malloc(len);
    if (!own || setenv("LEAKFIND_RECORD_SAVED_PRELOAD", preload ? preload : "", 1) ||
        setenv("LD_PRELOAD", agent, 1))
        goto fail;
    if (top)
        snprintf(own, len, "%s", prefix);
    else
        snprintf(own, len, "%s.%s-%ld", prefix, name, pid);
    if (setenv("LEAKFIND_RECORD_PREFIX", own, 1))
        goto fail;
    if ((runtime == OCAML51 || runtime == OCAML52) && getenv("LEAKFIND_RECORD_SAMPLE")) {
        say("leakfind: note: '%s' (pid %ld) is %s: recorded without --sample\n", name, pid,
            runtime == OCAML51 ? "OCaml 5.1, which has no Gc.Memprof" : "OCaml 5.2, whose Gc.Memprof does not run");
        unsetenv("LEAKFIND_RECORD_SAMPLE");
    }
    if (!top)
        say("leakfind: note: following '%s' (pid %ld), a native OCaml program: snapshots %s.N.lfs\n",
            name, pid, own);
    /* The same file, arguments and environment, the agent first: nothing
     * of the program has run yet. By its path, not /proc/self/exe, which
     * would name the process "exe" (ps, /proc/PID/comm). */
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        execve(self, argv, environ);
    }
    execve("/proc/self/exe", argv, environ);
fail:
    say("leakfind: note: not recorded: '%s' (pid %ld): %s\n", name, pid, strerror(errno));
    if (preload)
        setenv("LD_PRELOAD", preload, 1);
    else
        unsetenv("LD_PRELOAD");
    unsetenv("LEAKFIND_RECORD_PREFIX");
    unsetenv("LEAKFIND_RECORD_SAVED_PRELOAD");
    free(own);
}
