/* utf8.h - one code point as UTF-8, and UTF-16 surrogates joined, for every
 * reader that decodes escapes or UTF-16 (V8's \uXXXX, .nettrace's names, a
 * .gcdump's strings, Java's char[] and UTF-16 byte[] texts): one rule for
 * all of them, so a text reads the same whichever dump it came from. */
#ifndef LF_UTF8_H
#define LF_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Writes cp (at most U+10FFFF; surrogates joined or replaced by the caller)
 * at o, 1 to 4 bytes; returns how many. Inline: the V8 scanner calls it per
 * escaped character. */
static inline size_t lf_utf8_put(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The code point of UTF-16 unit `unit` given the unit after it (`next`, or
 * a negative value when there is none): a high surrogate and a low one
 * after it are one code point (*took_next = 1: skip next); any other
 * surrogate stands alone, and is U+FFFD, so the output stays valid UTF-8. */
static inline uint32_t lf_utf16_code_point(uint32_t unit, int64_t next, int *took_next)
{
    *took_next = 0;
    if (unit < 0xd800 || unit >= 0xe000)
        return unit;
    if (unit < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
        *took_next = 1;
        return 0x10000 + ((unit - 0xd800) << 10) + ((uint32_t)next - 0xdc00);
    }
    return 0xfffd;
}

#endif
