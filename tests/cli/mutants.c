/* mutants - the damaged copies of one file that tests/cli/mutation.sh reads:
 * CUTS copies cut short and FLIPS copies with one byte set to 0xff, all
 * written in one process (a cp and a dd per copy were a third of that
 * suite's time). Prints one line per copy: "PATH cut|flip INDEX AT".
 *
 * Cut i of n is at 7i bytes in the first half (the headers), then spread
 * evenly over the file; flip j is at 5j for the first 32, then at a
 * multiplicative hash of j, both modulo the size.
 *
 * usage: mutants FILE CUTS FLIPS DIR */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first len bytes of data, with the byte at changed_at set to 0xff
 * (none when it is negative). */
static int write_copy(const char *path, const unsigned char *data, size_t len, long changed_at)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = 1;
    if (changed_at < 0) {
        ok = fwrite(data, 1, len, f) == len;
    } else {
        size_t at = (size_t)changed_at;
        ok = fwrite(data, 1, at, f) == at && fputc(0xff, f) != EOF &&
             fwrite(data + at + 1, 1, len - at - 1, f) == len - at - 1;
    }
    return fclose(f) == 0 && ok ? 0 : -1;
}

static unsigned char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            unsigned char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static uint64_t cut_at(uint64_t i, uint64_t cuts, uint64_t size)
{
    uint64_t at = i < cuts / 2 ? i * 7 : size * (i - cuts / 2) / (cuts - cuts / 2);
    return at >= size ? size - 1 : at;
}

static uint64_t flip_at(uint64_t j, uint64_t size)
{
    return j < 32 ? j * 5 % size : j * 2654435761u % size;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: mutants FILE CUTS FLIPS DIR\n");
        return 2;
    }
    uint64_t cuts = strtoull(argv[2], NULL, 10), flips = strtoull(argv[3], NULL, 10);
    size_t size = 0;
    unsigned char *data = read_whole(argv[1], &size);
    if (!data || size == 0) {
        fprintf(stderr, "mutants: cannot read %s: %s\n", argv[1], data ? "empty" : strerror(errno));
        return 1;
    }
    char path[4096];
    for (uint64_t i = 0; i < cuts + flips; i++) {
        int cut = i < cuts;
        uint64_t at = cut ? cut_at(i, cuts, size) : flip_at(i - cuts, size);
        snprintf(path, sizeof path, "%s/m%llu", argv[4], (unsigned long long)i);
        if (write_copy(path, data, cut ? at : size, cut ? -1 : (long)at) != 0) {
            fprintf(stderr, "mutants: cannot write %s: %s\n", path, strerror(errno));
            return 1;
        }
        printf("%s %s %llu %llu\n", path, cut ? "cut" : "flip", (unsigned long long)i,
               (unsigned long long)at);
    }
    free(data);
    return 0;
}
