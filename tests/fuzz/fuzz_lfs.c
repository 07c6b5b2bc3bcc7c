/* fuzz_lfs.c - the leakfind-format reader on arbitrary bytes. Checksums are
 * skipped so mutations reach the structural checks (a hostile file can carry
 * valid checksums). The bytes go through a memfd: the reader wants a file. */
#include <unistd.h>

#include "../../core/lfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    lf_snapshot s;
    lf_error err;
    if (lf_lfs_open_flags(path, LF_LFS_SKIP_CHECKSUMS, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    close(fd);
    return 0;
}
