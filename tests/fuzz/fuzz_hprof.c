/* fuzz_hprof.c - the HPROF reader on arbitrary bytes, under each reference
 * semantics in turn, whole or partial (the flags come from the first byte). */
#include "../../core/hprof.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = data[0] % 3 == 1 ? LF_HPROF_SOFT_STRONG : data[0] % 3 == 2 ? LF_HPROF_ALL_STRONG : 0;
    if (data[0] & 8)
        flags |= LF_HPROF_PARTIAL;
    lf_snapshot s;
    lf_error err;
    if (lf_hprof_parse(data + 1, size - 1, flags, 1 + (data[0] & 4) / 4, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    return 0;
}
