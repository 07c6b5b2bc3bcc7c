/* elf_core.h - which runtime an ELF core file (a process's memory) comes
 * from, by the files its NT_FILE note says were mapped: a .NET core
 * (dotnet-dump collect, createdump) maps libcoreclr.so, a JVM's libjvm.so.
 * leakfind reads a .NET core through its .NET agent (cmd/cli/dotnet_core.c,
 * docs/DOTNET.md); for a JVM core it says how to write a heap dump. */
#ifndef LF_ELF_CORE_H
#define LF_ELF_CORE_H

#include <stddef.h>
#include <stdint.h>

typedef enum lf_core_runtime {
    LF_CORE_NOT_CORE = 0, /* not an ELF64 little-endian core */
    LF_CORE_OTHER,        /* a core, of no runtime leakfind knows (or its notes are cut) */
    LF_CORE_DOTNET,       /* maps libcoreclr.so */
    LF_CORE_JVM,          /* maps libjvm.so */
} lf_core_runtime;

/* data[0..size): the whole file, or as much of it as there is. Reads
 * nothing outside it, whatever the headers say. */
lf_core_runtime lf_elf_core_runtime(const uint8_t *data, size_t size);
/* Where the core's last segment ends (its PT_LOAD and PT_NOTE file
 * extents): a core shorter than that was cut. 0 when data is no core. */
uint64_t lf_elf_core_extent(const uint8_t *data, size_t size);
/* The same for the regular file open on fd (mapped, not read whole);
 * LF_CORE_NOT_CORE when it cannot be mapped. */
lf_core_runtime lf_elf_core_runtime_fd(int fd);
uint64_t lf_elf_core_extent_fd(int fd);

#endif
