/* record_dotnet.h - `leakfind record` for a .NET program: the program runs
 * as it is, and leakfind takes its dumps from outside with dotnet-gcdump. */
#ifndef LF_RECORD_DOTNET_H
#define LF_RECORD_DOTNET_H

#include <stdint.h>

typedef struct record_dotnet {
    const char *prefix;     /* dumps PREFIX.1.gcdump, PREFIX.2.gcdump... */
    int signo;              /* a dump each time it reaches leakfind (0: none) */
    long every_seconds;     /* and one every so many seconds (0: none) */
    long max_snapshots;     /* 0: no limit */
    uint64_t max_bytes;     /* 0: no limit */
    int quiet;
} record_dotnet;

/* Whether file is a .NET program: the `dotnet` host, or an apphost (an
 * executable beside its NAME.dll and NAME.runtimeconfig.json). */
int record_is_dotnet(const char *file);
/* Runs argv (file: its resolved path) and dumps it until it ends; returns
 * the program's exit status (128 + signal when a signal ended it), or an
 * EXIT_* code when it could not start. */
int record_dotnet_run(char **argv, const char *file, const record_dotnet *o);

#endif
