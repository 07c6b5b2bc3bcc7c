/* nearest_ids.c - see nearest_ids.h. */
#include "nearest_ids.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/base/suggest.h"

nearest_style nearest_id_style(const char *arg)
{
    if (arg[0] == '@')
        return NEAREST_AT;
    return arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X') ? NEAREST_HEX : NEAREST_DECIMAL;
}

/* By hand: every object's id is written once per scan. */
size_t nearest_id_write(char *buf, uint64_t id, nearest_style style)
{
    char digits[24];
    size_t n = 0, o = 0;
    unsigned base = style == NEAREST_HEX ? 16 : 10;
    do {
        digits[n++] = "0123456789abcdef"[id % base];
        id /= base;
    } while (id);
    if (style == NEAREST_HEX) {
        buf[o++] = '0';
        buf[o++] = 'x';
    } else if (style == NEAREST_AT) {
        buf[o++] = '@';
    }
    while (n)
        buf[o++] = digits[--n];
    return o;
}

/* Whether a is to be shown before b: nearer, then retaining more (what the
 * user copied from a table of the largest), then the first found. */
static int before(const nearest_id *a, const nearest_id *b)
{
    if (a->distance != b->distance)
        return a->distance < b->distance;
    return a->bytes > b->bytes;
}

int nearest_id_unreachable(const lf_snapshot *s, uint32_t v)
{
    return s->idom && s->idom[v] == LF_NODE_NONE;
}

/* What v is ranked by among equally near ids: the bytes it retains, else
 * its own. */
static uint64_t bytes_of(const lf_snapshot *s, uint32_t v)
{
    if (nearest_id_unreachable(s, v))
        return 0;
    return lf_snapshot_has_retained(s) ? lf_snapshot_retained(s, v) : lf_snapshot_shallow(s, v);
}

/* The characters ids are written with (nearest_id_write), each a slot of counts;
 * any other character slot 18. */
enum { ID_SYMBOLS = 19 };
static unsigned symbol_of(char c)
{
    static const char symbols[] = "0123456789abcdefx@";
    const char *at = c ? strchr(symbols, tolower((unsigned char)c)) : NULL;
    return at ? (unsigned)(at - symbols) : ID_SYMBOLS - 1;
}

/* A bound below the edit distance, cheap enough for every object: an
 * edit changes the characters' counts by at most 2 in all. want: the
 * mistyped id's counts. */
static size_t counts_apart(const int *want, const char *text, size_t len)
{
    int have[ID_SYMBOLS] = {0};
    size_t apart = 0;
    for (size_t i = 0; i < len; i++)
        have[symbol_of(text[i])]++;
    for (unsigned k = 0; k < ID_SYMBOLS; k++)
        apart += (size_t)abs(want[k] - have[k]);
    return apart;
}

/* Keeps c among the best[0..*count) when it is nearer, or as near and
 * retaining more, than one of them (and not there already). */
static void offer(nearest_id *best, size_t *count, nearest_id c)
{
    for (size_t i = 0; i < *count; i++)
        if (best[i].node == c.node)
            return;
    size_t at = *count < NEAREST_KEEP ? (*count)++ : NEAREST_KEEP;
    while (at > 0 && before(&c, &best[at - 1])) {
        if (at < NEAREST_KEEP)
            best[at] = best[at - 1];
        at--;
    }
    if (at < NEAREST_KEEP)
        best[at] = c;
}

/* Every object's id against arg: edit distances up to 2. */
static void scan_ids(const lf_snapshot *s, const char *arg, nearest_id *best, size_t *count)
{
    const size_t len = strlen(arg);
    const nearest_style style = nearest_id_style(arg);
    /* ids are dense: past two edits nearly every id would be "near" */
    size_t max = suggest_max_distance(len);
    max = max > 2 ? 2 : max;
    int want[ID_SYMBOLS] = {0};
    for (size_t i = 0; i < len; i++)
        want[symbol_of(arg[i])]++;
    for (uint32_t v = 0; v < s->object_count; v++) {
        char text[32];
        size_t n = nearest_id_write(text, lf_snapshot_object_id(s, v), style);
        if ((n > len ? n - len : len - n) > max || counts_apart(want, text, n) > 2 * max)
            continue;
        size_t d = suggest_distance(arg, len, text, n, max);
        if (d <= max)
            offer(best, count, (nearest_id){v, d, bytes_of(s, v)});
    }
}

/* The ids one edit from arg (a digit changed, left out, added, or two
 * swapped), each looked up by binary search: for snapshots too big to
 * scan, whose ids are sorted. */
static void edit_ids(const lf_snapshot *s, const char *arg, nearest_id *best, size_t *count)
{
    const size_t len = strlen(arg);
    const nearest_style style = nearest_id_style(arg);
    const size_t start = style == NEAREST_HEX ? 2 : style == NEAREST_AT ? 1 : 0; /* the prefix stays */
    const char *digits = style == NEAREST_HEX ? "0123456789abcdef" : "0123456789";
    char text[64];
    if (len + 2 > sizeof text)
        return;
    for (size_t i = start; i <= len; i++) {
        for (int kind = 0; kind < 4; kind++) {
            for (const char *d = kind < 2 ? digits : "-"; *d; d++) {
                size_t n = 0;
                if (kind == 0 && i < len && *d != tolower((unsigned char)arg[i])) { /* changed */
                    memcpy(text, arg, len);
                    text[i] = *d;
                    n = len;
                } else if (kind == 1) { /* added */
                    memcpy(text, arg, i);
                    text[i] = *d;
                    memcpy(text + i + 1, arg + i, len - i);
                    n = len + 1;
                } else if (kind == 2 && i < len) { /* left out */
                    memcpy(text, arg, i);
                    memcpy(text + i, arg + i + 1, len - i - 1);
                    n = len - 1;
                } else if (kind == 3 && i + 1 < len) { /* swapped */
                    memcpy(text, arg, len);
                    text[i] = arg[i + 1];
                    text[i + 1] = arg[i];
                    n = len;
                }
                text[n] = '\0';
                char *stop;
                errno = 0;
                uint64_t id = n > start ? strtoull(text + start, &stop, style == NEAREST_HEX ? 16 : 10) : 0;
                uint32_t v;
                if (n > start && errno == 0 && *stop == '\0' && (v = lf_snapshot_find_id(s, id)) != LF_NODE_NONE)
                    offer(best, count, (nearest_id){v, 1, bytes_of(s, v)});
            }
        }
    }
}

size_t nearest_ids(const lf_snapshot *s, const char *arg, int by_edits, nearest_id *best)
{
    size_t count = 0;
    if (by_edits)
        edit_ids(s, arg, best, &count);
    else
        scan_ids(s, arg, best, &count);
    return count;
}
