/* fuzz_lfs.c - the leakfind-format reader on arbitrary bytes. Checksums are
 * skipped so mutations reach the structural checks (a hostile file can carry
 * valid checksums). The bytes go through a memfd: the reader wants a file. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../core/lfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz-lfs", 0);
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
    if (lf_lfs_open_flags(path, LF_LFS_SKIP_CHECKSUMS, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    close(fd);
    return 0;
}
