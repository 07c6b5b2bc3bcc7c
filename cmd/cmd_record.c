/* cmd_record.c - `leakfind record`: snapshots of an unmodified OCaml or .NET
 * program. A .NET program is dumped from outside (cmd/record/record_dotnet.c).
 *
 * An OCaml program runs with the OCaml agent of its runtime preloaded
 * (build/leakfind-agent-ocaml4.so or -ocaml5.so, or PREFIX/lib/leakfind/ once
 * installed). The agent binds to the runtime's symbols, so the program must
 * export them; that, and which runtime it is, is checked before it starts. The program's exit status
 * is passed through; signals sent to leakfind are passed on or kept
 * (record/record_watch.c), and the program never outlives leakfind. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/input/elf_probe.h"
#include "cli/agent_path.h"
#include "cli/cli.h"
#include "commands.h"
#include "record/record_dotnet.h"
#include "record/record_watch.h"

static const char record_usage[] =
    "usage: leakfind record [--every-major N] [--signal SIG] [--sample RATE] [--follow]\n"
    "                       [-o PREFIX] [--max-snapshots N] [--max-bytes SIZE] -- PROGRAM [ARGS...]\n"
    "       leakfind record [--every SECONDS] [--signal SIG] [-o PREFIX]\n"
    "                       [--max-snapshots N] [--max-bytes SIZE] -- dotnet APP.dll [ARGS...]\n"
    "\n"
    "Runs an OCaml native program (4.13/4.14 or 5.3) with leakfind's agent preloaded and\n"
    "writes heap snapshots PREFIX.1.lfs, PREFIX.2.lfs, ... The program needs no\n"
    "agent code, but must export the runtime's symbols: link it with\n"
    "'-ccopt -Wl,-E' (or for natdynlink); otherwise link it with the Leakfind\n"
    "library (docs/OCAML.md). With --follow, the native OCaml programs that\n"
    "PROGRAM (a script, ocamlfind, any wrapper) runs are recorded too. A .NET\n"
    "program (dotnet APP.dll, or its apphost) runs as it is, and leakfind\n"
    "writes PREFIX.1.gcdump, ... with dotnet-gcdump (on PATH or in\n"
    "~/.dotnet/tools; docs/DOTNET.md). Exit status: the program's. TERM,\n"
    "HUP, INT, QUIT and the snapshot signal sent to leakfind are passed on to\n"
    "the program; USR1 and USR2 too when it handles them, else leakfind keeps\n"
    "them and says so. Killing leakfind kills the program.\n";

typedef struct record_state {
    long every;
    long every_seconds;
    int signo;
    double sample_rate; /* samples per word; 0: no sampling */
    const char *prefix;
    long max_snapshots;  /* 0: no limit */
    uint64_t max_bytes;  /* 0: no limit */
    int follow;          /* the native OCaml programs it runs, too */
} record_state;

static int signal_number(const char *s)
{
    if (strncmp(s, "SIG", 3) == 0)
        s += 3;
    if (strcmp(s, "USR1") == 0)
        return SIGUSR1;
    if (strcmp(s, "USR2") == 0)
        return SIGUSR2;
    char *end;
    long n = strtol(s, &end, 10);
    return (*s && !*end && n > 0 && n < NSIG && n != SIGKILL && n != SIGSTOP) ? (int)n : -1;
}

/* The program's file: as given when it names a path, else found on PATH. */
/* record's numbers are longs with limits and words of their own: read
 * here. 0 when arg is a number from min to max, in *out. */
static int long_in(const char *arg, long min, long max, long *out)
{
    char *end;
    *out = strtol(arg, &end, 10);
    return !*arg || *end || *out < min || *out > max ? -1 : 0;
}

static int on_every_major(cli_context *ctx, void *field, const char *arg)
{
    if (long_in(arg, 1, 1000000, field))
        return cli_usage_error(ctx, "--every-major takes a number from 1 to 1000000");
    return 0;
}

static int on_every(cli_context *ctx, void *field, const char *arg)
{
    if (long_in(arg, 1, 86400, field))
        return cli_usage_error(ctx, "--every takes a number of seconds from 1 to 86400, not '%s'", arg);
    return 0;
}

static int on_signal(cli_context *ctx, void *field, const char *arg)
{
    int *signo = field;
    *signo = signal_number(arg);
    if (*signo < 0)
        return cli_usage_error(ctx, "--signal takes USR1, USR2 or a signal number, not '%s'", arg);
    return 0;
}

