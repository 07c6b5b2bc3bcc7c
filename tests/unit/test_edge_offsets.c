/* test_edge_offsets.c - narrow and wide edge offsets: the choice, widening
 * counts whose total does not fit, and the dominator tests on wide graphs. */
#include "../../core/model/edge_offsets.h"
#include "graph_fixture.h"
#include "test.h"
#include "tests.h"

/* Counts 3, 0, 5 and then `last`: the total is 8 + last. */
static uint64_t offsets_of(uint32_t last, lf_edge_offsets_mut *o)
{
    CHECK(lf_edge_offsets_alloc(o, 4, 0) == 0);
    const uint32_t count[4] = {3, 0, 5, last};
    for (uint32_t v = 0; v < 4; v++)
        lf_edge_offsets_set(o, v, count[v]);
    return lf_edge_offsets_from_counts(o, 4);
}

void test_edge_offsets_widen(void)
{
    const uint64_t saved = lf_edge_offsets_wide_from;
    lf_edge_offsets_wide_from = 10; /* totals of 10 and more are wide */
    const uint64_t want[2][5] = {{0, 3, 3, 8, 9}, {0, 3, 3, 8, 12}};
    for (int wide = 0; wide < 2; wide++) {
        lf_edge_offsets_mut o;
        CHECK_EQ_U64(offsets_of(wide ? 4 : 1, &o), want[wide][4]);
        /* counted narrow (the total was not known), widened when it did not fit */
        CHECK(wide ? o.wide && !o.narrow : o.narrow && !o.wide);
        for (uint32_t v = 0; v <= 4; v++)
            CHECK_EQ_U64(lf_edge_offset_at(lf_edge_offsets_view(o), v), want[wide][v]);
        lf_edge_offsets_free(&o);
    }
    /* a bound known beforehand picks the width at once */
    lf_edge_offsets_mut o;
    CHECK(lf_edge_offsets_alloc(&o, 4, 9) == 0 && o.narrow);
    lf_edge_offsets_free(&o);
    CHECK(lf_edge_offsets_alloc(&o, 4, 10) == 0 && o.wide);
    lf_edge_offsets_free(&o);
    lf_edge_offsets_wide_from = saved;
}

void test_dominators_wide(void)
{
    const uint64_t saved = lf_edge_offsets_wide_from;
    lf_edge_offsets_wide_from = 0;
    const uint32_t edges[] = {0, 1, 1, 2}, roots[] = {0};
    test_graph t;
    test_graph_build(&t, 3, edges, NULL, 2, roots, 1);
    CHECK(t.g.edge_offset.wide && !t.g.edge_offset.narrow);
    test_graph_free(&t);
    test_dominators_hand_graphs();
    test_dominators_random_vs_reference();
    test_dominators_threaded_vs_reference();
    test_reverse_lists();
    lf_edge_offsets_wide_from = saved;
}
