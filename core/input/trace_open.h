/* trace_open.h - opens an allocation trace (.nettrace, plain or gzip'd): the
 * other kind of input `leakfind sites` takes beside a dump (docs/DOTNET.md). */
#ifndef LF_TRACE_OPEN_H
#define LF_TRACE_OPEN_H

#include "../nettrace/nettrace.h"

/* 1 when the file is a .nettrace, read into *out; 0 when it is not (nothing
 * read, the caller opens it as a dump); -1 on error (err). A pipe is not
 * looked at (0): a trace is read from a file. */
int lf_trace_open(const char *path, lf_nettrace *out, lf_error *err);

#endif
