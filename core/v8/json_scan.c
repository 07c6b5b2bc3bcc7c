/* json_scan.c - see json_scan.h. */
#include "json_scan.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "../base/vec.h"
#include "../base/bigmem.h"
#include "../base/utf8.h"

static int fail(lf_json *j, const char *reason, const char *what)
{
    if (j->pos >= j->end) {
        lf_fail_at(j->err, j->end, "truncated JSON", "the file ends inside %s", what);
        j->err->truncated = 1;
        return -1;
    }
    return lf_fail_at(j->err, j->pos, reason, "in %s", what);
}

int lf_json_expect(lf_json *j, char c, const char *what)
{
    if (lf_json_peek(j) != (uint8_t)c) {
        char reason[32] = "expected '?'";
        reason[10] = c;
        return fail(j, reason, what);
    }
    j->pos++;
    return 0;
}

int lf_json_next(lf_json *j, char close, const char *what)
{
    int c = lf_json_peek(j);
    if (c == ',') {
        j->pos++;
        return 1;
    }
    if (c == (uint8_t)close) {
        j->pos++;
        return 0;
    }
    return fail(j, close == ']' ? "expected ',' or ']'" : "expected ',' or '}'", what);
}

int lf_json_uint(lf_json *j, uint64_t *v)
{
    lf_json_ws(j);
    uint64_t x = 0, start = j->pos;
    while (j->pos < j->end && j->data[j->pos] >= '0' && j->data[j->pos] <= '9') {
        unsigned d = j->data[j->pos] - '0';
        if (x > (UINT64_MAX - d) / 10)
            return fail(j, "number too large", "a number");
        x = x * 10 + d;
        j->pos++;
    }
    if (j->pos == start)
        return fail(j, "expected a non-negative integer", "a number");
    *v = x;
    return 0;
}

static int hex4(lf_json *j, unsigned *out)
{
    if (j->end - j->pos < 4)
        return fail(j, "bad \\u escape", "a string");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = j->data[j->pos + (uint64_t)i];
        unsigned d = c >= '0' && c <= '9' ? c - '0'
                   : c >= 'a' && c <= 'f' ? c - 'a' + 10
                   : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
        if (d == 16)
            return fail(j, "bad \\u escape", "a string");
        v = v << 4 | d;
    }
    j->pos += 4;
    *out = v;
    return 0;
}

/* The first quote or backslash at or after pos (end when none): 16 bytes
 * a step where SSE2 is (every x86-64), since V8 strings with escapes (HTML,
 * source text) are long runs between them, which a byte loop read at about
 * 300 MB/s. */
static uint64_t run_end(const uint8_t *d, uint64_t pos, uint64_t end)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (; pos + 16 <= end; pos += 16) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)(d + pos));
        unsigned hits = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)));
        if (hits)
            return pos + (unsigned)__builtin_ctz(hits);
    }
#endif
    while (pos < end && d[pos] != '"' && d[pos] != '\\')
        pos++;
    return pos;
}

int lf_json_string(lf_json *j, char **buf, size_t *cap, size_t *len)
{
    if (lf_json_expect(j, '"', "a string"))
        return -1;
    size_t n = 0;
    for (;;) {
        /* the plain run up to the next quote or backslash, copied at once */
        uint64_t run = run_end(j->data, j->pos, j->end);
        if (run == j->end) {
            j->pos = run;
            return fail(j, "unterminated string", "a string");
        }
        size_t m = (size_t)(run - j->pos);
        if (lf_vec_reserve((void **)buf, cap, n + m + 8, 1))
            return lf_fail_nomem(j->err, "reading strings");
        memcpy(*buf + n, j->data + j->pos, m);
        n += m;
        j->pos = run + 1;
        if (j->data[run] == '"')
            break;
        if (j->pos >= j->end)
            return fail(j, "unterminated string", "a string");
        uint8_t e = j->data[j->pos++];
        unsigned cp;
        switch (e) {
        case '"': cp = '"'; break;
        case '\\': cp = '\\'; break;
        case '/': cp = '/'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u': {
            if (hex4(j, &cp))
                return -1;
            int64_t next = -1;
            uint64_t back = j->pos;
            if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->pos >= 6 && j->data[j->pos] == '\\' &&
                j->data[j->pos + 1] == 'u') {
                unsigned low;
                j->pos += 2;
                if (hex4(j, &low))
                    return -1;
                next = low;
            }
            int took_next;
            cp = lf_utf16_code_point(cp, next, &took_next);
            if (!took_next)
                j->pos = back; /* not a pair: the next escape stands alone */
            break;
        }
        default:
            j->pos--;
            return fail(j, "bad escape", "a string");
        }
        n += lf_utf8_put(*buf + n, cp);
    }
    *len = n;
    return 0;
}

