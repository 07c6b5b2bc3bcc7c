/* elf_probe.h - which symbols an executable defines, and where: for `leakfind
 * record`, which must know before it starts a program whether that program
 * is OCaml native code that exports its runtime (so the agent can bind to
 * it) or not. */
#ifndef LF_ELF_PROBE_H
#define LF_ELF_PROBE_H

#include "../base/error.h"

typedef enum lf_elf_kind {
    LF_ELF_NOT_ELF = 0,   /* not an ELF file (a script, a bytecode file...) */
    LF_ELF_OTHER,         /* ELF, but not a 64-bit little-endian executable */
    LF_ELF_TRUNCATED,     /* an ELF64 executable whose section headers lie past its end */
    LF_ELF_EXECUTABLE,    /* ELF64 executable or PIE */
} lf_elf_kind;

typedef struct lf_elf_probe {
    lf_elf_kind kind;
    int shebang;          /* the file starts with "#!" */
    /* Per name asked for, bit i: defined in the dynamic symbol table, or
     * defined in the full symbol table. */
    unsigned dynamic_mask, static_mask;
} lf_elf_probe;

/* Looks up names[0..count) (count <= 32) in path's symbol tables. Errors:
 * the file cannot be read (LF_ERR_SYSTEM). A file that is not ELF is not an
 * error: kind says so. */
int lf_elf_probe_symbols(const char *path, const char *const *names, int count,
                         lf_elf_probe *out, lf_error *err);

#endif
