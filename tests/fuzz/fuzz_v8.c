/* fuzz_v8.c - the V8 heap snapshot reader (JSON) on arbitrary bytes, on one
 * or two threads, whole or partial (the first byte chooses). */
#include "../../core/v8.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    lf_snapshot s;
    lf_error err;
    if (lf_v8_parse(data + 1, size - 1, 1 + (data[0] & 1), (data[0] & 2) != 0, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    return 0;
}
