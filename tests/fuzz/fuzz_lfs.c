/* fuzz_lfs.c - the leakfind-format reader on arbitrary bytes. Checksums are
 * skipped so mutations reach the structural checks (a hostile file can carry
 * valid checksums). The bytes go through a memfd: the reader wants a file. */
#include "../../core/lfs/lfs.h"
#include "fuzz.h"

static int open_lfs(const char *path, lf_snapshot *s, lf_error *err)
{
    return lf_lfs_open_flags(path, LF_LFS_SKIP_CHECKSUMS, s, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_open_file(data, size, open_lfs);
    return 0;
}
