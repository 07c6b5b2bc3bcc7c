/* test_loaders.c - class loaders from HPROF CLASS DUMPs: three
 * GroovyClassLoaders each define their own class "Plugin" (the shape of a
 * class-loader leak), which must stay three classes with three loaders, be
 * grouped per loader, and survive a round trip through a .lfs file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/hprof/hprof.h"
#include "../../core/lfs/lfs.h"
#include "../../core/analysis/loaders.h"
#include "hprof_writer.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

enum { LOADERS = 3 };

/* Classes: Object 0x100, ClassLoader 0x110, GroovyClassLoader 0x120 (all
 * bootstrap), Plugin 0x200 + 0x10 k defined by loader 0x1000 + 0x10 k, which
 * has k + 1 Plugin instances (0x2000 + 0x100 k + 0x10 i); JNI globals hold
 * the loaders and the instances. */
static void build_loaders(hw_buf *b)
{
    hw_begin(b, "JAVA PROFILE 1.0.2", 8);
    static const char *names[] = {"", "java/lang/Object", "java/lang/ClassLoader",
                                  "groovy/lang/GroovyClassLoader", "Plugin"};
    for (uint64_t i = 1; i < sizeof names / sizeof names[0]; i++)
        hw_string(b, i, names[i]);
    hw_load_class(b, 1, 0x100, 1);
    hw_load_class(b, 2, 0x110, 2);
    hw_load_class(b, 3, 0x120, 3);
    for (uint32_t k = 0; k < LOADERS; k++)
        hw_load_class(b, 4 + k, 0x200 + 0x10 * k, 4);
    hw_record(b, 0x1c);
    hw_class_dump(b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x110, 0x100, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x120, 0x110, 0, 0, 0, NULL, NULL);
    for (uint64_t k = 0; k < LOADERS; k++) {
        hw_class_dump(b, 0x200 + 0x10 * k, 0x100, 0x1000 + 0x10 * k, 0, 0, NULL, NULL);
        hw_u1(b, 0x01); /* JNI global */
        hw_id(b, 0x1000 + 0x10 * k);
        hw_id(b, 1);
        hw_instance(b, 0x1000 + 0x10 * k, 0x120, NULL, 0);
        for (uint64_t i = 0; i <= k; i++) {
            hw_u1(b, 0x01);
            hw_id(b, 0x2000 + 0x100 * k + 0x10 * i);
            hw_id(b, 1);
            hw_instance(b, 0x2000 + 0x100 * k + 0x10 * i, 0x200 + 0x10 * k, NULL, 0);
        }
    }
    hw_record_end(b);
    hw_record(b, 0x2c);
    hw_record_end(b);
}

static void check_loaders(const lf_snapshot *s)
{
    CHECK(s->class_loader != NULL);
    if (!s->class_loader)
        return;
    uint32_t plugins = 0;
    for (uint32_t c = 0; c < s->class_count; c++) {
        lf_str name = lf_snapshot_class_name(s, c);
        uint32_t loader = s->class_loader[c];
        if (!test_str_is(name, "Plugin")) {
            CHECK_EQ_U64(loader, LF_NODE_NONE); /* the JDK's classes: bootstrap */
            continue;
        }
        plugins++;
        CHECK(loader < s->object_count);
        if (loader >= s->object_count)
            continue;
        uint64_t id = lf_snapshot_object_id(s, loader);
        CHECK(id == 0x1000 || id == 0x1010 || id == 0x1020);
        char label[128], want[128];
        size_t len = lf_loader_label(s, loader, label, sizeof label);
        snprintf(want, sizeof want, "groovy.lang.GroovyClassLoader 0x%llx", (unsigned long long)id);
        CHECK(len == strlen(want) && memcmp(label, want, len) == 0);
    }
    CHECK_EQ_U64(plugins, LOADERS);

    lf_loader_groups g;
    lf_class_totals t;
    lf_error err;
    CHECK(lf_loader_groups_make(s, &g, &err) == 0);
    CHECK_EQ_U64(g.count, 1 + LOADERS);
    CHECK(lf_group_totals_compute(s, g.of_node, g.count, &t, &err) == 0);
    for (uint32_t k = 0; k < g.count; k++) {
        if (g.loader[k] == LF_NODE_NONE) {
            /* Object, ClassLoader, GroovyClassLoader and java.lang.Class (the
             * reader adds it for the class objects); instances: the loaders
             * and the 3 + LOADERS class objects */
            CHECK_EQ_U64(g.classes[k], 4);
            CHECK_EQ_U64(t.count[k], LOADERS + 3 + LOADERS);
            continue;
        }
        uint64_t id = lf_snapshot_object_id(s, g.loader[k]);
        CHECK_EQ_U64(g.classes[k], 1);
        CHECK_EQ_U64(t.count[k], (id - 0x1000) / 0x10 + 1);
    }
    lf_class_totals_free(&t);
    lf_loader_groups_free(&g);
}

void test_hprof_class_loaders(void)
{
    hw_buf b;
    build_loaders(&b);
    lf_snapshot s;
    lf_error err;
    if (test_parse_hprof(&b, &s))
        return;
    check_loaders(&s);
    /* the CLDR chunk keeps them in a .lfs file */
    char path[256];
    test_tmp_path(path, sizeof path, "loaders.lfs");
    CHECK(lf_lfs_write(&s, path, &err) == 0);
    lf_snapshot back;
    CHECK(lf_lfs_open(path, &back, &err) == 0);
    check_loaders(&back);
    CHECK(back.class_loader && memcmp(back.class_loader, s.class_loader, s.class_count * 4) == 0);
    lf_snapshot_free(&back);
    unlink(path);
    lf_snapshot_free(&s);
    hw_free(&b);
}
