/* fuzz_textgraph.c - the text graph reader on arbitrary bytes. */
#include "../../core/textgraph/textgraph.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lf_snapshot s;
    lf_error err;
    if (lf_textgraph_parse(data, size, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    return 0;
}
