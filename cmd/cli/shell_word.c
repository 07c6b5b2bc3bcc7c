/* shell_word.c - see shell_word.h. */
#include "shell_word.h"

#include <stdio.h>
#include <string.h>

void cli_shell_word(char *buf, size_t size, const char *word)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+,:@%=";
    if (size < 8) { /* no room for a quoted word */
        if (size)
            buf[0] = '\0';
        return;
    }
    if (*word && strspn(word, safe) == strlen(word)) {
        snprintf(buf, size, "%s", word);
        return;
    }
    size_t o = 0;
    buf[o++] = '\'';
    for (const char *p = word; *p && o + 6 < size; p++) {
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
