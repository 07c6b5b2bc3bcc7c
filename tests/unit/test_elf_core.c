/* test_elf_core.c - which runtime an ELF core comes from (core/input/elf_core.c),
 * on cores built here: a header, one PT_NOTE and one PT_LOAD program header,
 * an NT_FILE note naming the mapped files; the same cut at every length. */
#include <stdint.h>
#include <string.h>

#include "../../core/input/elf_core.h"
#include "test.h"
#include "tests.h"

enum { CORE_MAX = 1024 };

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* A core mapping the count files of paths (NUL-separated), with its PT_LOAD
 * segment said to end at load_end. Returns its length. */
static size_t make_core(uint8_t *core, const char *paths, size_t paths_len, uint32_t count, uint64_t load_end)
{
    memset(core, 0, CORE_MAX);
    memcpy(core, "\x7f" "ELF\x02\x01\x01", 7);
    put16(core + 16, 4);                /* ET_CORE */
    put64(core + 32, 64);               /* program headers at 64 */
    put16(core + 54, 56);
    put16(core + 56, 2);
    uint64_t notes = 64 + 2 * 56, desc = 16 + 24 * (uint64_t)count + paths_len;
    uint64_t note_size = 12 + 8 + ((desc + 3) & ~(uint64_t)3);
    uint8_t *ph = core + 64;
    put32(ph, 4);                       /* PT_NOTE */
    put64(ph + 8, notes);
    put64(ph + 32, note_size);
    put32(ph + 56, 1);                  /* PT_LOAD */
    put64(ph + 56 + 8, notes + note_size);
    put64(ph + 56 + 32, load_end - (notes + note_size));
    uint8_t *n = core + notes;
    put32(n, 5);
    put32(n + 4, (uint32_t)desc);
    put32(n + 8, 0x46494c45u);          /* NT_FILE */
    memcpy(n + 12, "CORE", 5);
    put64(n + 20, count);
    put64(n + 28, 4096);
    memcpy(n + 20 + 16 + 24 * count, paths, paths_len);
    return (size_t)(notes + note_size);
}

void test_elf_core_runtime(void)
{
    static const char dotnet[] = "/usr/lib/libc.so.6\0/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so";
    static const char jvm[] = "/usr/lib/jvm/java-17/lib/server/libjvm.so";
    static const char neither[] = "/usr/lib/libcoreclr.so.bak\0/opt/xlibjvm.so";
    uint8_t core[CORE_MAX];
    size_t len = make_core(core, dotnet, sizeof dotnet, 2, 100000);
    CHECK_EQ_U64(lf_elf_core_runtime(core, len), LF_CORE_DOTNET);
    CHECK_EQ_U64(lf_elf_core_extent(core, len), 100000);
    /* cut anywhere in the note: never read past the cut, never a runtime named */
    for (size_t cut = 0; cut < len; cut++) {
        lf_core_runtime r = lf_elf_core_runtime(core, cut);
        CHECK(r == LF_CORE_NOT_CORE || r == LF_CORE_OTHER);
    }
    len = make_core(core, jvm, sizeof jvm, 1, 5000);
    CHECK_EQ_U64(lf_elf_core_runtime(core, len), LF_CORE_JVM);
    len = make_core(core, neither, sizeof neither, 2, 5000);
    CHECK_EQ_U64(lf_elf_core_runtime(core, len), LF_CORE_OTHER);
    /* a count of files the note cannot hold */
    len = make_core(core, dotnet, sizeof dotnet, 2, 5000);
    put64(core + 64 + 2 * 56 + 20, 1000000);
    CHECK_EQ_U64(lf_elf_core_runtime(core, len), LF_CORE_OTHER);
    /* an executable, not a core */
    len = make_core(core, dotnet, sizeof dotnet, 2, 5000);
    put16(core + 16, 2);
    CHECK_EQ_U64(lf_elf_core_runtime(core, len), LF_CORE_NOT_CORE);
    CHECK_EQ_U64(lf_elf_core_extent(core, len), 0);
}
