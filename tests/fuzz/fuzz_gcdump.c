/* fuzz_gcdump.c - the .NET heap dump reader (.gcdump: the FastSerialization
 * container, the GCHeapDump and its MemoryGraph) on arbitrary bytes. */
#include "../../core/gcdump/gcdump.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lf_snapshot s;
    lf_error err;
    (void)lf_gcdump_clock(data, size);
    if (lf_gcdump_parse(data, size, NULL, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    return 0;
}
