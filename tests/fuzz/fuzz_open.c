/* fuzz_open.c - any bytes through lf_open, as a user's file: format detection,
 * the gzip path (inflate to a temporary file), then the detected reader. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../core/open.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-open", 0);
    if (fd < 0)
        return 0;
    if (size && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    lf_snapshot s;
    lf_error err;
    if (lf_open(path, NULL, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    close(fd);
    return 0;
}
