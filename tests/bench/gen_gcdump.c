/* gen_gcdump.c - a .gcdump of N nodes for the benchmark (N = 10,000,000 is
 * the most dotnet-gcdump writes): [.NET Roots] > [static vars] > 1,000
 * [static var ...] nodes, each holding a tree of objects (each object's
 * parent is the object half its rank away, as in a binary heap), every 7th
 * object also referencing one 5,000 ranks back; 16 types of 24 to 120
 * bytes, every 1,000th object a byte array of 20,000 bytes in its size
 * bucket. Written as dotnet-gcdump writes one (tests/unit/gcdump_writer.c).
 * With `cut`, [static vars] lists only the first static: the other trees
 * are objects no root reaches, as in a dump dotnet-gcdump cut short before
 * the roots came (fixtures/dotnet/bad/cut.gcdump.gz).
 * usage: gen_gcdump N OUT.gcdump [cut] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/gcdump_writer.h"

#define STATICS 1000u
#define FIRST_OBJECT (3u + STATICS) /* 0 root, 1 [static vars], 2 [local vars], then the statics */

static const gw_type types[] = {
    {"UNDEFINED", 0}, {"[.NET Roots]", 0}, {"[static vars]", 0}, {"[local vars]", 0},
    {"[static var Acme.Cache.Items]", 0}, {"Acme.Item", 24}, {"System.String", 40},
    {"Acme.Order", 48}, {"System.Collections.Generic.List<Acme.Item>", 32}, {"Acme.Item[]", 88},
    {"Acme.Customer", 56}, {"System.Object[]", 120}, {"Acme.Session", 32},
    {"System.Collections.Generic.Dictionary<System.String,Acme.Order>", 80}, {"Acme.Address", 64},
    {"System.Int32[]", 72}, {"Acme.Line", 40}, {"System.Action", 64}, {"Acme.Token", 24},
    {"System.Byte[] (Bytes > 10K)", 20024},
};
#define TYPE_COUNT (sizeof types / sizeof types[0])
#define FIRST_REAL_TYPE 5u

static uint32_t type_of(uint32_t rank)
{
    if (rank % 1000 == 999)
        return TYPE_COUNT - 1;
    return FIRST_REAL_TYPE + rank % (TYPE_COUNT - 1 - FIRST_REAL_TYPE);
}

/* The nodes' records, their offsets, their addresses. */
static void write_nodes(gw_buf *blob, uint32_t *offset, uint64_t *address, uint32_t n, int64_t *total, int cut)
{
    uint32_t objects = n - FIRST_OBJECT;
    *total = 0;
    gw_cint(blob, 0); /* offset 0: the UNDEFINED record, as the collector writes it */
    gw_cint(blob, 0);
    for (uint32_t i = 0; i < n; i++) {
        offset[i] = (uint32_t)blob->len;
        address[i] = i < FIRST_OBJECT ? 0 : 0x7f0000000000ull + (uint64_t)(i - FIRST_OBJECT) * 64;
        if (i == 0 || i == 1) { /* the root -> [static vars], [local vars]; [static vars] -> the statics */
            uint32_t listed = i ? (cut ? 1 : STATICS) : 2;
            gw_cint(blob, (int32_t)((i ? 2 : 1) << 1));
            gw_cint(blob, (int32_t)listed);
            for (uint32_t k = 0; k < listed; k++)
                gw_cint(blob, (int32_t)((i ? 3 + k : 1 + k) - i));
            continue;
        }
        if (i == 2) { /* [local vars] holds nothing */
            gw_cint(blob, 3 << 1);
            gw_cint(blob, 0);
            continue;
        }
        if (i < FIRST_OBJECT) { /* a static: the root of tree i - 3 */
            gw_cint(blob, 4 << 1);
            gw_cint(blob, 1);
            gw_cint(blob, (int32_t)(FIRST_OBJECT + (i - 3) - i));
            continue;
        }
        uint32_t rank = i - FIRST_OBJECT, t = type_of(rank);
        *total += types[t].size;
        uint32_t kids[3], k = 0;
        for (uint32_t c = 2 * rank + STATICS; c <= 2 * rank + STATICS + 1; c++)
            if (c >= STATICS && c < objects) /* each tree: rank r's children STATICS + 2r, +1 */
                kids[k++] = FIRST_OBJECT + c;
        if (rank % 7 == 0 && rank >= 5000)
            kids[k++] = i - 5000;
        gw_cint(blob, (int32_t)(t << 1));
        gw_cint(blob, (int32_t)k);
        for (uint32_t j = 0; j < k; j++)
            gw_cint(blob, (int32_t)(kids[j] - i));
    }
}

int main(int argc, char **argv)
{
    int cut = argc == 4 && strcmp(argv[3], "cut") == 0;
    if (argc != 3 && !cut) {
        fprintf(stderr, "usage: gen_gcdump N OUT.gcdump [cut]\n");
        return 2;
    }
    uint32_t n = (uint32_t)strtoul(argv[1], NULL, 10);
    if (n < FIRST_OBJECT + 1) {
        fprintf(stderr, "gen_gcdump: N must be above %u\n", FIRST_OBJECT);
        return 2;
    }
    gw_buf blob = {0}, out = {0};
    uint32_t *offset = malloc((size_t)n * sizeof *offset);
    uint64_t *address = malloc((size_t)n * sizeof *address);
    int64_t total;
    if (!offset || !address)
        return 1;
    write_nodes(&blob, offset, address, n, &total, cut);
    if (gw_write_graph_parts(&out, types, TYPE_COUNT, n, offset, blob.data, blob.len, address, total) ||
        blob.failed) {
        fprintf(stderr, "gen_gcdump: out of memory\n");
        return 1;
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f)) {
        perror(argv[2]);
        return 1;
    }
    fprintf(stderr, "gen_gcdump: %u nodes, %zu bytes\n", n, out.len);
    return 0;
}
