/* out_table_trade.c - see out_table_trade.h. */
#include "out_table_trade.h"

/* Rounds end when no move gains; each shows at least one more cell whole,
 * so a few suffice. */
enum { TRADE_ROUNDS = 16 };

/* What a cell the donor cuts costs, in cells the receiver shows whole: a
 * cut that a move makes, or makes deeper, must buy more than it costs
 * (the cut styles keep what matters of a frame or a path, which a plain
 * count of cut cells cannot see). */
enum { DONOR_CUT_COST = 2 };

/* Cells of c wider than width (cut at it), by bisection. */
static size_t cut_at(const out_cut_cells *c, size_t width)
{
    size_t lo = 0, hi = c->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->width[mid] <= width)
            lo = mid + 1;
        else
            hi = mid;
    }
    return c->count - lo;
}

static int takes_part(const out_fit *f, int numeric, const out_cut_cells *c)
{
    return !f->dropped && !f->whole && !numeric && c->width != NULL;
}

static size_t minimum(const out_fit *f)
{
    return f->rank == OUT_KEY ? OUT_TABLE_MIN_KEY : OUT_TABLE_MIN_TEXT;
}

/* The best move of one round into *to, *from, *by; 0 when none gains. */
static int best_move(const out_fit *fit, const int *numeric, int ncols, const size_t *natural,
                     const out_cut_cells *cells, int *to, int *from, size_t *by)
{
    size_t best = 0;
    for (int r = 0; r < ncols; r++) {
        if (!takes_part(&fit[r], numeric[r], &cells[r]) || fit[r].width >= natural[r])
            continue;
        const size_t cut_now = cut_at(&cells[r], fit[r].width), first = cells[r].count - cut_now;
        for (size_t k = first; k < cells[r].count; k++) {
            size_t t = cells[r].width[k];
            if (t > natural[r] || (k > first && t == cells[r].width[k - 1]))
                continue; /* one try per distinct width */
            size_t delta = t - fit[r].width, whole = cut_now - cut_at(&cells[r], t);
            for (int d = 0; d < ncols; d++) {
                if (d == r || !takes_part(&fit[d], numeric[d], &cells[d]) ||
                    fit[d].width < minimum(&fit[d]) + delta)
                    continue;
                size_t cost = DONOR_CUT_COST * cut_at(&cells[d], fit[d].width - delta);
                if (whole > cost && whole - cost > best) {
                    best = whole - cost;
                    *to = r, *from = d, *by = delta;
                }
            }
        }
    }
    return best > 0;
}

void out_table_trade(out_fit *fit, const int *numeric, int ncols, const size_t *natural,
                     const out_cut_cells *cells)
{
    int to, from;
    size_t by;
    for (int round = 0; round < TRADE_ROUNDS && best_move(fit, numeric, ncols, natural, cells, &to, &from, &by);
         round++) {
        fit[to].width += by;
        fit[from].width -= by;
    }
}
