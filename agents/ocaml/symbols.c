/* symbols.c - names from the ELF symbol tables of the program and of every
 * shared object loaded in it.
 *
 * Module blocks (`camlLeaky`), function code (`camlLeaky__serve_271`) and C
 * globals are named by reading /proc/self/exe and each loaded object's file:
 * the full symbol table when the file is not stripped, the dynamic one
 * otherwise (programs linked with `-ccopt -Wl,-E` or for natdynlink export
 * every runtime and module symbol; a Dynlink plugin's .cmxs exports its
 * modules). Each object's symbols are shifted by its load bias, which the
 * dynamic loader reports, the main program first. Plugins load while the
 * program runs: the tables are read again when the set of objects grew. */
#include "agent.h"

#include "../../core/base/bigmem.h"
#include "../../core/base/vec.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static agent_symbols loaded;
static int load_state; /* 0 not tried, 1 loaded, -1 failed */
static size_t loaded_objects; /* objects the table was read from */

typedef struct object_list {
    char path[64][512];
    uintptr_t bias[64];
    size_t count;
} object_list;

/* The loaded objects with a file: the main program (/proc/self/exe) first. */
static int list_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    object_list *l = data;
    if (l->count == 64)
        return 1;
    const char *name = l->count == 0 ? "/proc/self/exe" : info->dlpi_name;
    if (!name || !name[0])
        return 0; /* the vDSO */
    snprintf(l->path[l->count], sizeof l->path[l->count], "%s", name);
    l->bias[l->count++] = (uintptr_t)info->dlpi_addr;
    return 0;
}

static int count_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)info, (void)size;
    ++*(size_t *)data;
    return 0;
}

/* Labels that mark a unit's code or data bounds share an address with the
 * real symbol; the real one sorts first. */
static int is_bound_label(const char *name)
{
    size_t n = strlen(name);
    return (n > 6 && strcmp(name + n - 6, "_begin") == 0) ||
           (n > 4 && strcmp(name + n - 4, "_end") == 0);
}

static int by_address(const void *a, const void *b)
{
    const agent_symbol *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    int bx = is_bound_label(x->name), by = is_bound_label(y->name);
    if (bx != by)
        return bx - by;
    return strcmp(x->name, y->name);
}

/* Appends the defined symbols of one symbol section; the section's bounds are
 * checked against the mapped file first. */
static void add_section(agent_symbols *s, size_t *cap, const unsigned char *file, size_t len,
                        const Elf64_Shdr *sh, const Elf64_Shdr *strsh, uintptr_t bias)
{
    if (sh->sh_offset > len || sh->sh_size > len - sh->sh_offset ||
        strsh->sh_offset > len || strsh->sh_size > len - strsh->sh_offset ||
        sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_offset % 8 != 0)
        return;
    const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh->sh_offset);
    size_t n = sh->sh_size / sizeof *sym;
    const char *strtab = (const char *)file + strsh->sh_offset;
    for (size_t i = 0; i < n; i++) {
        int type = ELF64_ST_TYPE(sym[i].st_info);
        if (sym[i].st_shndx == SHN_UNDEF || sym[i].st_shndx >= SHN_LORESERVE ||
            sym[i].st_name >= strsh->sh_size || sym[i].st_value == 0 ||
            (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE))
            continue;
        const char *name = strtab + sym[i].st_name;
        if (!memchr(name, 0, strsh->sh_size - sym[i].st_name) || !name[0] || name[0] == '.')
            continue;
        if (lf_vec_reserve((void **)&s->sym, cap, s->count + 1, sizeof *s->sym))
            return;
        s->sym[s->count++] = (agent_symbol){(uintptr_t)sym[i].st_value + bias,
                                            (uintptr_t)sym[i].st_size, name};
    }
}

/* One object's symbols, its file mapped for as long as the table lives. */
static void load_object(agent_symbols *s, size_t *cap, const char *path, uintptr_t bias)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(Elf64_Ehdr))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED || s->map_count == sizeof s->map / sizeof s->map[0]) {
        if (map != MAP_FAILED)
            munmap(map, (size_t)st.st_size);
        return;
    }
    s->map[s->map_count] = map;
    s->map_len[s->map_count++] = (size_t)st.st_size;
    const unsigned char *file = map;
    const Elf64_Ehdr *eh = map;
    size_t len = (size_t)st.st_size;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff % 8 != 0 || eh->e_shoff > len ||
        (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff)
        return;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
    for (size_t i = 0; i < eh->e_shnum; i++)
        if ((sh[i].sh_type == SHT_SYMTAB || sh[i].sh_type == SHT_DYNSYM) && sh[i].sh_link < eh->e_shnum)
            add_section(s, cap, file, len, &sh[i], &sh[sh[i].sh_link], bias);
}

static void unload(agent_symbols *s)
{
    for (size_t i = 0; i < s->map_count; i++)
        munmap(s->map[i], s->map_len[i]);
    lf_big_free(s->sym);
    memset(s, 0, sizeof *s);
}

static int load(agent_symbols *s)
{
    static object_list objects; /* 32 KB: not on the program's stack */
    objects.count = 0;
    dl_iterate_phdr(list_object, &objects);
    size_t cap = 0;
    for (size_t i = 0; i < objects.count; i++)
        load_object(s, &cap, objects.path[i], objects.bias[i]);
    if (s->count == 0)
        return -1;
    qsort(s->sym, s->count, sizeof *s->sym, by_address);
    return 0;
}

const agent_symbols *agent_symbols_get(void)
{
    size_t objects = 0;
    dl_iterate_phdr(count_object, &objects);
    if (load_state != 0 && objects != loaded_objects) { /* a plugin came */
        unload(&loaded);
        load_state = 0;
    }
    if (load_state == 0) {
        loaded_objects = objects;
        load_state = load(&loaded) == 0 ? 1 : -1;
    }
    return load_state == 1 ? &loaded : NULL;
}

/* Index of the last symbol at or below a, or count when there is none. */
static size_t last_at_or_below(const agent_symbols *s, uintptr_t a)
{
    size_t lo = agent_keys_at_most(s->sym, s->count, sizeof *s->sym, offsetof(agent_symbol, addr), a);
    return lo == 0 ? s->count : lo - 1;
}

const agent_symbol *agent_symbol_at(const agent_symbols *s, uintptr_t addr)
{
    if (!s)
        return NULL;
    size_t i = last_at_or_below(s, addr);
    if (i == s->count)
        return NULL;
    while (i > 0 && s->sym[i - 1].addr == addr)
        i--;
    return s->sym[i].addr == addr ? &s->sym[i] : NULL;
}

const agent_symbol *agent_symbol_holding(const agent_symbols *s, uintptr_t a)
{
    if (!s)
        return NULL;
    size_t i = last_at_or_below(s, a);
    if (i == s->count)
        return NULL;
    while (i > 0 && s->sym[i - 1].addr == s->sym[i].addr)
        i--;
    const agent_symbol *sym = &s->sym[i];
    if (sym->size ? a - sym->addr < sym->size : 1)
        return sym;
    return NULL;
}

void agent_demangle(const char *symbol, char *out, size_t outlen)
{
    lf_ocaml_symbol(symbol, out, outlen);
}

const agent_symbol *agent_symbol_named(const agent_symbols *s, const char *name)
{
    for (size_t i = 0; s && i < s->count; i++)
        if (strcmp(s->sym[i].name, name) == 0)
            return &s->sym[i];
    return NULL;
}
