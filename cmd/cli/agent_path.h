/* agent_path.h - where leakfind's agents and the programs it runs are: beside the binary (the build
 * tree: build/leakfind-agent-ocaml4.so, build/dotnet/leakfind-dotnet.dll)
 * or in PREFIX/lib/leakfind once installed. */
#ifndef LF_CLI_AGENT_PATH_H
#define LF_CLI_AGENT_PATH_H

#include <stddef.h>

/* The path of agent_name (relative: "dotnet/leakfind-dotnet.dll") into
 * out. 0 when found (readable), -1 when not. */
int cli_find_agent(const char *agent_name, char *out, size_t len);

/* The program name on PATH, else in $HOME/home_dir (NULL: nowhere else):
 * dotnet-gcdump in .dotnet/tools, where `dotnet tool install -g` puts it.
 * 0 when found (executable), -1 when not. */
int cli_find_program(const char *name, const char *home_dir, char *out, size_t len);

#endif
