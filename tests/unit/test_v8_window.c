/* test_v8_window.c - the V8 reader's 64-byte window of whole rows
 * (core/v8/v8_window.h) against a byte-by-byte reading of the same rules,
 * opened at every byte of seeded random number arrays: rows of 3 and 7
 * values of 1 to 15 digits (sometimes 16 to 19, which the window leaves to
 * the other paths) between "," and "\n,", with now and then a separator V8
 * does not write (a blank, two commas, a lone '\n', the array's ']', a
 * letter). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/v8/v8_window.h"
#include "test.h"
#include "tests.h"

#define STREAM_BYTES 24000
#define WINDOW_STARTS (V8_WINDOW_MAX_VALUES + 1)

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* A number array's bytes, V8's separators mostly: up to STREAM_BYTES,
 * then ']' for a window's reads past them (out holds STREAM_BYTES +
 * V8_WINDOW_READS). */
static size_t random_stream(uint64_t seed, char *out)
{
    static const char *const odd[] = {" ,", ",,", "\n", "\n\n,", "]", ", ", "x", ",\n"};
    uint64_t state = seed;
    size_t o = 0;
    while (o + 40 < STREAM_BYTES) {
        unsigned digits = 1 + (unsigned)(next_random(&state) % 100 < 3 ? 15 + next_random(&state) % 5
                                                                      : next_random(&state) % 15);
        if (next_random(&state) % 4 == 0)
            digits = 1 + (unsigned)(next_random(&state) % 3); /* short values, as most are */
        for (unsigned i = 0; i < digits; i++)
            out[o++] = (char)('0' + (i == 0 && digits > 1 ? 1 + next_random(&state) % 9 : next_random(&state) % 10));
        unsigned r = (unsigned)(next_random(&state) % 200);
        const char *sep = r < 120 ? "," : r < 196 ? "\n," : odd[next_random(&state) % 8];
        memcpy(out + o, sep, strlen(sep));
        o += strlen(sep);
    }
    memset(out + o, ']', STREAM_BYTES + V8_WINDOW_READS - o);
    return o;
}

/* The value starts a window at `at` may take, by the rules read byte by
 * byte: values of 1 to 15 digits, each followed by "," or "\n," and then a
 * digit, all inside the window; a run reaching the window's end still
 * starts a value. Returns how many. */
static unsigned reference_starts(const char *at, unsigned *start)
{
    unsigned count = 0, i = 0;
    while (i < V8_WINDOW_BYTES && at[i] >= '0' && at[i] <= '9') {
        unsigned j = i;
        while (j < V8_WINDOW_BYTES && at[j] >= '0' && at[j] <= '9')
            j++;
        if (j - i >= 16)
            break; /* too long: not a start the window takes */
        start[count++] = i;
        if (j == V8_WINDOW_BYTES)
            break;
        unsigned next = at[j] == ',' ? j + 1 : at[j] == '\n' && j + 1 < V8_WINDOW_BYTES && at[j + 1] == ',' ? j + 2 : 0;
        if (next == 0 || next >= V8_WINDOW_BYTES)
            break;
        i = next;
    }
    return count;
}

static uint64_t decimal(const char *p)
{
    uint64_t v = 0;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (uint64_t)(*p++ - '0');
    return v;
}

/* One window against the reference; returns the rows it took. */
static unsigned check_window(const char *at, unsigned fields, unsigned *mismatches)
{
    unsigned start[WINDOW_STARTS + 1];
    unsigned count = reference_starts(at, start);
    unsigned want_rows = count > fields ? (count - 1) / fields : 0;
    v8_window_rows table;
    v8_window_rows_init(&table, fields);
    v8_window w;
    unsigned rows = v8_window_open((const uint8_t *)at, &table, &w);
    if (rows != want_rows) {
        (*mismatches)++;
        return 0;
    }
    for (unsigned k = 0; k < rows * fields; k++) {
        unsigned where = v8_window_next(&w);
        uint64_t v = v8_window_take((const uint8_t *)at, &w);
        if (where != start[k] || v != decimal(at + start[k])) {
            (*mismatches)++;
            return rows;
        }
    }
    if (rows && v8_window_next(&w) != start[rows * fields])
        (*mismatches)++;
    return rows;
}

void test_v8_window_rows(void)
{
    char *stream = malloc(STREAM_BYTES + V8_WINDOW_READS);
    CHECK(stream != NULL);
    if (!stream)
        return;
    static const unsigned field_counts[] = {3, 7};
    unsigned mismatches = 0;
    uint64_t windows = 0, rows = 0, refused = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        size_t len = random_stream(seed, stream);
        for (size_t f = 0; f < sizeof field_counts / sizeof field_counts[0]; f++)
            for (size_t at = 0; at < len; at++) {
                unsigned got = check_window(stream + at, field_counts[f], &mismatches);
                windows++;
                rows += got;
                refused += got == 0 && stream[at] >= '0' && stream[at] <= '9';
            }
    }
    CHECK_EQ_U64(mismatches, 0);
    /* the streams exercise both answers, many times */
    CHECK(rows > windows / 2);
    CHECK(refused > 10000);
    free(stream);
}

/* The value of every digit count from 1 to 15, whatever follows it. */
void test_v8_window_digits(void)
{
    char row[V8_WINDOW_READS + 8];
    static const char *const after[] = {",", "\n,"};
    unsigned wrong = 0;
    for (unsigned digits = 1; digits <= 15; digits++)
        for (unsigned a = 0; a < 2; a++) {
            /* 3 rows of one value: d..d (digits long), then 7, 0 */
            memset(row, ']', sizeof row);
            size_t o = 0;
            uint64_t want = 0;
            for (unsigned i = 0; i < digits; i++) {
                char c = (char)('9' - (i * 7 + digits) % 10);
                row[o++] = c;
                want = want * 10 + (uint64_t)(c - '0');
            }
            memcpy(row + o, after[a], strlen(after[a]));
            o += strlen(after[a]);
            memcpy(row + o, "7,0,", 4);
            v8_window_rows table;
            v8_window_rows_init(&table, 1);
            v8_window w;
            unsigned rows = v8_window_open((const uint8_t *)row, &table, &w);
            wrong += rows != 2;
            if (rows == 2) {
                wrong += v8_window_take((const uint8_t *)row, &w) != want;
                wrong += v8_window_take((const uint8_t *)row, &w) != 7;
                wrong += v8_window_next(&w) != o + 2;
            }
        }
    CHECK_EQ_U64(wrong, 0);
}
