/* object_id.h - an object id given on the command line (inspect's ID,
 * path's TARGET, dominators --root): its node, or, for an id no object has,
 * the error with the ids nearest to it that the snapshot holds. A mistyped
 * id is a misspelt question (DESIGN 4): a usage error that says what the
 * user may have meant, never an empty answer. */
#ifndef LF_CLI_OBJECT_ID_H
#define LF_CLI_OBJECT_ID_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* " (did you mean 0x1f: java.util.ArrayList, retaining 136.8 KiB?)" into
 * buf: the ids within a small edit distance of arg, written as arg is
 * (0x1f, @123, 123), nearest first and then the one retaining most, at
 * most three; "" when none is near. Returns the length written. */
size_t cli_closest_ids(const lf_snapshot *s, const char *arg, char *buf, size_t size);

/* The node of the object whose id arg is, or an exit code after the
 * message: EXIT_USAGE for what is no id ("an ID is an object id ...",
 * what naming the argument: "an ID", "a TARGET") and for an id no object
 * has (with cli_closest_ids). prefix: put before the message ("'heap.hprof':
 * "), or "". */
int cli_find_object(cli_context *ctx, const lf_snapshot *s, const char *arg, const char *what, const char *prefix,
                    uint32_t *node);

#endif
