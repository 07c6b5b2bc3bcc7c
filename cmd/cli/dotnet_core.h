/* dotnet_core.h - a .NET core dump (dotnet-dump collect, createdump) as
 * input to any command: the .NET agent (agents/dotnet, run by `dotnet`)
 * reads it with ClrMD and writes an .lfs to a temporary file, which is then
 * opened as any .lfs (docs/DOTNET.md, "Full dumps"). The library runs no
 * program (core/input only recognises the core); this does. */
#ifndef LF_CLI_DOTNET_CORE_H
#define LF_CLI_DOTNET_CORE_H

#include "cli.h"

/* Whether the regular file open on fd is a .NET core. */
int cli_is_dotnet_core(int fd);
/* Converts the .NET core at path (open on fd) and opens the result into s. Returns 0,
 * or an exit code with its message said: EXIT_SYSTEM when dotnet or the
 * agent is missing (the message says what to install), EXIT_INPUT when the
 * core is cut short (its segments end past the file) or the agent cannot
 * read it. */
int cli_open_dotnet_core(const cli_context *ctx, const char *path, int fd, lf_snapshot *s);

#endif
