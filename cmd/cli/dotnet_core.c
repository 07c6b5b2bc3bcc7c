/* dotnet_core.c - see dotnet_core.h. The agent's stderr comes back through
 * a pipe, so that its one line becomes leakfind's message; the temporary
 * .lfs is unlinked as soon as it is open (the snapshot keeps it mapped). */
#include "dotnet_core.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../core/input/elf_core.h"
#include "../../core/lfs/lfs.h"
#include "agent_path.h"

#define AGENT_DLL "dotnet/leakfind-dotnet.dll"

int cli_is_dotnet_core(int fd)
{
    return lf_elf_core_runtime_fd(fd) == LF_CORE_DOTNET;
}

/* The `dotnet` host: on PATH, in $DOTNET_ROOT, or in ~/.dotnet. */
static int find_dotnet(char *out, size_t len)
{
    if (cli_find_program("dotnet", ".dotnet", out, len) == 0)
        return 0;
    const char *root = getenv("DOTNET_ROOT");
    return root && snprintf(out, len, "%s/dotnet", root) < (int)len && access(out, X_OK) == 0 ? 0 : -1;
}

/* A new empty file for the agent to write, in $TMPDIR. */
static int make_temp(char *out, size_t len)
{
    const char *dir = getenv("TMPDIR");
    if (snprintf(out, len, "%s/leakfind-dotnet-XXXXXX", dir && *dir ? dir : "/tmp") >= (int)len)
        return -1;
    int fd = mkstemp(out);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* Runs `dotnet AGENT CORE OUT`; its stderr into why (one line kept).
 * Returns its exit status, 128 + a signal, or -1 when it could not start. */
static int run_agent(const char *dotnet, const char *agent, const char *core, const char *out,
                     char *why, size_t why_len)
{
    int pipe_fd[2];
    why[0] = 0;
    if (pipe(pipe_fd) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(pipe_fd[0]), close(pipe_fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(pipe_fd[1], STDERR_FILENO);
        close(pipe_fd[0]), close(pipe_fd[1]);
        execl(dotnet, "dotnet", agent, core, out, (char *)NULL);
        _exit(127);
    }
    close(pipe_fd[1]);
    size_t got = 0;
    for (;;) {
        char buf[512];
        ssize_t n = read(pipe_fd[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t keep = (size_t)n < why_len - 1 - got ? (size_t)n : why_len - 1 - got;
        memcpy(why + got, buf, keep);
        got += keep;
    }
    close(pipe_fd[0]);
    why[got] = 0;
    char *nl = strchr(why, '\n');
    if (nl)
        *nl = 0;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The agent's own message without its "leakfind-dotnet: PATH: " prefix. */
static const char *agent_reason(const char *why, const char *core)
{
    size_t n = strlen("leakfind-dotnet: ");
    if (strncmp(why, "leakfind-dotnet: ", n) == 0 && strncmp(why + n, core, strlen(core)) == 0 &&
        strncmp(why + n + strlen(core), ": ", 2) == 0)
        return why + n + strlen(core) + 2;
    return why[0] ? why : "no reason given";
}

/* A core cut short (a full disk, a copy interrupted): said with the offset
 * where it ends, before ClrMD gives a reason of its own. 0 when whole. */
static int cut_short(const char *path, int fd)
{
    struct stat st;
    uint64_t end = lf_elf_core_extent_fd(fd);
    if (fstat(fd, &st) || end <= (uint64_t)st.st_size)
        return 0;
    lf_error err;
    lf_fail_at(&err, (uint64_t)st.st_size, "truncated",
               "a .NET core cut short: its segments end at byte %" PRIu64 ", the file has %" PRIu64,
               end, (uint64_t)st.st_size);
    return cli_input_error(path, &err);
}

int cli_open_dotnet_core(const cli_context *ctx, const char *path, int fd, lf_snapshot *s)
{
    char dotnet[PATH_MAX], agent[PATH_MAX], temp[PATH_MAX], why[1024];
    int rc = cut_short(path, fd);
    if (rc)
        return rc;
    if (find_dotnet(dotnet, sizeof dotnet)) {
        cli_message("error", "'%s': a .NET core dump, which leakfind reads through its .NET agent: "
                    "it needs the .NET 10 runtime ('dotnet' on PATH, in $DOTNET_ROOT or ~/.dotnet; "
                    "apt-get install dotnet-runtime-10.0, or https://dot.net/install)", path);
        return EXIT_SYSTEM;
    }
    if (cli_find_agent(AGENT_DLL, agent, sizeof agent)) {
        cli_message("error", "'%s': a .NET core dump, which leakfind reads through its .NET agent, "
                    "not found beside leakfind nor in PREFIX/lib/leakfind/dotnet: build it with 'make' "
                    "where the .NET 10 SDK is installed (apt-get install dotnet-sdk-10.0)", path);
        return EXIT_SYSTEM;
    }
    if (make_temp(temp, sizeof temp)) {
        cli_message("error", "'%s': cannot make a temporary file in $TMPDIR for the .NET agent: %s", path,
                    strerror(errno));
        return EXIT_SYSTEM;
    }
    cli_progress(ctx, "reading the .NET core with ClrMD");
    rc = run_agent(dotnet, agent, path, temp, why, sizeof why);
    cli_progress_done(ctx);
    if (rc != 0) {
        unlink(temp);
        if (rc == EXIT_INPUT) {
            cli_message("error", "'%s': the .NET agent cannot read this core: %s", path, agent_reason(why, path));
            return EXIT_INPUT;
        }
        if (rc < 0)
            cli_message("error", "'%s': cannot start the .NET agent: %s", path, strerror(errno));
        else
            cli_message("error", "'%s': the .NET agent (%s) failed (%s %d)%s%s", path, agent,
                        rc > 128 ? "signal" : "exit", rc > 128 ? rc - 128 : rc, why[0] ? ": " : "", why);
        return EXIT_SYSTEM;
    }
    lf_error err;
    int lfs = open(temp, O_RDONLY | O_CLOEXEC);
    rc = lfs >= 0 ? lf_lfs_open_fd_reporting(lfs, 0, NULL, s, &err) : lf_fail_errno(&err, "cannot open", errno);
    if (lfs >= 0)
        close(lfs);
    unlink(temp);
    return rc ? cli_input_error(path, &err) : 0;
}
