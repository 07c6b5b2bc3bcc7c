/* test_hprof_sizes.c - HotSpot shallow sizes checked against the dump's own
 * addresses: HotSpot writes each object's address as its id, and objects in a
 * heap space lie back to back, so an object's size is the gap to the next. */
#include <stdlib.h>
#include <string.h>

#include "../../core/base/error.h"
#include "../../core/input/open.h"
#include "../../core/model/snapshot.h"
#include "test.h"
#include "tests.h"

typedef struct placed {
    uint64_t address, size;
    int is_mirror;
} placed;

static int by_address(const void *a, const void *b)
{
    uint64_t x = ((const placed *)a)->address, y = ((const placed *)b)->address;
    return x < y ? -1 : x > y;
}

typedef struct gap_counts {
    uint64_t objects, exact, overlapping, space_ends, mirrors_exact, mirrors_checked;
} gap_counts;

/* Every object's size against the gap to the next address. */
static int count_gaps(const char *path, gap_counts *out)
{
    lf_snapshot s;
    lf_error err = {0};
    memset(out, 0, sizeof *out);
    if (lf_open(path, NULL, &s, &err) != 0) {
        fprintf(stderr, "  %s: %s\n", path, err.reason);
        return -1;
    }
    placed *p = malloc((size_t)s.object_count * sizeof *p);
    if (!p) {
        lf_snapshot_free(&s);
        return -1;
    }
    for (uint32_t n = 0; n < s.object_count; n++) {
        lf_str cls = lf_snapshot_class_name(&s, s.object_class[n]);
        p[n].address = lf_snapshot_object_id(&s, n);
        p[n].size = lf_snapshot_shallow(&s, n);
        p[n].is_mirror = cls.len == 15 && memcmp(cls.ptr, "java.lang.Class", 15) == 0;
    }
    qsort(p, s.object_count, sizeof *p, by_address);
    out->objects = s.object_count;
    for (uint32_t i = 0; i + 1 < s.object_count; i++) {
        uint64_t gap = p[i + 1].address - p[i].address;
        if (gap == p[i].size) {
            out->exact++;
            out->mirrors_exact += p[i].is_mirror;
        } else if (gap < p[i].size) {
            out->overlapping++;
            fprintf(stderr, "  %s: object at 0x%llx: size %llu, next object %llu bytes on\n", path,
                    (unsigned long long)p[i].address, (unsigned long long)p[i].size,
                    (unsigned long long)gap);
        } else {
            out->space_ends++;
        }
        out->mirrors_checked += p[i].is_mirror;
    }
    free(p);
    lf_snapshot_free(&s);
    return 0;
}

/* The rule: no object may reach past the next one (size <= gap), and size ==
 * gap for every object but the last of each heap space. The fixtures run with
 * SerialGC, whose heap has four spaces (eden, two survivors, old), so at most
 * three gaps may be larger than the object before them; in these dumps there
 * is exactly one (the old generation's end). Every class object (mirror, the
 * size the dump does not give) must match its gap exactly. */
void test_hprof_address_gaps(void)
{
    static const char *dumps[] = {
        "fixtures/java/dumps/vm_shapes.hprof.gz",
        "fixtures/java/dumps/planted_leak.hprof",
        "fixtures/java/dumps/planted_leak_nocoops.hprof",
        "fixtures/java/dumps/weak_cache.hprof",
        "fixtures/java/dumps/stack_local.hprof",
        "fixtures/java/dumps/class_loader_leak.hprof",
    };
    for (size_t d = 0; d < sizeof dumps / sizeof dumps[0]; d++) {
        gap_counts g;
        if (count_gaps(dumps[d], &g) != 0) {
            CHECK(!"fixture dump readable");
            continue;
        }
        CHECK(g.objects > 9000);
        CHECK_EQ_U64(g.overlapping, 0);
        CHECK(g.space_ends <= 3);
        CHECK_EQ_U64(g.exact + g.overlapping + g.space_ends, g.objects - 1);
        CHECK(g.mirrors_checked > 400);
        CHECK_EQ_U64(g.mirrors_exact, g.mirrors_checked);
        if (test_failures)
            fprintf(stderr, "  %s: %llu objects, %llu exact, %llu mirrors of which %llu exact\n", dumps[d],
                    (unsigned long long)g.objects, (unsigned long long)g.exact,
                    (unsigned long long)g.mirrors_checked, (unsigned long long)g.mirrors_exact);
    }
}
