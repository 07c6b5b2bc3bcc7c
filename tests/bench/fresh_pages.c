/* fresh_pages.c - what this machine charges for memory a process touches
 * for the first time: 512 MiB mapped, touched a page at a time, unmapped,
 * four rounds, first in 4 KiB pages and then advised onto 2 MiB pages; and
 * a memset of the same memory once it is in. On the project's virtual
 * machine the first touch, not leakfind's own work, is what a quarter to a
 * third of a run's CPU goes to (BENCHMARKS.md, Part 2).
 * usage: cc -O2 tests/bench/fresh_pages.c -o fresh_pages && ./fresh_pages */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { MIB = 1u << 20, ROUNDS = 4 };

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One round: 0 when done, -1 when the mapping failed. */
static int round_of(size_t bytes, int huge, int round)
{
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    if (huge)
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice: without it the round is in 4 KiB pages */
    double start = seconds();
    for (size_t i = 0; i < bytes; i += 4096)
        p[i] = 1;
    double touched = seconds();
    memset(p, 0, bytes);
    double cleared = seconds();
    printf("%s pages, round %d: first touch %.0f ms (%.2f GB/s), memset once in %.0f ms (%.1f GB/s)\n",
           huge ? "2 MiB" : "4 KiB", round, (touched - start) * 1e3, bytes / (touched - start) / 1e9,
           (cleared - touched) * 1e3, bytes / (cleared - touched) / 1e9);
    munmap(p, bytes);
    return 0;
}

int main(void)
{
    const size_t bytes = 512u * MIB;
    for (int huge = 0; huge < 2; huge++)
        for (int round = 0; round < ROUNDS; round++)
            if (round_of(bytes, huge, round))
                return perror("mmap"), 1;
    return 0;
}