static int on_sample(cli_context *ctx, void *field, const char *arg)
{
    char *end;
    double *rate = field;
    *rate = strtod(arg, &end);
    if (!*arg || *end || !(*rate > 0 && *rate <= 1))
        return cli_usage_error(ctx, "--sample takes a rate in samples per word, "
                                    "above 0 and at most 1 (e.g. 1e-4), not '%s'", arg);
    return 0;
}

static int on_max_snapshots(cli_context *ctx, void *field, const char *arg)
{
    if (long_in(arg, 2, 1000000, field))
        return cli_usage_error(ctx, "--max-snapshots takes a number from 2 to 1000000 "
                                    "(the first and the latest are kept), not '%s'", arg);
    return 0;
}

static const cli_option record_options[] = {
    {"every-major", 0, "N", CLI_CUSTOM, CLI_AT(record_state, every), .custom = on_every_major,
     .help = "a snapshot at the end of every Nth major GC cycle (OCaml)"},
    {"every", 0, "SECONDS", CLI_CUSTOM, CLI_AT(record_state, every_seconds), .custom = on_every,
     .help = "a dump every SECONDS seconds (.NET)"},
    {"signal", 0, "SIG", CLI_CUSTOM, CLI_AT(record_state, signo), .custom = on_signal,
     .help = "a snapshot each time SIG reaches the program or leakfind\n"
             "(USR1, USR2 or a number; default USR1 when no\n"
             "--every-major or --every is given; .NET: leakfind only,\n"
             "the program never sees it)"},
    {"sample", 0, "RATE", CLI_CUSTOM, CLI_AT(record_state, sample_rate), .custom = on_sample,
     .help = "(OCaml) sample allocations with Gc.Memprof from the\n"
             "start, RATE samples per word (e.g. 1e-4): the snapshots then give\n"
             "the allocation sites of the sampled blocks still alive\n"
             "(leakfind sites); file and line need a program built\n"
             "with -g"},
    {"follow", 0, NULL, CLI_FLAG, CLI_AT(record_state, follow),
     .help = "(OCaml) record every native OCaml program PROGRAM runs,\n"
             "and theirs: PREFIX.NAME-PID.N.lfs each (PROGRAM may be a\n"
             "script or any wrapper)"},
    {"output", 'o', "PREFIX", CLI_STRING, CLI_AT(record_state, prefix),
     .help = "snapshot names (default: the program's name)"},
    {"max-snapshots", 0, "N", CLI_CUSTOM, CLI_AT(record_state, max_snapshots),
     .custom = on_max_snapshots, .help = "keep at most N snapshots (2 or more)"},
    {"max-bytes", 0, "SIZE", CLI_SIZE, CLI_AT(record_state, max_bytes), .min = 1,
     .what = "a size (512M, 8G)",
     .help = "keep at most SIZE of snapshots on disk (512M, 8G); past\n"
             "either limit, each new snapshot removes the oldest but\n"
             "the first (the first and the latest stay), said on\n"
             "stderr"},
    {0},
};

static const cli_spec record_spec = {record_usage, record_options, 21, NULL};

static int find_program(const char *name, char *out, size_t len)
{
    if (strchr(name, '/'))
        return snprintf(out, len, "%s", name) < (int)len && access(out, X_OK) == 0 ? 0 : -1;
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (snprintf(out, len, "%.*s/%s", (int)n, n ? p : ".", name) < (int)len &&
            access(out, X_OK) == 0)
            return 0;
        p += n + (colon ? 1 : 0);
    }
    return -1;
}

/* The runtime a program links, told by symbols only one family has. */
enum { RUNTIME_UNKNOWN, RUNTIME_OCAML4, RUNTIME_OCAML51, RUNTIME_OCAML52, RUNTIME_OCAML53 };

/* The OCaml 5 release a program links, by the first runtime function each
 * added: 5.1 Sys.is_regular_file's primitive, 5.2 caml_ext_table_add_noexc,
 * 5.3 the caml_result API (caml_callback_res). A release after 5.3 reads as
 * 5.3 (docs/OCAML.md, Versions). */
