/* which_object.h - the usage error of a command that takes an object's id
 * (path, inspect) given a snapshot and no id: it says where ids come from,
 * with the snapshot's own name in commands to paste. */
#ifndef LF_WHICH_OBJECT_H
#define LF_WHICH_OBJECT_H

#include "cli.h"

/* "path needs an object's id after the snapshot`more`; these list ...",
 * then the commands `leakfind dominators SNAPSHOT` and `leakfind suspects
 * SNAPSHOT` on lines of their own (more: " (or --class NAME)", or "").
 * Returns EXIT_USAGE. */
int cli_which_object(cli_context *ctx, const char *snapshot, const char *more);

#endif
