/* v8_window.h - whole rows of a number array from one 64-byte window.
 *
 * Why: reading a value at a time (fast_row in v8.c) is one chain of
 * dependent steps: where a value starts depends on how many digits the one
 * before it had, which takes a load, a mask and a count. On the snapshot's
 * short values that chain, not the bytes, set the parse's speed. Here the
 * bytes of a window are classified at once (digit, ',' or '\n'), every
 * value's start and length come from those masks, and the values themselves
 * are worked out independently of each other.
 *
 * The window takes only what V8 writes: values of 1 to 15 digits separated
 * by "," or "\n,". A window holds the rows that end inside it (the next
 * row's first digit must be inside it too, so that every separator of
 * theirs was checked); anything else (blanks elsewhere, longer numbers, the
 * array's end, a row longer than the window) gives no rows, and the caller
 * reads on with its other paths. */
#ifndef LF_V8_WINDOW_H
#define LF_V8_WINDOW_H

#include <stdint.h>
#include <string.h>

#include "../base/bits.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define V8_WINDOW_BYTES 64u
/* A value's digits are read eight bytes at a time, past the window's end
 * by up to this much: the caller has V8_WINDOW_READS bytes from the start. */
#define V8_WINDOW_READS (V8_WINDOW_BYTES + 16u)
/* At most this many values in one window (a digit and a ',' each). */
#define V8_WINDOW_MAX_VALUES (V8_WINDOW_BYTES / 2)

/* How many whole rows a window with c value starts holds: the row after
 * the last whole one must start inside it (a table, made once per part:
 * a division per window took 2% of the parse). */
typedef struct v8_window_rows {
    uint8_t of_starts[V8_WINDOW_MAX_VALUES + 1];
} v8_window_rows;

static inline void v8_window_rows_init(v8_window_rows *r, unsigned fields)
{
    for (unsigned c = 0; c <= V8_WINDOW_MAX_VALUES; c++)
        r->of_starts[c] = (uint8_t)(fields && c > fields ? (c - 1) / fields : 0);
}

typedef struct v8_window {
    uint64_t starts; /* bit i: a value starts at byte i, not yet taken */
    uint64_t digits; /* bit i: byte i is a digit */
} v8_window;

#ifdef __SSE2__
/* Bit i of each mask says what byte i of the window is. */
static inline void v8_window_masks(const uint8_t *at, uint64_t *digit, uint64_t *comma, uint64_t *newline)
{
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    const __m128i c = _mm_set1_epi8(','), nl = _mm_set1_epi8('\n');
    uint64_t d = 0, cm = 0, nm = 0;
    for (unsigned k = 0; k < V8_WINDOW_BYTES / 16; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(at + 16 * k));
        __m128i t = _mm_sub_epi8(x, zero); /* a digit: 0..9 unsigned */
        d |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(t, nine), t)) << (16 * k);
        cm |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, c)) << (16 * k);
        nm |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl)) << (16 * k);
    }
    *digit = d;
    *comma = cm;
    *newline = nm;
}
#else
static inline void v8_window_masks(const uint8_t *at, uint64_t *digit, uint64_t *comma, uint64_t *newline)
{
    uint64_t d = 0, cm = 0, nm = 0;
    for (unsigned i = 0; i < V8_WINDOW_BYTES; i++) {
        d |= (uint64_t)((unsigned)(at[i] - '0') < 10) << i;
        cm |= (uint64_t)(at[i] == ',') << i;
        nm |= (uint64_t)(at[i] == '\n') << i;
    }
    *digit = d;
    *comma = cm;
    *newline = nm;
}
#endif

/* Opens the window at `at`, the first digit of a row: how many whole rows
 * (of the width `rows` was made for) it holds (0: none, read on otherwise). */
static inline unsigned v8_window_open(const uint8_t *at, const v8_window_rows *rows, v8_window *w)
{
    uint64_t d, c, n;
    v8_window_masks(at, &d, &c, &n);
    if (!(d & 1))
        return 0;
    /* Bytes where what V8 writes stops: anything but a digit, ',' or '\n';
     * a ',' after anything but a digit or '\n'; a '\n' not between a digit
     * and a ','; a run of 16 digits. (What follows a ',' needs no rule: a
     * byte that is no digit is caught by these, and nothing is taken past
     * the first.) The window's last byte counts as followed by nothing. */
    uint64_t bad = ~(d | c | n);
    bad |= c & ~((d | n) << 1);
    bad |= n & ~(d << 1);
    bad |= n & ~(c >> 1);
    uint64_t run = d & (d >> 1);
    run &= run >> 2;
    run &= run >> 4;
    run &= run >> 8;
    bad |= run;
    uint64_t starts = d & ~(d << 1);
    if (bad)
        starts &= ((uint64_t)1 << __builtin_ctzll(bad)) - 1; /* bit 0 is a digit: bad is past it */
    w->starts = starts;
    w->digits = d;
    return rows->of_starts[lf_popcount64(starts)];
}

/* Where the next value not yet taken starts, from the window's start. */
static inline unsigned v8_window_next(const v8_window *w)
{
    return (unsigned)__builtin_ctzll(w->starts);
}

/* The value of the n leading digits (1 to 8) of an eight-byte chunk. The
 * '0's come off first: a byte past the digits that is below '0' borrows
 * only from the bytes after it, which the shift then drops, and the shift
 * leaves zeros, leading zeros, below the digits. Then summed in pairs, then
 * fours. */
static inline uint64_t v8_window_digits(uint64_t chunk, unsigned n)
{
    uint64_t w = (chunk - 0x3030303030303030ull) << (8 * (8 - n));
    w = (w * 10) + (w >> 8);
    return (((w & 0x000000ff000000ffull) * (100 + (1000000ull << 32))) +
            (((w >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32)))) >> 32;
}

/* Takes the next value of the window opened at `at`. */
static inline uint64_t v8_window_take(const uint8_t *at, v8_window *w)
{
    static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    unsigned i = (unsigned)__builtin_ctzll(w->starts);
    w->starts &= w->starts - 1;
    unsigned n = (unsigned)__builtin_ctzll(~(w->digits >> i)); /* the run ends inside: n <= 15 */
    uint64_t chunk;
    memcpy(&chunk, at + i, 8);
    if (n <= 8)
        return v8_window_digits(chunk, n);
    uint64_t more;
    memcpy(&more, at + i + 8, 8);
    return v8_window_digits(chunk, 8) * pow10[n - 8] + v8_window_digits(more, n - 8);
}

#endif