static const char *ocaml5_release_refused(unsigned linked, int *runtime)
{
    if (linked & 64)
        *runtime = RUNTIME_OCAML53;
    else if (linked & 128)
        *runtime = RUNTIME_OCAML52;
    else if (linked & 256)
        *runtime = RUNTIME_OCAML51;
    else
        return "an OCaml 5.0 program: the agent reads the runtimes of OCaml 5.1, 5.2 and 5.3 "
               "(docs/OCAML.md)";
    return NULL;
}

/* Sets *why to why the agent cannot run in this program (NULL: it can, and
 * *runtime is set); returns an exit code when the file cannot be read. */
static int check_program(const char *file, int *runtime, const char **why_not)
{
    /* 1 every native program; 2 and 8 OCaml 4; 16 and 32 OCaml 5; 64, 128
     * and 256 tell OCaml 5's releases apart (ocaml5_release_refused) */
    static const char *const names[] = {
        "caml_start_program",       "Caml_state",        "caml_globals",
        "caml_do_local_roots_nat",  "caml_try_run_on_all_domains",
        "caml_state",               "caml_callback_res", "caml_ext_table_add_noexc",
        "caml_sys_is_regular_file"};
    lf_elf_probe probe;
    lf_error err;
    if (lf_elf_probe_symbols(file, names, 9, &probe, &err))
        return cli_input_error(file, &err);
    unsigned linked = probe.dynamic_mask | probe.static_mask;
    int ocaml5 = !(linked & 8) && (linked & 16);
    *runtime = linked & 8 ? RUNTIME_OCAML4 : RUNTIME_UNKNOWN;
    unsigned exported = ocaml5 ? 1 | 4 | 16 | 32 : 1 | 2 | 4;
    const char *why = NULL;
    if (probe.kind == LF_ELF_TRUNCATED)
        why = "a cut-off ELF file (its section headers lie past its end)";
    else if (probe.kind != LF_ELF_EXECUTABLE)
        why = probe.shebang ? "a script or an OCaml bytecode program, not native code: "
                              "compile it with ocamlopt"
                            : "not an ELF64 executable";
    else if (!(linked & 1))
        why = "not an OCaml native program (no caml_start_program)";
    else if (ocaml5)
        why = ocaml5_release_refused(linked, runtime);
    else if (*runtime == RUNTIME_UNKNOWN)
        why = "an OCaml runtime the agent does not know (neither 4.13/4.14 nor 5.x)";
    if (!why && (probe.dynamic_mask & exported) != exported)
        why = "an OCaml program that does not export its runtime's symbols: relink it with "
              "'-ccopt -Wl,-E', or link it with the Leakfind library and call "
              "Leakfind.dump (docs/OCAML.md)";
    *why_not = why;
    return 0;
}

/* The agent built for that runtime, or says how to build it. */
static int find_runtime_agent(const char *file, int runtime, char *agent, size_t len)
{
    static const struct {
        const char *release, *agent, *how;
    } agents[] = {
        [RUNTIME_OCAML4] = {"4", "leakfind-agent-ocaml4.so", "needs ocamlfind"},
        [RUNTIME_OCAML51] = {"5.1", "leakfind-agent-ocaml51.so",
                             "with OCaml 5.1 at OCAML51_PREFIX; docs/OCAML.md"},
        [RUNTIME_OCAML52] = {"5.2", "leakfind-agent-ocaml52.so",
                             "with OCaml 5.2 at OCAML52_PREFIX; docs/OCAML.md"},
        [RUNTIME_OCAML53] = {"5.3", "leakfind-agent-ocaml5.so",
                             "with OCaml 5.3 at OCAML5_PREFIX; docs/OCAML.md"},
    };
    if (!cli_find_agent(agents[runtime].agent, agent, len))
        return 0;
    cli_message("error", "'%s' is OCaml %s, and the agent for it (%s) is not installed next to "
                         "leakfind or in PREFIX/lib/leakfind: build it with 'make' (%s)",
                file, agents[runtime].release, agents[runtime].agent, agents[runtime].how);
    return EXIT_SYSTEM;
}

/* LD_PRELOAD with lib first. */
static int preload_first(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen(lib) + (old ? strlen(old) + 1 : 0) + 1;
    char *preload = malloc(len);
    if (!preload)
        return -1;
    snprintf(preload, len, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "");
    int rc = setenv("LD_PRELOAD", preload, 1);
    free(preload);
    return rc;
}

