/* shell_word.h - a word written so that a shell reads it back as one: the
 * file names in the commands an error message offers to paste. */
#ifndef LF_SHELL_WORD_H
#define LF_SHELL_WORD_H

#include <stddef.h>

/* word as it is when only safe characters make it up, else in single
 * quotes ('\'' for a quote); cut to size. */
void cli_shell_word(char *buf, size_t size, const char *word);

#endif
