/* which_object.c - see which_object.h. */
#include "which_object.h"

#include <stdio.h>
#include <string.h>

/* path as one shell word: as it is when only safe characters make it up,
 * else in single quotes ('\'' for a quote). Cut to size. */
static void shell_word(char *buf, size_t size, const char *path)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+,:@%=";
    if (*path && strspn(path, safe) == strlen(path)) {
        snprintf(buf, size, "%s", path);
        return;
    }
    size_t o = 0;
    buf[o++] = '\'';
    for (const char *p = path; *p && o + 6 < size; p++) {
        if (*p == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = *p;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
}

int cli_which_object(cli_context *ctx, const char *snapshot, const char *more)
{
    char word[1100];
    shell_word(word, sizeof word, snapshot);
    return cli_usage_error(ctx,
                           "%s needs an object's id after the snapshot%s; these list the objects "
                           "that retain most and the leak suspects, with their ids:\n"
                           "    leakfind dominators %s\n"
                           "    leakfind suspects %s",
                           ctx->command, more, word, word);
}
