/* which_object.c - see which_object.h. */
#include "which_object.h"

#include "shell_word.h"

int cli_which_object(cli_context *ctx, const char *snapshot, const char *more)
{
    char word[1100];
    cli_shell_word(word, sizeof word, snapshot);
    return cli_usage_error(ctx,
                           "%s needs an object's id after the snapshot%s; these list the objects "
                           "that retain most and the leak suspects, with their ids:\n"
                           "    leakfind dominators %s\n"
                           "    leakfind suspects %s",
                           ctx->command, more, word, word);
}
