/* out_table.c - see out_table.h. */
#include "out_table.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

size_t out_table_limit(void)
{
    const char *columns = getenv("COLUMNS");
    if (columns && *columns) {
        char *end;
        unsigned long n = strtoul(columns, &end, 10);
        if (*end == '\0' && n > 0 && n <= 1000000)
            return (size_t)n;
    }
    if (!isatty(STDOUT_FILENO))
        return 0;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* The table's width when no text column is wider than cap. */
static size_t width_at(const size_t *width, const int *whole, int ncols, size_t cap)
{
    size_t total = ncols > 0 ? 2 * (size_t)(ncols - 1) : 0;
    for (int c = 0; c < ncols; c++)
        total += whole[c] || width[c] < cap ? width[c] : cap;
    return total;
}

void out_table_fit(size_t *width, const int *whole, int ncols, size_t limit)
{
    size_t widest = 0;
    for (int c = 0; c < ncols; c++)
        if (!whole[c] && width[c] > widest)
            widest = width[c];
    if (limit == 0 || widest <= OUT_TABLE_MIN_TEXT || width_at(width, whole, ncols, widest) <= limit)
        return;
    /* the largest cap that fits, by bisection: width_at grows with cap */
    size_t lo = OUT_TABLE_MIN_TEXT, hi = widest;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (width_at(width, whole, ncols, mid) <= limit)
            lo = mid;
        else
            hi = mid - 1;
    }
    for (int c = 0; c < ncols; c++)
        if (!whole[c] && width[c] > lo)
            width[c] = lo;
}

size_t out_table_cut(out_buf *b, const char *text, size_t len, size_t cell_width, size_t width)
{
    if (cell_width <= width) {
        out_buf_put(b, text, len);
        return cell_width;
    }
    if (width == 0)
        return 0;
    size_t keep = 0, chars = 0;
    while (keep < len) { /* the first width - 1 characters, whole */
        size_t next = keep + 1;
        while (next < len && ((unsigned char)text[next] & 0xc0) == 0x80)
            next++;
        if (chars + 1 > width - 1)
            break;
        chars++;
        keep = next;
    }
    out_buf_put(b, text, keep);
    out_buf_put(b, "\xe2\x80\xa6", 3); /* U+2026 HORIZONTAL ELLIPSIS */
    return chars + 1;
}