/* What the agent is asked to do, in each process it records. */
static int set_triggers(const record_state *r)
{
    char num[32];
    snprintf(num, sizeof num, "%ld", r->every);
    if (r->every && setenv("LEAKFIND_RECORD_EVERY_MAJOR", num, 1))
        return -1;
    snprintf(num, sizeof num, "%.17g", r->sample_rate);
    if (r->sample_rate > 0 && setenv("LEAKFIND_RECORD_SAMPLE", num, 1))
        return -1;
    snprintf(num, sizeof num, "%ld", r->max_snapshots);
    if (r->max_snapshots && setenv("LEAKFIND_RECORD_MAX_SNAPSHOTS", num, 1))
        return -1;
    snprintf(num, sizeof num, "%llu", (unsigned long long)r->max_bytes);
    if (r->max_bytes && setenv("LEAKFIND_RECORD_MAX_BYTES", num, 1))
        return -1;
    snprintf(num, sizeof num, "%d", r->signo);
    return r->signo ? setenv("LEAKFIND_RECORD_SIGNAL", num, 1) : 0;
}

static int set_agent_environment(const char *agent, const record_state *r, const char *prefix)
{
    const char *old = getenv("LD_PRELOAD");
    if (setenv("LEAKFIND_RECORD_SAVED_PRELOAD", old ? old : "", 1) ||
        setenv("LEAKFIND_RECORD_PREFIX", prefix, 1) || preload_first(agent))
        return -1;
    return set_triggers(r);
}

/* --follow: the follower preloaded (agents/follow/follow.c), which starts
 * each native OCaml process again with the agent of its runtime, and the
 * agents built. 0, -1 out of memory, or an exit code after saying why. */
static int set_follow_environment(const record_state *r, const char *prefix, int quiet)
{
    static const char *const agents[][2] = {{"LEAKFIND_FOLLOW_AGENT4", "leakfind-agent-ocaml4.so"},
                                            {"LEAKFIND_FOLLOW_AGENT51", "leakfind-agent-ocaml51.so"},
                                            {"LEAKFIND_FOLLOW_AGENT52", "leakfind-agent-ocaml52.so"},
                                            {"LEAKFIND_FOLLOW_AGENT53", "leakfind-agent-ocaml5.so"}};
    char path[PATH_MAX], num[32];
    if (cli_find_agent("leakfind-follow.so", path, sizeof path)) {
        cli_message("error", "--follow: leakfind-follow.so is not installed next to leakfind or in "
                             "PREFIX/lib/leakfind: build it with 'make'");
        return EXIT_SYSTEM;
    }
    if (preload_first(path) || setenv("LEAKFIND_FOLLOW_PREFIX", prefix, 1))
        return -1;
    for (size_t i = 0; i < sizeof agents / sizeof *agents; i++)
        if (!cli_find_agent(agents[i][1], path, sizeof path) && setenv(agents[i][0], path, 1))
            return -1;
    snprintf(num, sizeof num, "%ld", (long)getpid());
    if (setenv("LEAKFIND_FOLLOW_RECORD_PID", num, 1) ||
        (quiet && setenv("LEAKFIND_FOLLOW_QUIET", "1", 1)))
        return -1;
    return set_triggers(r);
}

/* The dump prefix of `dotnet app.dll`: "app"; of an apphost: its name. */
static void dotnet_prefix(char **argv, char *out, size_t len)
{
    char copy[PATH_MAX];
    for (char **a = argv + 1; *a; a++) {
        size_t n = strlen(*a);
        if (n > 4 && strcmp(*a + n - 4, ".dll") == 0) {
            snprintf(copy, sizeof copy, "%.*s", (int)(n - 4), *a);
            snprintf(out, len, "%s", basename(copy));
            return;
        }
    }
    snprintf(copy, sizeof copy, "%s", argv[0]);
    snprintf(out, len, "%s", basename(copy));
}

static int record_dotnet_program(cli_context *ctx, const record_state *r, char **argv, const char *file)
{
    if (r->every || r->sample_rate > 0)
        return cli_usage_error(ctx, "'%s' is a .NET program: --every-major and --sample are for OCaml "
                               "programs (a .NET program takes --every SECONDS)", argv[0]);
    char prefix[PATH_MAX];
    dotnet_prefix(argv, prefix, sizeof prefix);
    record_dotnet o = {r->prefix ? r->prefix : prefix, r->signo, r->every_seconds, r->max_snapshots,
                       r->max_bytes, ctx->quiet};
    if (!o.signo && !o.every_seconds)
        o.signo = SIGUSR1;
    return record_dotnet_run(argv, file, &o);
}

