/* elf_core.c - see elf_core.h. The ELF header gives the program headers;
 * each PT_NOTE segment holds notes (name size, descriptor size, type, then
 * the name and descriptor, each padded to 4 bytes); NT_FILE's descriptor
 * is a count, the page size, count (start, end, offset) triples, then
 * count NUL-terminated paths. Every size is checked against what remains. */
#include "elf_core.h"

#include <string.h>

#include "../base/error.h"
#include "../base/file.h"

#define ELF_HEADER_SIZE 64
#define PHDR_SIZE 56
#define PT_NOTE 4
#define ET_CORE 4
#define NT_FILE 0x46494c45u

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Whether path's last component is name. */
static int is_file(const char *path, size_t len, const char *name)
{
    size_t n = strlen(name);
    return len >= n && memcmp(path + len - n, name, n) == 0 && (len == n || path[len - n - 1] == '/');
}

/* The runtime an NT_FILE descriptor names, LF_CORE_OTHER when none. */
static lf_core_runtime runtime_of_files(const uint8_t *desc, uint64_t size)
{
    if (size < 16)
        return LF_CORE_OTHER;
    uint64_t count = get_u64(desc);
    if (count > (size - 16) / 24)
        return LF_CORE_OTHER;
    const char *path = (const char *)desc + 16 + count * 24, *end = (const char *)desc + size;
    for (uint64_t i = 0; i < count && path < end; i++) {
        const char *nul = memchr(path, 0, (size_t)(end - path));
        size_t len = nul ? (size_t)(nul - path) : (size_t)(end - path);
        if (is_file(path, len, "libcoreclr.so"))
            return LF_CORE_DOTNET;
        if (is_file(path, len, "libjvm.so"))
            return LF_CORE_JVM;
        path += len + 1;
    }
    return LF_CORE_OTHER;
}

/* The runtime the notes of one PT_NOTE segment name. */
static lf_core_runtime runtime_of_notes(const uint8_t *notes, uint64_t size)
{
    uint64_t at = 0;
    while (size - at >= 12) {
        uint64_t name_size = get_u32(notes + at), desc_size = get_u32(notes + at + 4);
        uint32_t type = get_u32(notes + at + 8);
        uint64_t name_padded = (name_size + 3) & ~(uint64_t)3, desc_padded = (desc_size + 3) & ~(uint64_t)3;
        at += 12;
        if (name_padded > size - at || desc_size > size - at - name_padded)
            return LF_CORE_OTHER; /* cut: the rest is not there */
        if (type == NT_FILE && name_size == 5 && memcmp(notes + at, "CORE", 5) == 0)
            return runtime_of_files(notes + at + name_padded, desc_size);
        at += name_padded;
        at += desc_padded < size - at ? desc_padded : size - at;
    }
    return LF_CORE_OTHER;
}

static int is_core(const uint8_t *data, size_t size)
{
    return size >= ELF_HEADER_SIZE && memcmp(data, "\x7f" "ELF", 4) == 0 && data[4] == 2 && data[5] == 1 &&
           (data[16] | data[17] << 8) == ET_CORE;
}

/* The program headers' count, 0 when they do not lie inside data. */
static unsigned program_headers(const uint8_t *data, size_t size, uint64_t *phoff, unsigned *phentsize)
{
    *phoff = get_u64(data + 32);
    *phentsize = data[54] | data[55] << 8;
    unsigned phnum = data[56] | data[57] << 8;
    if (*phentsize < PHDR_SIZE || *phoff > size || phnum > (size - *phoff) / *phentsize)
        return 0;
    return phnum;
}

uint64_t lf_elf_core_extent(const uint8_t *data, size_t size)
{
    uint64_t phoff, end = 0;
    unsigned phentsize;
    if (!is_core(data, size))
        return 0;
    unsigned phnum = program_headers(data, size, &phoff, &phentsize);
    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *ph = data + phoff + (uint64_t)i * phentsize;
        uint64_t offset = get_u64(ph + 8), filesz = get_u64(ph + 32);
        if (filesz && offset + filesz >= offset && offset + filesz > end)
            end = offset + filesz;
    }
    return end;
}

lf_core_runtime lf_elf_core_runtime(const uint8_t *data, size_t size)
{
    uint64_t phoff;
    unsigned phentsize;
    if (!is_core(data, size))
        return LF_CORE_NOT_CORE;
    unsigned phnum = program_headers(data, size, &phoff, &phentsize);
    for (unsigned i = 0; i < phnum; i++) {
        const uint8_t *ph = data + phoff + (uint64_t)i * phentsize;
        if (get_u32(ph) != PT_NOTE)
            continue;
        uint64_t offset = get_u64(ph + 8), filesz = get_u64(ph + 32);
        if (offset > size || filesz > size - offset)
            continue;
        lf_core_runtime r = runtime_of_notes(data + offset, filesz);
        if (r != LF_CORE_OTHER)
            return r;
    }
    return LF_CORE_OTHER;
}

lf_core_runtime lf_elf_core_runtime_fd(int fd)
{
    lf_mapped_file f;
    lf_error err;
    if (lf_file_map_fd(fd, &f, &err))
        return LF_CORE_NOT_CORE;
    lf_core_runtime r = lf_elf_core_runtime(f.data, (size_t)f.size);
    lf_file_unmap(&f);
    return r;
}

uint64_t lf_elf_core_extent_fd(int fd)
{
    lf_mapped_file f;
    lf_error err;
    if (lf_file_map_fd(fd, &f, &err))
        return 0;
    uint64_t end = lf_elf_core_extent(f.data, (size_t)f.size);
    lf_file_unmap(&f);
    return end;
}
