/* fuzz_graph.c - bytes -> a small graph -> Lengauer-Tarjan equals the
 * Cooper-Harvey-Kennedy reference, with and without unreachable roots. */
#include <stdlib.h>
#include <string.h>

#include "../../graph/dominators.h"
#include "../unit/graph_fixture.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint32_t n = (uint32_t)data[0] % 48 + 1;
    uint32_t root_count = (uint32_t)data[1] % 4;
    data += 2;
    size -= 2;
    uint32_t roots[4];
    for (uint32_t r = 0; r < root_count; r++) {
        roots[r] = size ? data[0] % n : 0;
        if (size) {
            data++;
            size--;
        }
    }
    uint64_t m = size / 2;
    uint32_t *e = malloc((m + 1) * 2 * sizeof *e);
    uint8_t *weak = malloc(m + 1);
    for (uint64_t i = 0; i < m; i++) {
        e[2 * i] = data[2 * i] % n;
        e[2 * i + 1] = (data[2 * i + 1] & 0x7f) % n;
        weak[i] = data[2 * i + 1] >> 7;
    }
    test_graph t;
    test_graph_build(&t, n, e, weak, m, roots, root_count);
    uint32_t idom[48], ref[48];
    uint64_t retained[48], ref_retained[48];
    lf_dominator_result result;
    if (test_dominators(&t.g, t.shallow, 0, idom, retained, &result, NULL) == 0) {
        reference_idom_chk(&t.g, ref);
        reference_retained(n, ref, t.shallow, ref_retained);
        if (memcmp(idom, ref, n * sizeof *idom) || memcmp(retained, ref_retained, n * sizeof *retained))
            abort();
        /* With --keep-unreachable every node must end up dominated. */
        if (test_dominators(&t.g, t.shallow, LF_DOM_KEEP_UNREACHABLE, idom, retained, &result, NULL) == 0) {
            for (uint32_t v = 0; v < n; v++)
                if (idom[v] == LF_NODE_NONE)
                    abort();
            if (result.reachable_count != n)
                abort();
        }
    }
    free(e);
    free(weak);
    test_graph_free(&t);
    return 0;
}
