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

/* More columns than any table has (dominators: 13); past it no slack is given. */
enum { FIT_MAX_COLUMNS = 64 };

/* The table's width: shown columns, two spaces between them. */
static size_t table_width(const out_fit *col, int ncols)
{
    size_t total = 0;
    int shown = 0;
    for (int c = 0; c < ncols; c++)
        if (!col[c].dropped) {
            total += col[c].width;
            shown++;
        }
    return total + (shown > 0 ? 2 * (size_t)(shown - 1) : 0);
}

/* A text column's width at level L: key columns get twice a normal one's,
 * none less than its minimum nor more than its widest cell. */
static size_t level_width(const out_fit *c, size_t level)
{
    size_t min = c->rank == OUT_KEY ? OUT_TABLE_MIN_KEY : OUT_TABLE_MIN_TEXT;
    size_t want = c->rank == OUT_KEY ? 2 * level : level;
    if (c->width <= min)
        return c->width;
    return want < min ? min : want > c->width ? c->width : want;
}

static size_t width_at(const out_fit *col, int ncols, size_t level)
{
    size_t total = 0;
    int shown = 0;
    for (int c = 0; c < ncols; c++)
        if (!col[c].dropped) {
            total += col[c].whole ? col[c].width : level_width(&col[c], level);
            shown++;
        }
    return total + (shown > 0 ? 2 * (size_t)(shown - 1) : 0);
}

/* The largest level at which the columns fit, by bisection (width_at
 * grows with the level). */
static size_t fitting_level(const out_fit *col, int ncols, size_t limit)
{
    size_t lo = 0, hi = 0;
    for (int c = 0; c < ncols; c++)
        if (!col[c].dropped && !col[c].whole && col[c].width > hi)
            hi = col[c].width;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (width_at(col, ncols, mid) <= limit)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Whether some key column would be narrower than is comfortable to read. */
static int keys_cramped(const out_fit *col, int ncols, size_t level)
{
    for (int c = 0; c < ncols; c++)
        if (!col[c].dropped && col[c].rank == OUT_KEY && level_width(&col[c], level) < OUT_TABLE_KEY_COMFORT &&
            level_width(&col[c], level) < col[c].width)
            return 1;
    return 0;
}

/* What the level leaves of the limit (less than a step of every growing
 * column), given to the columns still cut: first to those it shows whole,
 * the fewest columns short first, then one at a time to the others, key
 * columns first. natural: each column's widest cell. */
void out_table_give_slack(out_fit *col, int ncols, const size_t *natural, size_t limit)
{
    size_t used = table_width(col, ncols), slack = limit > used ? limit - used : 0;
    for (;;) { /* whole cells: a field one short of "elementData" is shown */
        int best = -1;
        for (int c = 0; c < ncols; c++)
            if (!col[c].dropped && !col[c].whole && col[c].width < natural[c] &&
                natural[c] - col[c].width <= slack &&
                (best < 0 || natural[c] - col[c].width < natural[best] - col[best].width))
                best = c;
        if (best < 0)
            break;
        slack -= natural[best] - col[best].width;
        col[best].width = natural[best];
    }
    for (int given = 1; slack > 0 && given;) {
        given = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int c = 0; c < ncols && slack > 0; c++)
                if (!col[c].dropped && !col[c].whole && col[c].width < natural[c] &&
                    (col[c].rank == OUT_KEY) == (pass == 0))
                    col[c].width++, slack--, given = 1;
    }
}

/* The column to leave out when c must go: the first of a pair goes before
 * its second (`diff`'s count before before the count after, which with the
 * delta beside it says both). */
static int victim(const out_fit *col, int c)
{
    return c > 0 && col[c - 1].with_next && !col[c - 1].dropped ? c - 1 : c;
}

void out_table_fit(out_fit *col, int ncols, size_t limit)
{
    if (limit == 0 || table_width(col, ncols) <= limit)
        return;
    for (int c = ncols - 1; c >= 0 && table_width(col, ncols) > limit; c--)
        if (col[c].rank == OUT_OPTIONAL && !col[c].dropped) {
            int v = victim(col, c);
            col[v].dropped = 1;
            c += v != c; /* c itself is asked again */
        }
    if (table_width(col, ncols) <= limit)
        return;
    /* the text columns share what is left, secondary ones gone first when
     * the answer would be cramped */
    size_t level = fitting_level(col, ncols, limit);
    for (int c = ncols - 1; c >= 0; c--)
        if (col[c].rank == OUT_SECONDARY && !col[c].dropped &&
            (keys_cramped(col, ncols, level) || width_at(col, ncols, level) > limit)) {
            int v = victim(col, c);
            col[v].dropped = 1;
            c += v != c;
            level = fitting_level(col, ncols, limit);
        }
    size_t natural[FIT_MAX_COLUMNS];
    int n = ncols < FIT_MAX_COLUMNS ? ncols : FIT_MAX_COLUMNS;
    for (int c = 0; c < n; c++)
        natural[c] = col[c].width;
    for (int c = 0; c < ncols; c++)
        if (!col[c].dropped && !col[c].whole)
            col[c].width = level_width(&col[c], level);
    if (n == ncols)
        out_table_give_slack(col, ncols, natural, limit);
}

size_t out_table_cut(out_buf *b, const char *text, size_t len, size_t cell_width, size_t pad, size_t width,
                     lf_cut_style style)
{
    if (cell_width <= width) {
        out_buf_put(b, text, len);
        return cell_width;
    }
    if (pad >= width) /* too deep to show anything of the name */
        pad = width > 1 ? width - 1 : 0;
    out_buf_put(b, text, pad);
    size_t room = width - pad, shown = 0, n = len - (pad < len ? pad : len);
    if (out_buf_reserve(b, n + 4))
        return pad;
    size_t wrote = lf_name_cut(text + pad, n, room, style, b->p + b->len, n + 4, &shown);
    b->len += wrote;
    return pad + shown;
}