int lf_json_string_ref(lf_json *j, const char **s, size_t *len, char **buf, size_t *cap)
{
    if (lf_json_peek(j) == '"') {
        /* the closing quote, then whether a backslash comes before it: two
         * scans at the C library's vector speed instead of a byte loop */
        const uint8_t *open = j->data + j->pos + 1;
        const uint8_t *quote = memchr(open, '"', (size_t)(j->end - j->pos - 1));
        if (quote && !memchr(open, '\\', (size_t)(quote - open))) {
            *s = (const char *)open;
            *len = (size_t)(quote - open);
            j->pos = (uint64_t)(quote - j->data) + 1;
            return 0;
        }
    }
    if (lf_json_string(j, buf, cap, len))
        return -1;
    *s = *buf;
    return 0;
}

/* A member's key and its colon. */
static int skip_key(lf_json *j)
{
    if (lf_json_expect(j, '"', "an object key"))
        return -1;
    while (j->pos < j->end && j->data[j->pos] != '"')
        j->pos += j->data[j->pos] == '\\' ? 2 : 1;
    if (j->pos >= j->end)
        return fail(j, "unterminated string", "an object key");
    j->pos++;
    return lf_json_expect(j, ':', "an object");
}

/* A flat array of numbers (V8's locations, samples): past its ']' at once.
 * Returns 0 when the array at j->pos is not one (j is left as it was). */
static int skip_number_array(lf_json *j)
{
    const uint8_t *close = memchr(j->data + j->pos, ']', j->end - j->pos);
    if (!close)
        return 0;
    const uint8_t *q = j->data + j->pos + 1;
    while (q < close && ((unsigned)(*q - '0') < 10 || *q == ',' || *q == ' ' || *q == '\n' ||
                         *q == '-' || *q == '\r' || *q == '\t' || *q == '.'))
        q++;
    if (q != close)
        return 0;
    j->pos = (uint64_t)(close - j->data) + 1;
    return 1;
}

/* '{' or '[': its closer goes on the stack. Returns 1 when it closes at once
 * (a value done), 0 when its first element follows, -1 on error. */
static int open_container(lf_json *j, int c, uint8_t **stack, size_t *cap, size_t *depth)
{
    if (lf_vec_reserve((void **)stack, cap, *depth + 1, 1))
        return lf_fail_nomem(j->err, "reading JSON");
    const uint8_t closer = (uint8_t)(c == '{' ? '}' : ']');
    (*stack)[(*depth)++] = closer;
    j->pos++;
    if (lf_json_peek(j) == closer) {
        j->pos++;
        (*depth)--;
        return 1;
    }
    if (c == '{' && skip_key(j))
        return -1;
    return 0;
}

/* A string, a number, true, false or null. */
static int skip_scalar(lf_json *j, int c)
{
    if (c == '"') {
        j->pos++;
        while (j->pos < j->end && j->data[j->pos] != '"')
            j->pos += j->data[j->pos] == '\\' ? 2 : 1;
        if (j->pos >= j->end)
            return fail(j, "unterminated string", "a string");
        j->pos++;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        j->pos++;
        while (j->pos < j->end && ((unsigned)(j->data[j->pos] - '0') < 10 || j->data[j->pos] == '+' ||
                                   j->data[j->pos] == '-' || j->data[j->pos] == '.' ||
                                   j->data[j->pos] == 'e' || j->data[j->pos] == 'E'))
            j->pos++;
    } else if (c == 't' || c == 'f' || c == 'n') {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        size_t wl = strlen(word);
        if (j->end - j->pos < wl || memcmp(j->data + j->pos, word, wl) != 0)
            return fail(j, "unexpected value", "JSON");
        j->pos += wl;
    } else {
        return fail(j, "unexpected value", "JSON");
    }
    return 0;
}

/* After a value: close what is done, or step to the next element (past its
 * key in an object). Returns 1 when the outermost value is done, 0 when an
 * element follows, -1 on error. */
static int after_value(lf_json *j, const uint8_t *stack, size_t *depth)
{
    for (;;) {
        if (*depth == 0)
            return 1;
        int n = lf_json_next(j, (char)stack[*depth - 1], "JSON");
        if (n < 0)
            return -1;
        if (n == 1)
            return stack[*depth - 1] == '}' && skip_key(j) ? -1 : 0;
        (*depth)--;
    }
}

/* One value of any shape, with a stack of open brackets (no recursion: a
 * hostile file may nest deep). */
int lf_json_skip(lf_json *j)
{
    uint8_t *stack = NULL; /* the open brackets' closers */
    size_t depth = 0, cap = 0;
    int rc;
    for (;;) {
        int c = lf_json_peek(j);
        int value_done; /* 1: a whole value passed, 0: inside a new container, -1: error */
        if (c == '[' && skip_number_array(j))
            value_done = 1;
        else if (c == '{' || c == '[')
            value_done = open_container(j, c, &stack, &cap, &depth);
        else
            value_done = skip_scalar(j, c) ? -1 : 1;
        if (value_done < 0) {
            rc = -1;
            break;
        }
        if (value_done == 0)
            continue;
        rc = after_value(j, stack, &depth);
        if (rc != 0)
            break;
    }
    lf_big_free(stack);
    return rc < 0 ? -1 : 0;
}
