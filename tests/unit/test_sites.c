/* test_sites.c - allocation sites: interning, the writer API, the .lfs
 * chunks and the sampled estimates, against values worked out by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/base/bigmem.h"
#include "../../core/lfs/lfs.h"
#include "../../core/writer/lfs_writer.h"
#include "../../core/analysis/site_groups.h"
#include "../../core/model/site_table.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

void test_site_table_interning(void)
{
    lf_site_table t;
    CHECK(lf_site_table_init(&t) == 0);
    int64_t f1 = lf_site_table_frame(&t, 1, 2, 3, 4), f2 = lf_site_table_frame(&t, 5, 2, 9, 0);
    CHECK(f1 == 1 && f2 == 2);
    CHECK(lf_site_table_frame(&t, 1, 2, 3, 4) == f1);
    int64_t outer = lf_site_table_site(&t, 0, (uint32_t)f2);
    int64_t inner = lf_site_table_site(&t, (uint32_t)outer, (uint32_t)f1);
    CHECK(outer == 1 && inner == 2);
    CHECK(lf_site_table_site(&t, (uint32_t)outer, (uint32_t)f1) == inner);
    CHECK(lf_site_table_site(&t, 0, (uint32_t)f1) == 3); /* same frame, another stack */
    CHECK(lf_site_table_site(&t, 99, (uint32_t)f1) < 0); /* no such caller */
    CHECK(lf_site_table_site(&t, 0, 99) < 0);            /* no such frame */
    /* many distinct frames: the table grows and still finds each */
    for (uint32_t i = 0; i < 5000; i++)
        CHECK(lf_site_table_frame(&t, i, 7, i, 1) == 3 + (int64_t)i);
    CHECK(lf_site_table_frame(&t, 4321, 7, 4321, 1) == 3 + 4321);
    lf_site_table_free(&t);
}

/* Three objects: two of 3 words allocated at parse < main with 1 and 2
 * samples, one of 5 words at main with 1 sample; one object without a site.
 * Rate 0.01 per word. */
void test_sites_writer_sampled(void)
{
    char path[256];
    test_tmp_path(path, sizeof path, "sites.lfs");
    lfs_writer *w = lfs_writer_new(0);
    int64_t cls = lfs_writer_class(w, "block");
    CHECK(lfs_writer_object(w, 1, cls, 8) == 0);
    CHECK(lfs_writer_object(w, 2, cls, 24) == 0);
    CHECK(lfs_writer_object(w, 3, cls, 24) == 0);
    CHECK(lfs_writer_object(w, 4, cls, 40) == 0);
    for (uint64_t id = 2; id <= 4; id++)
        CHECK(lfs_writer_reference(w, 1, id, "x") == 0);
    CHECK(lfs_writer_root(w, 1, "global", "g") == 0);
    int64_t main_f = lfs_writer_frame(w, "Main.main", "main.ml", 10, 2);
    int64_t parse_f = lfs_writer_frame(w, "Parser.parse", "parser.ml", 88, 4);
    int64_t at_main = lfs_writer_site(w, 0, main_f);
    int64_t at_parse = lfs_writer_site(w, at_main, parse_f);
    CHECK(at_main == 1 && at_parse == 2);
    CHECK(lfs_writer_allocated_at(w, 2, at_parse, 1) == 0);
    CHECK(lfs_writer_allocated_at(w, 3, at_parse, 2) == 0);
    CHECK(lfs_writer_allocated_at(w, 4, at_main, 1) == 0);
    CHECK(lfs_writer_allocated_at(w, 77, at_main, 1) == 0); /* no such object: dropped */
    CHECK(lfs_writer_allocated_at(w, 4, 99, 1) < 0);        /* no such site */
    lfs_writer_sample_rate(w, 0.01);
    char msg[256];
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) == 0);

    lf_snapshot s;
    lf_error err;
    CHECK(lf_lfs_open(path, &s, &err) == 0);
    CHECK(s.object_site != NULL && s.object_samples != NULL);
    CHECK(s.sample_rate == 0.01);
    CHECK_EQ_U64(s.frame_count, 3);
    CHECK_EQ_U64(s.site_count, 3);
    uint32_t n2 = lf_snapshot_find_id(&s, 2), n4 = lf_snapshot_find_id(&s, 4);
    CHECK_EQ_U64(s.object_site[lf_snapshot_find_id(&s, 1)], 0);
    CHECK_EQ_U64(s.object_site[n2], 2);
    CHECK_EQ_U64(s.object_samples[n2], 1);
    CHECK_EQ_U64(s.object_site[n4], 1);
    char label[256];
    lf_site_label(&s, s.object_site[n2], 0, label, sizeof label);
    CHECK(strcmp(label, "Parser.parse (parser.ml:88:4) < Main.main (main.ml:10:2)") == 0);
    lf_site_label(&s, s.object_site[n2], 1, label, sizeof label);
    CHECK(strcmp(label, "Parser.parse (parser.ml:88:4)") == 0);

    lf_site_groups g;
    CHECK(lf_site_groups_make(&s, 1, &g, &err) == 0);
    uint32_t *group = lf_site_groups_of_nodes(&s, &g);
    CHECK(group != NULL && g.count == 3);
    double est_count[3], est_bytes[3];
    lf_site_estimates(&s, group, g.count, est_count, est_bytes);
    const double p3 = 1 - pow(0.99, 3), p5 = 1 - pow(0.99, 5);
    uint32_t parse_g = group[n2], main_g = group[n4];
    CHECK(fabs(est_count[parse_g] - 2 / p3) < 1e-9);
    CHECK(fabs(est_bytes[parse_g] - 3 / 0.01 * 8) < 1e-9);
    CHECK(fabs(est_count[main_g] - 1 / p5) < 1e-9);
    CHECK(fabs(est_bytes[main_g] - 1 / 0.01 * 8) < 1e-9);
    CHECK(est_count[0] == 0 && est_bytes[0] == 0);
    lf_big_free(group);
    lf_site_groups_free(&g);
    lf_snapshot_free(&s);
    unlink(path);
}

