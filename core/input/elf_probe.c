/* elf_probe.c - symbol lookup in an ELF64 file, every offset checked against
 * the file's size before it is read. */
#include "elf_probe.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int within(size_t len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

static unsigned find_names(const unsigned char *file, size_t len, const Elf64_Shdr *sh,
                           const Elf64_Shdr *strsh, const char *const *names, int count)
{
    unsigned mask = 0;
    /* real files align their tables; a misaligned one is not read */
    if (!within(len, sh->sh_offset, sh->sh_size) || !within(len, strsh->sh_offset, strsh->sh_size) ||
        sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_offset % 8 != 0)
        return 0;
    const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh->sh_offset);
    const char *str = (const char *)file + strsh->sh_offset;
    for (uint64_t i = 0; i < sh->sh_size / sizeof *sym; i++) {
        if (sym[i].st_shndx == SHN_UNDEF || sym[i].st_name >= strsh->sh_size)
            continue;
        const char *name = str + sym[i].st_name;
        size_t room = strsh->sh_size - sym[i].st_name;
        for (int k = 0; k < count; k++) {
            size_t n = strlen(names[k]);
            if (n < room && memcmp(name, names[k], n + 1) == 0)
                mask |= 1u << k;
        }
    }
    return mask;
}

static void probe_mapped(const unsigned char *file, size_t len, const char *const *names,
                         int count, lf_elf_probe *out)
{
    out->shebang = len >= 2 && file[0] == '#' && file[1] == '!';
    if (len < sizeof(Elf64_Ehdr) || memcmp(file, ELFMAG, SELFMAG) != 0)
        return;
    out->kind = LF_ELF_OTHER;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
        (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff % 8 != 0)
        return;
    if (!within(len, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr))) {
        out->kind = LF_ELF_TRUNCATED;
        return;
    }
    out->kind = LF_ELF_EXECUTABLE;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_link >= eh->e_shnum)
            continue;
        if (sh[i].sh_type == SHT_DYNSYM)
            out->dynamic_mask |= find_names(file, len, &sh[i], &sh[sh[i].sh_link], names, count);
        else if (sh[i].sh_type == SHT_SYMTAB)
            out->static_mask |= find_names(file, len, &sh[i], &sh[sh[i].sh_link], names, count);
    }
}

int lf_elf_probe_symbols(const char *path, const char *const *names, int count,
                         lf_elf_probe *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    if (count > 32)
        count = 32;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lf_fail_errno(err, "cannot open", errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return lf_fail_errno(err, "cannot read", e);
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        close(fd);
        return 0;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED)
        return lf_fail_errno(err, "cannot map", e);
    probe_mapped(map, (size_t)st.st_size, names, count, out);
    munmap(map, (size_t)st.st_size);
    return 0;
}
