/* fuzz_open.c - any bytes through lf_open, as a user's file: format detection,
 * the gzip path (inflate to a temporary file), then the detected reader. */
#include "../../core/input/clock_probe.h"
#include "../../core/input/open.h"
#include "fuzz.h"

static int open_any(const char *path, lf_snapshot *s, lf_error *err)
{
    lf_source_format format;
    (void)lf_probe_clock(path, &format); /* what a series reads before analysing */
    return lf_open(path, NULL, s, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_open_file(data, size, open_any);
    return 0;
}
