/* json_scan.h - just enough JSON for V8 heap snapshots, read in place.
 *
 * A snapshot is one object whose big members are flat arrays of unsigned
 * integers (nodes, edges) and of strings; the scanner reads those straight
 * into the caller's arrays and skips everything else without building
 * anything. Every error names the byte offset. Nothing here recurses:
 * skipping a nested value keeps its brackets on a heap-allocated stack. */
#ifndef LF_JSON_SCAN_H
#define LF_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../base/error.h"

typedef struct lf_json {
    const uint8_t *data;
    uint64_t pos, end;
    lf_error *err;
} lf_json;

static inline void lf_json_ws(lf_json *j)
{
    while (j->pos < j->end) {
        uint8_t c = j->data[j->pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return;
        j->pos++;
    }
}

/* The next non-blank byte, or -1 at the end. */
static inline int lf_json_peek(lf_json *j)
{
    lf_json_ws(j);
    return j->pos < j->end ? j->data[j->pos] : -1;
}

/* Consumes byte c after blanks, or fails naming `what`. */
int lf_json_expect(lf_json *j, char c, const char *what);
/* Reads a string into buf (UTF-8, escapes decoded, surrogate pairs joined;
 * a lone surrogate becomes U+FFFD). *len gets its length; *buf grows as
 * needed (capacity *cap). */
int lf_json_string(lf_json *j, char **buf, size_t *cap, size_t *len);
/* The same, without a copy when the string has no escapes: *s then points
 * into the JSON itself, else at *buf, decoded as lf_json_string does. */
int lf_json_string_ref(lf_json *j, const char **s, size_t *len, char **buf, size_t *cap);
/* Reads a non-negative integer below 2^64. */
int lf_json_uint(lf_json *j, uint64_t *v);
/* Skips one value of any kind. */
int lf_json_skip(lf_json *j);
/* After an element of an array or a member of an object: consumes ',' and
 * returns 1, or consumes `close` and returns 0; -1 on anything else. */
int lf_json_next(lf_json *j, char close, const char *what);
/* Whether a key read as (key, len) is the text `want`. */
static inline int lf_json_key_is(const char *key, size_t len, const char *want)
{
    return len == strlen(want) && memcmp(key, want, len) == 0;
}

#endif
