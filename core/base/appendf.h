/* appendf.h - printf onto the end of a fixed buffer, for one-line messages
 * built piece by piece: the text is cut, never overrun, when it runs out
 * of room. */
#ifndef LF_APPENDF_H
#define LF_APPENDF_H

#include <stddef.h>

/* Formats at buf + *at (size bytes in all, *at < size), always terminated,
 * and moves *at to the end of the text (size - 1 once it is full). */
__attribute__((format(printf, 4, 5))) void lf_appendf(char *buf, size_t size, size_t *at, const char *fmt, ...);

/* Whether there is room for more than the terminator. */
static inline int lf_append_room(size_t size, size_t at)
{
    return at + 1 < size;
}

#endif
