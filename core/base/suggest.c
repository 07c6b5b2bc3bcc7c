/* suggest.c - bounded optimal-string-alignment distance over two rows. */
#include "suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { SUGGEST_MAX_LEN = 512 };

size_t suggest_distance(const char *a, size_t alen, const char *b, size_t blen, size_t max)
{
    if (alen > SUGGEST_MAX_LEN || blen > SUGGEST_MAX_LEN)
        return max + 1;
    if ((alen > blen ? alen - blen : blen - alen) > max)
        return max + 1;
    size_t rows[3][SUGGEST_MAX_LEN + 1];
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= blen; j++)
        prev[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        cur[0] = i;
        size_t best = cur[0];
        for (size_t j = 1; j <= blen; j++) {
            /* case differences cost nothing: "arraylist" finds "ArrayList" */
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t d = prev[j - 1] + !same;
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
            if (d < best)
                best = d;
        }
        if (best > max)
            return max + 1;
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[blen] <= max ? prev[blen] : max + 1;
}

size_t suggest_max_distance(size_t len)
{
    size_t m = len / 3;
    return m < 1 ? 1 : m > 4 ? 4 : m;
}

void suggest_offer(suggest_best *b, uint64_t name, size_t distance)
{
    size_t at = b->count < SUGGEST_KEEP ? b->count++ : SUGGEST_KEEP;
    while (at > 0 && b->distance[at - 1] > distance) {
        if (at < SUGGEST_KEEP) {
            b->distance[at] = b->distance[at - 1];
            b->name[at] = b->name[at - 1];
        }
        at--;
    }
    if (at < SUGGEST_KEEP) {
        b->distance[at] = distance;
        b->name[at] = name;
    }
}

void suggest_nearest_init(suggest_nearest *n, const char *want, size_t want_len, char *near, size_t size)
{
    *n = (suggest_nearest){want, want_len, suggest_max_distance(want_len) + 1, near, size};
    near[0] = 0;
}

void suggest_nearest_offer(suggest_nearest *n, const char *name, size_t len)
{
    if (n->bound == 0 || len >= n->size)
        return;
    size_t d = suggest_distance(n->want, n->want_len, name, len, n->bound - 1);
    if (d < n->bound) {
        n->bound = d;
        memcpy(n->near, name, len);
        n->near[len] = 0;
    }
}
