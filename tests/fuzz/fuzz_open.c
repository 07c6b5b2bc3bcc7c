/* fuzz_open.c - any bytes through lf_open, as a user's file: format detection,
 * the gzip path (inflate to a temporary file), then the detected reader. */
#include <unistd.h>

#include "../../core/open.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    lf_snapshot s;
    lf_error err;
    if (lf_open(path, NULL, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    close(fd);
    return 0;
}
