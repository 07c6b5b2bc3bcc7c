/* fuzz_elf_core.c - which runtime an ELF core comes from (its program
 * headers and NT_FILE note: core/input/elf_core.c) on arbitrary bytes. */
#include "../../core/input/elf_core.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    volatile lf_core_runtime r = lf_elf_core_runtime(data, size);
    volatile uint64_t end = lf_elf_core_extent(data, size);
    (void)r, (void)end;
    return 0;
}
