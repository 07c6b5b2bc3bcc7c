/* fuzz_elf.c - the ELF symbol probe of `leakfind record` on arbitrary bytes:
 * a program given to record is untrusted input like any dump. */
#include <unistd.h>

#include "../../core/input/elf_probe.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"caml_start_program", "Caml_state", "caml_globals",
                                        "caml_do_local_roots_nat"};
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    lf_elf_probe probe;
    lf_error err;
    lf_elf_probe_symbols(path, names, 4, &probe, &err);
    close(fd);
    return 0;
}
