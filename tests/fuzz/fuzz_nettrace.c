/* fuzz_nettrace.c - the .nettrace reader (dotnet-trace's EventPipe file:
 * objects, blocks, compressed and plain event headers, metadata, stacks,
 * allocation ticks, method events) on arbitrary bytes, then every site's
 * label, whole and cut. */
#include <stdlib.h>

#include "../../core/nettrace/nettrace.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lf_nettrace t;
    lf_error err;
    (void)lf_nettrace_detect(data, size);
    if (lf_nettrace_parse(data, size, &t, &err) == 0) {
        char label[256];
        for (uint32_t i = 0; i < t.site_count; i++) {
            size_t need = lf_nettrace_stack_label(&t, t.site[i].stack, 0, NULL, 0);
            char *whole = malloc(need + 1);
            if (whole) {
                lf_nettrace_stack_label(&t, t.site[i].stack, 0, whole, need + 1);
                free(whole);
            }
            lf_nettrace_stack_label(&t, t.site[i].stack, 2, label, sizeof label);
        }
        lf_nettrace_frame_label(&t, 0, label, sizeof label);
        lf_nettrace_free(&t);
    }
    return 0;
}
