/* test_table_trade.c - width moved between a table's cut columns
 * (cmd/cli/out_table_trade.h): the widths expected are worked out by hand
 * from the cells given. */
#include <stdio.h>

#include "../../cmd/cli/out_table_trade.h"
#include "test.h"
#include "tests.h"

static void expect_widths(const char *what, const out_fit *fit, const size_t *want, int ncols)
{
    for (int i = 0; i < ncols; i++)
        if (fit[i].width != want[i]) {
            test_failures++;
            fprintf(stderr, "  %s: column %d is %zu wide, expected %zu\n", what, i, fit[i].width, want[i]);
        }
}

/* roots on a V8 snapshot at 80 columns: the kind (20 of its 25 cells 22
 * wide) given 16, the name (its cells 30, 24 and 23 short ones) 30. The
 * kind takes 6: 20 cells whole, against the one name (30) then cut, which
 * costs 2; the name cannot take them back (the kind's 20 cut would cost
 * 40 for its one cell). */
static void trade_roots_shape(void)
{
    size_t kind[25], name[25];
    for (int i = 0; i < 25; i++) {
        kind[i] = i < 5 ? 14 : 22;
        name[i] = i < 23 ? 4 : i == 23 ? 24 : 30;
    }
    out_fit fit[3] = {{10, 1, OUT_NORMAL, 0, 0}, {16, 0, OUT_NORMAL, 0, 0}, {30, 0, OUT_KEY, 0, 0}};
    const size_t natural[3] = {10, 22, 30};
    const int numeric[3] = {0, 0, 0};
    const out_cut_cells cells[3] = {{NULL, 0}, {kind, 25}, {name, 25}};
    out_table_trade(fit, numeric, 3, natural, cells);
    expect_widths("roots' shape", fit, (const size_t[]){10, 22, 24}, 3);
}

/* No move that cuts as much as it shows: a class one cell of 30 given 20,
 * a path whose one cell of 30 has its 30 (1 whole against 2), nor one past
 * the donor's minimum (a key column of short cells at 20 would go to 10,
 * below 16), nor from a numeric or a whole column. */
static void trade_refused(void)
{
    size_t one30[1] = {30};
    out_fit fit[2] = {{20, 0, OUT_NORMAL, 0, 0}, {30, 0, OUT_NORMAL, 0, 0}};
    const size_t natural[2] = {30, 30};
    const int numeric[2] = {0, 0};
    const out_cut_cells cells[2] = {{one30, 1}, {one30, 1}};
    out_table_trade(fit, numeric, 2, natural, cells);
    expect_widths("as much cut as shown", fit, (const size_t[]){20, 30}, 2);

    size_t wide[10], shorts[10];
    for (int i = 0; i < 10; i++)
        wide[i] = 20, shorts[i] = 4;
    out_fit fit2[4] = {{10, 0, OUT_NORMAL, 0, 0}, {20, 0, OUT_KEY, 0, 0}, {40, 0, OUT_NORMAL, 0, 0}, {40, 1, OUT_NORMAL, 0, 0}};
    const size_t natural2[4] = {20, 20, 40, 40};
    const int numeric2[4] = {0, 0, 1, 0};
    const out_cut_cells cells2[4] = {{wide, 10}, {shorts, 10}, {shorts, 10}, {shorts, 10}};
    out_table_trade(fit2, numeric2, 4, natural2, cells2);
    expect_widths("minimum, numbers, whole", fit2, (const size_t[]){10, 20, 40, 40}, 4);
}

void test_table_trade(void)
{
    trade_roots_shape();
    trade_refused();
}