int cmd_record(int argc, char **argv)
{
    cli_context ctx = {.command = "record"};
    record_state r = {0, 0, 0, 0, NULL, 0, 0, 0};
    int dashes = 1;
    while (dashes < argc && strcmp(argv[dashes], "--") != 0)
        dashes++;
    char **pos;
    int npos;
    int rc = cli_parse(&ctx, dashes, argv, &record_spec, &r, &pos, &npos);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    free(pos);
    if (npos)
        return cli_usage_error(&ctx, "the program comes after '--': leakfind record [options] -- PROGRAM");
    if (dashes + 1 >= argc)
        return cli_usage_error(&ctx, "no program to run (leakfind record [options] -- PROGRAM [ARGS...])");
    char file[PATH_MAX], agent[PATH_MAX];
    if (find_program(argv[dashes + 1], file, sizeof file)) {
        cli_message("error", "'%s': no such program (or not executable)", argv[dashes + 1]);
        return EXIT_USAGE;
    }
    if (record_is_dotnet(file))
        return record_dotnet_program(&ctx, &r, argv + dashes + 1, file);
    if (r.every_seconds)
        return cli_usage_error(&ctx, "--every is for .NET programs; an OCaml program takes --every-major");
    int runtime = RUNTIME_UNKNOWN;
    const char *why = NULL;
    if ((rc = check_program(file, &runtime, &why)))
        return rc;
    if (why && !r.follow) { /* a wrapper may run one: say how to record that */
        int wrapper = strncmp(why, "a script", 8) == 0 || strncmp(why, "not an OCaml native", 19) == 0;
        cli_message("error", "'%s': %s%s", file, why,
                    wrapper ? "; if it runs a native OCaml program, --follow records that" : "");
        return EXIT_INPUT;
    }
    /* 5.2's Gc.Memprof.start fails as 5.1's does (docs/OCAML.md, Versions) */
    if (!why && (runtime == RUNTIME_OCAML51 || runtime == RUNTIME_OCAML52) && r.sample_rate > 0)
        return cli_usage_error(&ctx, "--sample needs Gc.Memprof, which OCaml 5.1 and 5.2 do not "
                                     "have (OCaml 4.14 and 5.3 do): '%s' is OCaml %s",
                               file, runtime == RUNTIME_OCAML51 ? "5.1" : "5.2");
    if (!why && !r.follow && (rc = find_runtime_agent(file, runtime, agent, sizeof agent)))
        return rc;
    if (!r.every && !r.signo)
        r.signo = SIGUSR1;
    char *base = strdup(argv[dashes + 1]);
    const char *prefix = r.prefix ? r.prefix : (base ? basename(base) : "leakfind");
    rc = r.follow ? set_follow_environment(&r, prefix, ctx.quiet) : set_agent_environment(agent, &r, prefix);
    if (rc) {
        free(base);
        if (rc < 0)
            cli_message("error", "out of memory");
        return rc < 0 ? EXIT_SYSTEM : rc;
    }
    if (why && !ctx.quiet) /* why up to its advice, which is for a program recorded itself */
        cli_message("note", "--follow: '%s' itself is not recorded (%.*s); the native OCaml programs "
                            "it runs are", file, (int)strcspn(why, ":"), why);
    if (r.signo && !ctx.quiet && r.follow)
        cli_message("note", "snapshots on signal %d (kill -%d %ld) of every process recorded: %s.N.lfs "
                            "of the program, %s.NAME-PID.N.lfs of those it runs", r.signo, r.signo,
                    (long)getpid(), prefix, prefix);
    else if (r.signo && !ctx.quiet)
        cli_message("note", "snapshots %s.N.lfs on signal %d (kill -%d %ld)", prefix, r.signo,
                    r.signo, (long)getpid());
    record_watch w = {argv[dashes + 1], prefix, r.signo, r.every, r.follow, ctx.quiet};
    rc = record_watch_run(argv + dashes + 1, file, &w);
    free(base);
    return rc < 0 ? EXIT_SYSTEM : rc;
}