/* The byte offset of chunk `id` in a leakfind file (docs/FORMAT.md), 0 if absent. */
static uint64_t chunk_offset(const unsigned char *data, size_t size, const char *id)
{
    uint32_t count = (uint32_t)data[16] | (uint32_t)data[17] << 8;
    for (uint32_t i = 0; i < count && 64 + 32 * (size_t)(i + 1) <= size; i++) {
        const unsigned char *e = data + 64 + 32 * (size_t)i;
        if (memcmp(e, id, 4) == 0) {
            uint64_t off = 0;
            for (int b = 7; b >= 0; b--)
                off = off << 8 | e[8 + b];
            return off;
        }
    }
    return 0;
}

/* A site whose caller is not a smaller site (a loop), an object naming a
 * site past the table, a frame naming a string past the table: each is
 * refused at open with the chunk, the entry and its byte offset, even when
 * the checksums are skipped (a hostile file can carry valid ones). */
void test_sites_lfs_corrupt(void)
{
    char path[256];
    test_tmp_path(path, sizeof path, "sites-bad.lfs");
    lfs_writer *w = lfs_writer_new(0);
    int64_t cls = lfs_writer_class(w, "block");
    CHECK(lfs_writer_object(w, 1, cls, 16) == 0);
    CHECK(lfs_writer_root(w, 1, "global", "g") == 0);
    int64_t f = lfs_writer_frame(w, "f", "a.ml", 1, 1);
    int64_t site = lfs_writer_site(w, 0, f);
    CHECK(lfs_writer_allocated_at(w, 1, site, 0) == 0);
    char msg[256];
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) == 0);
    unsigned char data[8192];
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    if (!fp)
        return;
    size_t size = fread(data, 1, sizeof data, fp);
    fclose(fp);
    const struct {
        const char *chunk;
        size_t at;        /* byte within the chunk */
        unsigned char value;
        const char *detail;
        size_t entry_at;  /* where the bad entry starts within the chunk */
    } cases[] = {
        {"SITE", 12, 1, "chunk SITE entry 1 has invalid value 1", 8},     /* site 1's caller: itself */
        {"OSIT", 0, 9, "chunk OSIT entry 0 has invalid value 9", 0},      /* object 0 at site 9 of 2 */
        {"FRAM", 16, 200, "chunk FRAM entry 1 has invalid value 200", 16}, /* frame 1's function string */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t off = chunk_offset(data, size, cases[i].chunk);
        CHECK(off > 0 && off + cases[i].at < size);
        if (!off)
            continue;
        unsigned char saved = data[off + cases[i].at];
        data[off + cases[i].at] = cases[i].value;
        fp = fopen(path, "wb");
        fwrite(data, 1, size, fp);
        fclose(fp);
        data[off + cases[i].at] = saved;
        lf_snapshot s;
        lf_error err;
        CHECK(lf_lfs_open_flags(path, LF_LFS_SKIP_CHECKSUMS, &s, &err) == -1);
        CHECK(strcmp(err.detail, cases[i].detail) == 0);
        CHECK(err.where == LF_WHERE_OFFSET && err.position == off + cases[i].entry_at);
        if (strcmp(err.detail, cases[i].detail) != 0)
            fprintf(stderr, "  case %zu: '%s'\n", i, err.detail);
    }
    unlink(path);
}
