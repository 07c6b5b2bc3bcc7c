/* test_hprof.c - the HPROF reader on dumps built by a test writer: Android
 * 1.0.3 with 4-byte ids, ART root kinds, heap-info records, arrays without
 * data and instances written before their class; and broken files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/file.h"
#include "../../core/hprof/hprof.h"
#include "../../core/lfs/lfs.h"
#include "hprof_writer.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"
#include "../../core/base/bigmem.h"

enum { T_OBJECT = 2, T_BYTE = 8, T_INT = 10, T_LONG = 11 };

static uint32_t find_root(const lf_snapshot *s, const char *kind)
{
    for (uint32_t r = 0; r < s->root_count; r++)
        if (test_str_is(lf_snapshot_string(s, s->root[r].kind), kind))
            return r;
    return UINT32_MAX;
}

/* An ART-style dump. Sids 1.., classes 0x100.., objects 0x1000.. */
static void build_android(hw_buf *b)
{
    static const char *names[] = {"", "java/lang/Object", "java/lang/Class", "java/lang/ref/Reference",
                                  "java/lang/ref/WeakReference", "com/app/Holder", "referent", "items",
                                  "[Ljava/lang/Object;", "next", "app", "com/app/Item", "data"};
    hw_begin(b, "JAVA PROFILE 1.0.3", 4);
    for (uint64_t i = 1; i < sizeof names / sizeof names[0]; i++)
        hw_string(b, i, names[i]);
    /* class id -> name sid */
    static const uint64_t class_id[] = {0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700};
    static const uint64_t class_sid[] = {1, 2, 3, 4, 5, 8, 11};
    for (int i = 0; i < 7; i++)
        hw_load_class(b, (uint32_t)i + 1, class_id[i], class_sid[i]);

    hw_record(b, 0x1c);
    hw_u1(b, 0xfe); /* HEAP DUMP INFO: the app heap */
    hw_u4(b, 'A');
    hw_id(b, 10);
    hw_u1(b, 0x8d); /* VM internal -> the Holder */
    hw_id(b, 0x1000);
    hw_u1(b, 0x8b); /* debugger -> the WeakReference */
    hw_id(b, 0x4000);
    hw_u1(b, 0x89); /* interned string -> an Item */
    hw_id(b, 0x3030);
    hw_u1(b, 0x8e); /* JNI monitor of a thread the dump does not describe */
    hw_id(b, 0x3040);
    hw_u4(b, 1);
    hw_u4(b, 0xffffffff);
    hw_u1(b, 0x90); /* unreachable (ART's marker), a root as in Eclipse MAT */
    hw_id(b, 0x3050);
    for (int i = 0; i < 7; i++) {
        hw_u1(b, 0x05); /* sticky class */
        hw_id(b, class_id[i]);
    }
    /* instances before their classes, as ART writes them */
    uint8_t holder[12] = {0, 0, 0x20, 0x00, /* items */ 0, 0, 0, 0, /* next */ 0, 0, 0x50, 0x00};
    hw_instance(b, 0x1000, 0x500, holder, 12);
    uint64_t elems[2] = {0x3000, 0x3010};
    hw_obj_array(b, 0x2000, 0x600, 2, elems);
    hw_instance(b, 0x3000, 0x700, NULL, 0);
    hw_instance(b, 0x3010, 0x700, NULL, 0);
    hw_instance(b, 0x3030, 0x700, NULL, 0);
    hw_instance(b, 0x3040, 0x700, NULL, 0);
    hw_instance(b, 0x3050, 0x700, NULL, 0);
    uint8_t weak[4] = {0, 0, 0x30, 0x20}; /* referent */
    hw_instance(b, 0x4000, 0x400, weak, 4);
    hw_u1(b, 0xc3); /* PRIMITIVE ARRAY NODATA: byte[100] */
    hw_id(b, 0x5000);
    hw_u4(b, 0);
    hw_u4(b, 100);
    hw_u1(b, T_BYTE);
    /* the classes; ART instance sizes are real object sizes */
    uint64_t ref_sid = 6, holder_sids[3] = {7, 9, 12};
    uint8_t obj = T_OBJECT, holder_types[3] = {T_OBJECT, T_OBJECT, T_OBJECT};
    hw_class_dump(b, 0x100, 0, 0, 8, 0, NULL, NULL);
    hw_class_dump(b, 0x200, 0x100, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x300, 0x100, 0, 24, 1, &ref_sid, &obj);
    hw_class_dump(b, 0x400, 0x300, 0, 24, 0, NULL, NULL);
    hw_class_dump(b, 0x500, 0x100, 0, 24, 3, holder_sids, holder_types);
    hw_class_dump(b, 0x600, 0x100, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x700, 0x100, 0, 16, 0, NULL, NULL);
    hw_record_end(b);
    hw_record(b, 0x0b); /* END THREAD: a record the graph does not need */
    hw_u4(b, 1);
    hw_record_end(b);
    hw_record(b, 0x1c); /* a second segment: the weak referent */
    hw_u1(b, 0xfe);
    hw_u4(b, 'A');
    hw_id(b, 10);
    hw_instance(b, 0x3020, 0x700, NULL, 0);
    hw_record_end(b);
    hw_record(b, 0x2c);
    hw_record_end(b);
}

static int parse_buf(const hw_buf *b, unsigned flags, lf_snapshot *s, lf_error *err)
{
    return lf_hprof_parse(b->data, b->len, flags, 2, s, err);
}

void test_hprof_android(void)
{
    hw_buf b;
    build_android(&b);
    lf_snapshot s;
    lf_error err;
    int rc = parse_buf(&b, 0, &s, &err);
    CHECK(rc == 0);
    if (rc) {
        char msg[300];
        lf_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "  %s\n", msg);
        hw_free(&b);
        return;
    }
    CHECK_EQ_U64(s.object_count, 10 + 7);
    CHECK_EQ_U64(s.stats.dangling_edges, 0);
    uint32_t holder = lf_snapshot_find_id(&s, 0x1000), array = lf_snapshot_find_id(&s, 0x2000);
    uint32_t weak = lf_snapshot_find_id(&s, 0x4000), bytes = lf_snapshot_find_id(&s, 0x5000);
    uint32_t referent = lf_snapshot_find_id(&s, 0x3020);
    CHECK(test_str_is(lf_snapshot_class_name(&s, s.object_class[holder]), "com.app.Holder"));
    CHECK(test_str_is(lf_snapshot_class_name(&s, s.object_class[array]), "java.lang.Object[]"));
    CHECK(test_str_is(lf_snapshot_class_name(&s, s.object_class[bytes]), "byte[]"));
    CHECK(test_str_is(lf_snapshot_object_label(&s, lf_snapshot_find_id(&s, 0x500)), "class com.app.Holder"));
    /* ART: instance sizes from the class; arrays: 12-byte header, 8-aligned */
    CHECK_EQ_U64(lf_snapshot_shallow(&s, holder), 24);
    CHECK_EQ_U64(lf_snapshot_shallow(&s, weak), 24);
    CHECK_EQ_U64(lf_snapshot_shallow(&s, array), 24);  /* 12 + 2 * 4 = 20 -> 24 */
    CHECK_EQ_U64(lf_snapshot_shallow(&s, bytes), 112); /* 12 + 100 */
    /* Holder: <class>, items, data (next is null) */
    CHECK_EQ_U64(lf_snapshot_edges_end(&s, holder) - lf_snapshot_edges_begin(&s, holder), 3);
    /* roots: 5 ART/other kinds + 7 system classes */
    CHECK_EQ_U64(s.root_count, 12);
    CHECK(find_root(&s, "VM internal") != UINT32_MAX);
    CHECK(find_root(&s, "debugger") != UINT32_MAX);
    CHECK(find_root(&s, "interned string") != UINT32_MAX);
    CHECK(find_root(&s, "unreachable") != UINT32_MAX);
    uint32_t monitor = find_root(&s, "JNI monitor");
    CHECK(monitor != UINT32_MAX);
    if (monitor != UINT32_MAX)
        CHECK(test_str_is(lf_snapshot_string(&s, s.root[monitor].name), "thread serial 1"));
    CHECK(lf_analyze(&s, 0, 2, &err) == 0);
    /* the referent is only weakly held: unreachable, not retained */
    CHECK_EQ_U64(s.idom[referent], LF_NODE_NONE);
    CHECK_EQ_U64(lf_snapshot_retained(&s, weak), 24);
    /* Holder owns its array, the two Items in it and the byte[]: 24+24+16+16+112 */
    CHECK_EQ_U64(lf_snapshot_retained(&s, holder), 192);
    CHECK_EQ_U64(s.idom[array], holder);
    lf_snapshot_free(&s);

    /* with all references strong, the WeakReference owns its referent */
    CHECK(parse_buf(&b, LF_HPROF_ALL_STRONG, &s, &err) == 0);
    CHECK(lf_analyze(&s, 0, 2, &err) == 0);
    CHECK_EQ_U64(lf_snapshot_retained(&s, lf_snapshot_find_id(&s, 0x4000)), 24 + 16);
    lf_snapshot_free(&s);
    hw_free(&b);
}

static void expect_error(const hw_buf *b, const char *want)
{
    lf_snapshot s;
    lf_error err;
    CHECK(parse_buf(b, 0, &s, &err) == -1);
    char msg[300];
    lf_error_format(&err, msg, sizeof msg);
    if (strcmp(msg, want) != 0) {
        test_failures++;
        fprintf(stderr, "  error '%s', expected '%s'\n", msg, want);
    }
}

void test_hprof_errors(void)
{
    hw_buf b;
    /* a header cut short: 19 bytes of version, then 12 needed, 5 there */
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    b.len = 24;
    expect_error(&b, "truncated HPROF header at offset 19 (0x13): need 12 bytes, 5 left");
    hw_free(&b);

    hw_begin(&b, "JAVA PROFILE 1.0.9", 8);
    expect_error(&b, "unsupported HPROF version at offset 0 (0x0): 'JAVA PROFILE 1.0.9'");
    hw_free(&b);

    hw_begin(&b, "JAVA PROFILE 1.0.2", 6);
    expect_error(&b, "unsupported HPROF identifier size at offset 19 (0x13): 6 bytes");
    hw_free(&b);

    /* an unknown sub-record: no length, so nothing after it can be found */
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8); /* header: 19 + 12 = 31 bytes */
    hw_record(&b, 0x1c);                    /* record header 9 bytes: body at 40 */
    hw_u1(&b, 0x05);                        /* sticky class root: 1 + 8 bytes */
    hw_id(&b, 0x100);
    hw_u1(&b, 0x42);                        /* at 49 */
    hw_record_end(&b);
    expect_error(&b, "unknown heap dump sub-record at offset 49 (0x31): tag 0x42");
    hw_free(&b);

    /* an instance whose data runs past its segment */
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_record(&b, 0x1c);
    uint8_t data[16] = {0};
    hw_instance(&b, 0x1000, 0x100, data, 16); /* 1 + 8 + 4 + 8 + 4 + 16 = 41 bytes */
    hw_record_end(&b);
    /* shrink the segment's length (u4 at 36..39) by 10: the body ends early */
    b.data[39] = (uint8_t)(41 - 10);
    expect_error(&b, "truncated INSTANCE DUMP at offset 41 (0x29): need 40 bytes, 30 left");
    hw_free(&b);

    /* a record whose length runs past the end of the file */
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_record(&b, 0x01);
    hw_id(&b, 1);
    hw_bytes(&b, "abc", 3);
    hw_record_end(&b);
    b.len -= 2;
    expect_error(&b, "truncated record at offset 40 (0x28): need 11 bytes, 9 left");
    hw_free(&b);

    /* no heap dump at all */
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_string(&b, 1, "x");
    expect_error(&b, "HPROF file without a heap dump at offset 49 (0x31)");
    hw_free(&b);
}

void test_hprof_dangling(void)
{
    /* A reference to an id with no record, and a root naming one: counted. */
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_string(&b, 1, "java/lang/Object");
    hw_string(&b, 2, "Box");
    hw_string(&b, 3, "value");
    hw_string(&b, 4, "worker-1");
    hw_start_thread(&b, 5, 0x1000, 4); /* serial 5 is "worker-1" */
    hw_load_class(&b, 1, 0x100, 1);
    hw_load_class(&b, 2, 0x200, 2);
    hw_record(&b, 0x99); /* an unknown top-level record: skipped */
    hw_u4(&b, 7);
    hw_record_end(&b);
    hw_record(&b, 0x1c);
    uint64_t sid = 3;
    uint8_t obj = T_OBJECT;
    hw_class_dump(&b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, 0x200, 0x100, 0, 8, 1, &sid, &obj);
    uint8_t data[8] = {0, 0, 0, 0, 0, 0, 0x99, 0x99}; /* value -> 0x9999, absent */
    hw_instance(&b, 0x1000, 0x200, data, 8);
    hw_root_jni_global(&b, 0x1000); /* -> the Box */
    hw_u1(&b, 0xff); /* unknown root -> an absent id */
    hw_id(&b, 0x7777);
    hw_root_thread_object(&b, 0x1000, 5, 0); /* the Box is also thread 5's object (no name field) */
    hw_record_end(&b);
    lf_snapshot s;
    lf_error err;
    CHECK(parse_buf(&b, 0, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 3);
    CHECK_EQ_U64(s.stats.dangling_edges, 1);
    CHECK_EQ_U64(s.stats.dangling_roots, 1);
    uint32_t box = lf_snapshot_find_id(&s, 0x1000);
    CHECK_EQ_U64(lf_snapshot_edges_end(&s, box) - lf_snapshot_edges_begin(&s, box), 1); /* only <class> */
    /* HotSpot model with compressed oops: align8(12 + 4) */
    CHECK_EQ_U64(lf_snapshot_shallow(&s, box), 16);
    uint32_t thread = find_root(&s, "thread");
    CHECK(thread != UINT32_MAX);
    if (thread != UINT32_MAX)
        CHECK(test_str_is(lf_snapshot_string(&s, s.root[thread].name), "worker-1"));
    lf_snapshot_free(&s);
    hw_free(&b);
}

void test_hprof_repeated_id(void)
{
    /* Two records with the id 0x1000: the first (a Box, 8 bytes of fields)
     * is kept, the second (a long[4]) is not read; a third object is not
     * disturbed. Each repeat is a warning of pass 1 and one of pass 2. */
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_string(&b, 1, "java/lang/Object");
    hw_string(&b, 2, "Box");
    hw_string(&b, 3, "value");
    hw_load_class(&b, 1, 0x100, 1);
    hw_load_class(&b, 2, 0x200, 2);
    hw_record(&b, 0x1c);
    uint64_t sid = 3;
    uint8_t obj = T_OBJECT;
    hw_class_dump(&b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, 0x200, 0x100, 0, 8, 1, &sid, &obj);
    uint8_t data[8] = {0, 0, 0, 0, 0, 0, 0x20, 0x00}; /* value -> 0x2000 */
    hw_instance(&b, 0x1000, 0x200, data, 8);
    const uint64_t longs[4] = {1, 2, 3, 4};
    hw_prim_array(&b, 0x1000, T_LONG, 4, longs, 8);
    hw_instance(&b, 0x2000, 0x200, (const uint8_t[8]){0}, 8);
    hw_root_jni_global(&b, 0x1000);
    hw_record_end(&b);
    lf_snapshot s;
    lf_error err;
    CHECK(parse_buf(&b, 0, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 4); /* two classes, two objects */
    CHECK_EQ_U64(s.stats.warnings, 2);
    uint32_t box = lf_snapshot_find_id(&s, 0x1000), other = lf_snapshot_find_id(&s, 0x2000);
    CHECK(test_str_is(lf_snapshot_object_label(&s, box), "Box"));
    CHECK_EQ_U64(lf_snapshot_shallow(&s, box), 16); /* align8(12 + 4), not the array's 48 */
    CHECK_EQ_U64(lf_snapshot_edges_end(&s, box) - lf_snapshot_edges_begin(&s, box), 2); /* <class>, value */
    CHECK_EQ_U64(lf_snapshot_find_edge(&s, box, other) != UINT64_MAX, 1);
    lf_snapshot_free(&s);
    hw_free(&b);
}

/* Labels and ids are decoded from the dump on demand (hprof_lazy.c): every
 * edge of a dump with null, dangling and repeated references, statics and a
 * thread-local root gets the label its construction gives it. */
static void expect_edges(const lf_snapshot *s, uint64_t id, int count, const char *const *labels)
{
    uint32_t v = lf_snapshot_find_id(s, id);
    CHECK(v != LF_NODE_NONE);
    if (v == LF_NODE_NONE)
        return;
    CHECK_EQ_U64(lf_snapshot_object_id(s, v), id);
    CHECK_EQ_U64(lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v), (uint64_t)count);
    for (int i = 0; i < count && lf_snapshot_edges_begin(s, v) + (uint64_t)i < lf_snapshot_edges_end(s, v); i++) {
        char buf[256];
        lf_snapshot_edge_label(s, lf_snapshot_edges_begin(s, v) + (uint64_t)i, buf, sizeof buf);
        if (strcmp(buf, labels[i]) != 0)
            fprintf(stderr, "  object 0x%llx edge %d: '%s', want '%s'\n", (unsigned long long)id, i, buf,
                    labels[i]);
        CHECK(strcmp(buf, labels[i]) == 0);
    }
}

void test_hprof_lazy_labels(void)
{
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    static const char *names[] = {"", "java/lang/Object", "Node", "a", "b", "c", "[Ljava/lang/Object;",
                                  "Holder", "S1", "S2", "java/lang/Class", "COUNT", "main"};
    for (uint64_t i = 1; i < sizeof names / sizeof names[0]; i++)
        hw_string(&b, i, names[i]);
    hw_load_class(&b, 1, 0x100, 1);
    hw_load_class(&b, 2, 0x200, 2);
    hw_load_class(&b, 3, 0x300, 6);
    hw_load_class(&b, 4, 0x400, 7);
    hw_load_class(&b, 5, 0x500, 10);
    hw_start_thread(&b, 9, 0x6000, 12); /* serial 9 is "main", object 0x6000 */
    hw_record(&b, 0x1c);
    uint64_t node_sids[3] = {3, 4, 5};
    uint8_t objs[3] = {T_OBJECT, T_OBJECT, T_OBJECT};
    hw_class_dump(&b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, 0x200, 0x100, 0, 24, 3, node_sids, objs);
    hw_class_dump(&b, 0x300, 0x100, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, 0x500, 0x100, 0, 0, 0, NULL, NULL);
    /* Holder, by hand for its statics: S1 -> 0x1000, COUNT (int), S2 -> 0x1000 */
    hw_u1(&b, 0x20);
    hw_id(&b, 0x400);
    hw_u4(&b, 0);
    hw_id(&b, 0x100);
    for (int i = 0; i < 5; i++)
        hw_id(&b, 0);
    hw_u4(&b, 0);
    hw_u2(&b, 0);
    hw_u2(&b, 3);
    hw_id(&b, 8);
    hw_u1(&b, T_OBJECT);
    hw_id(&b, 0x1000);
    hw_id(&b, 11);
    hw_u1(&b, T_INT);
    hw_u4(&b, 7);
    hw_id(&b, 9);
    hw_u1(&b, T_OBJECT);
    hw_id(&b, 0x1000);
    hw_u2(&b, 0);
    /* Node 0x1000: a -> 0x2000, b -> an id with no object, c -> 0x2000 again */
    uint8_t fields[24] = {0, 0, 0, 0, 0, 0, 0x20, 0x00, 0, 0, 0, 0, 0, 0, 0x99, 0x99,
                          0, 0, 0, 0, 0, 0, 0x20, 0x00};
    hw_instance(&b, 0x1000, 0x200, fields, 24);
    uint8_t nulls[24] = {0};
    hw_instance(&b, 0x2000, 0x200, nulls, 24);
    uint64_t elems[5] = {0x2000, 0, 0x8888, 0x1000, 0x2000};
    hw_obj_array(&b, 0x3000, 0x300, 5, elems);
    hw_instance(&b, 0x6000, 0x100, NULL, 0); /* the thread */
    for (uint64_t k = 0x100; k <= 0x500; k += 0x100) {
        hw_u1(&b, 0x05); /* sticky class */
        hw_id(&b, k);
    }
    hw_root_jni_global(&b, 0x3000); /* -> the array */
    hw_root_thread_object(&b, 0x6000, 9, 0); /* thread object */
    hw_root_jni_local(&b, 0x2000, 9);
    hw_record_end(&b);
    lf_snapshot s;
    lf_error err;
    CHECK(parse_buf(&b, 0, &s, &err) == 0);
    CHECK_EQ_U64(s.stats.dangling_edges, 2);
    static const char *const node1[] = {"<class>", "a", "c"};
    expect_edges(&s, 0x1000, 3, node1);
    static const char *const node2[] = {"<class>"};
    expect_edges(&s, 0x2000, 1, node2);
    static const char *const array[] = {"<class>", "[0]", "[3]", "[4]"};
    expect_edges(&s, 0x3000, 4, array);
    static const char *const holder[] = {"<class>", "<super>", "S1", "S2"};
    expect_edges(&s, 0x400, 4, holder);
    static const char *const object[] = {"<class>", "<array class>"};
    expect_edges(&s, 0x100, 2, object);
    static const char *const thread[] = {"<class>", "JNI local"};
    expect_edges(&s, 0x6000, 2, thread);
    /* all at once, as convert writes them */
    uint64_t *ids;
    uint8_t *kinds;
    uint32_t *labels;
    CHECK(lf_snapshot_decode_lazy(&s, &ids, &kinds, &labels) == 0);
    CHECK(ids && kinds && labels);
    if (ids && kinds && labels) {
        for (uint32_t v = 0; v < s.object_count; v++) {
            CHECK_EQ_U64(ids[v], lf_snapshot_object_id(&s, v));
            for (uint64_t e = lf_snapshot_edges_begin(&s, v); e < lf_snapshot_edges_end(&s, v); e++) {
                uint8_t kind;
                uint32_t label;
                lf_snapshot_edge_info(&s, e, &kind, &label);
                CHECK_EQ_U64(kinds[e], kind);
                CHECK_EQ_U64(labels[e], label);
            }
        }
        uint32_t array_node = lf_snapshot_find_id(&s, 0x3000);
        CHECK_EQ_U64(kinds[lf_snapshot_edges_begin(&s, array_node) + 2], LF_EDGE_KIND_ELEMENT);
        CHECK_EQ_U64(labels[lf_snapshot_edges_begin(&s, array_node) + 2], 3);
    }
    lf_big_free(ids);
    lf_big_free(kinds);
    lf_big_free(labels);
    lf_snapshot_free(&s);
    hw_free(&b);
}

/* An instance with every reference field set is labelled from its class
 * alone (hprof_lazy.c, labels_from_class); the same count of edges means
 * something else for a thread with a root hung under it, and for an array
 * whose class, against every JVM's dumps, has fields of its own. */
static void big_endian_ids(uint8_t *out, const uint64_t *ids, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(ids[i] >> (56 - 8 * k));
}

/* with_array: the dump holds an array of class Node (3 elements set, as
 * many as Node's fields), which turns the shortcut off for the dump */
static void check_labels_from_class(int with_array)
{
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    static const char *names[] = {"", "java/lang/Object", "Node", "a", "b", "c", "Worker", "x", "y", "main"};
    for (uint64_t i = 1; i < sizeof names / sizeof names[0]; i++)
        hw_string(&b, i, names[i]);
    hw_load_class(&b, 1, 0x100, 1);
    hw_load_class(&b, 2, 0x200, 2);
    hw_load_class(&b, 3, 0x300, 6);
    hw_start_thread(&b, 9, 0x6000, 9); /* serial 9 is "main", object 0x6000 */
    hw_record(&b, 0x1c);
    uint64_t node_sids[3] = {3, 4, 5}, worker_sids[2] = {7, 8};
    uint8_t objs[3] = {T_OBJECT, T_OBJECT, T_OBJECT};
    hw_class_dump(&b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, 0x200, 0x100, 0, 24, 3, node_sids, objs);
    hw_class_dump(&b, 0x300, 0x100, 0, 16, 2, worker_sids, objs);
    uint8_t fields[24];
    uint64_t full[3] = {0x2000, 0x2100, 0x2000}; /* c repeats a: an edge each */
    big_endian_ids(fields, full, 3);
    hw_instance(&b, 0x1000, 0x200, fields, 24);
    uint8_t empty[24] = {0};
    hw_instance(&b, 0x2000, 0x200, empty, 24);
    hw_instance(&b, 0x2100, 0x200, empty, 24);
    uint64_t elems[4] = {0x2000, 0, 0x2100, 0x1000};
    if (with_array)
        hw_obj_array(&b, 0x3000, 0x200, 4, elems);
    else
        hw_obj_array(&b, 0x3000, 0x100, 4, elems); /* of class Object: no fields */
    /* the thread: x null, y set, and a JNI local hung under it: as many
     * edges as a Worker with both fields set */
    uint64_t worker[2] = {0, 0x2000};
    big_endian_ids(fields, worker, 2);
    hw_instance(&b, 0x6000, 0x300, fields, 16);
    hw_root_jni_global(&b, 0x1000); /* -> Node 0x1000 */
    hw_root_jni_global(&b, 0x3000); /* -> the array */
    hw_root_thread_object(&b, 0x6000, 9, 0); /* thread object */
    hw_root_jni_local(&b, 0x2100, 9);
    hw_record_end(&b);
    lf_snapshot s;
    lf_error err;
    CHECK(parse_buf(&b, 0, &s, &err) == 0);
    static const char *const node[] = {"<class>", "a", "b", "c"};
    expect_edges(&s, 0x1000, 4, node);
    static const char *const array[] = {"<class>", "[0]", "[2]", "[3]"};
    expect_edges(&s, 0x3000, 4, array);
    static const char *const thread[] = {"<class>", "y", "JNI local"};
    expect_edges(&s, 0x6000, 3, thread);
    lf_snapshot_free(&s);
    hw_free(&b);
}

void test_hprof_labels_from_class(void)
{
    check_labels_from_class(0);
    check_labels_from_class(1);
}

/* An old single HEAP DUMP record over 4 GiB: its u4 length wrapped. The file
 * is sparse (two primitive arrays of 2 GiB whose elements are a hole), so the
 * test costs no disk and the reader never touches the hole. */
void test_hprof_wrapped_heap_dump(void)
{
    char path[256];
    test_tmp_path(path, sizeof path, "wrap.hprof");
    const uint64_t l1 = 1ull << 31, l2 = (1ull << 31) + 20;
    const uint64_t body = 2 * 18 + l1 + l2; /* 2^32 + 56: the length field says 56 */
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.1", 8);
    hw_u1(&b, 0x0c);
    hw_u4(&b, 0);
    hw_u4(&b, (uint32_t)body);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) {
        hw_free(&b);
        return;
    }
    uint8_t array[18] = {0x23, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 8};
    fwrite(b.data, 1, b.len, f);
    fwrite(array, 1, 18, f);                         /* byte[2^31] at id 0x1000 */
    fseeko(f, (off_t)l1, SEEK_CUR);
    array[6] = 0x20;                                 /* id 0x2000 */
    array[14] = 0, array[16] = 20;                   /* length 2^31 + 20 */
    array[13] = 0x80;
    fwrite(array, 1, 18, f);
    fseeko(f, (off_t)l2, SEEK_CUR);
    const uint8_t end[9] = {0x2c, 0, 0, 0, 0, 0, 0, 0, 0};
    fwrite(end, 1, 9, f);
    CHECK(fclose(f) == 0);
    hw_free(&b);
    lf_mapped_file m;
    lf_snapshot s;
    lf_error err;
    CHECK(lf_file_map(path, &m, &err) == 0);
    CHECK_EQ_U64(m.size, 31 + 9 + body + 9);
    int rc = lf_hprof_parse(m.data, m.size, 0, 1, &s, &err);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK_EQ_U64(s.object_count, 2);
        CHECK_EQ_U64(lf_snapshot_shallow(&s, 0), 16 + l1);            /* header 16 + elements */
        CHECK_EQ_U64(lf_snapshot_shallow(&s, 1), (16 + l2 + 7) / 8 * 8); /* aligned to 8 */
        lf_snapshot_free(&s);
    }
    lf_file_unmap(&m);
    unlink(path);
}

/* One long[] of 2^29 + 3 elements, held by a JNI global: 16 + 8 (2^29 + 3)
 * = 2^32 + 40 bytes, past what 4 bytes hold, so its shallow and retained
 * sizes live in the big tables; read on two threads, analysed, written to a
 * .lfs and read back. Sparse like the test above: an old HEAP DUMP whose
 * length wrapped (2^32 + 59 bytes, the field says 59). */
void test_hprof_array_past_4g(void)
{
    char path[256], lfs[256];
    test_tmp_path(path, sizeof path, "big-array.hprof");
    test_tmp_path(lfs, sizeof lfs, "big-array.lfs");
    const uint64_t elements = (1ull << 29) + 3, want = 16 + 8 * elements;
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_u1(&b, 0x0c);
    hw_u4(&b, 0);
    hw_u4(&b, (uint32_t)(17 + 18 + 8 * elements));
    hw_root_jni_global(&b, 0x1000); /* -> the array */
    hw_u1(&b, 0x23);
    hw_id(&b, 0x1000);
    hw_u4(&b, 0);
    hw_u4(&b, (uint32_t)elements);
    hw_u1(&b, 11); /* long */
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) {
        hw_free(&b);
        return;
    }
    fwrite(b.data, 1, b.len, f);
    fseeko(f, (off_t)(8 * elements), SEEK_CUR);
    const uint8_t end[9] = {0x2c, 0, 0, 0, 0, 0, 0, 0, 0};
    fwrite(end, 1, 9, f);
    CHECK(fclose(f) == 0);
    hw_free(&b);
    lf_mapped_file m;
    lf_snapshot s, back;
    lf_error err;
    CHECK(lf_file_map(path, &m, &err) == 0);
    int rc = lf_hprof_parse(m.data, m.size, 0, 2, &s, &err);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK_EQ_U64(s.object_count, 1);
        CHECK_EQ_U64(lf_snapshot_shallow(&s, 0), want);
        CHECK_EQ_U64(s.object_shallow.big_count, 1);
        CHECK(lf_analyze(&s, 0, 2, &err) == 0);
        CHECK_EQ_U64(lf_snapshot_retained(&s, 0), want);
        CHECK_EQ_U64(s.reachable_shallow, want);
        CHECK(lf_lfs_write(&s, lfs, &err) == 0);
        CHECK(lf_lfs_open(lfs, &back, &err) == 0);
        CHECK_EQ_U64(lf_snapshot_shallow(&back, 0), want);
        CHECK_EQ_U64(lf_snapshot_retained(&back, 0), want);
        lf_snapshot_free(&back);
        lf_snapshot_free(&s);
    }
    lf_file_unmap(&m);
    unlink(path);
    unlink(lfs);
}

/* A chain root -> 0x1000 -> 0x1010 -> 0x1020 -> 0x1030 (Node, one reference
 * field "next"), then a STRING record; offsets of each piece for the cuts. */
typedef struct chain_dump {
    hw_buf b;
    size_t node_at[4];      /* start of each INSTANCE DUMP sub-record */
    size_t segment_end;     /* end of the heap dump segment */
    size_t string_at;       /* start of the STRING record after it */
} chain_dump;

static void build_chain(chain_dump *d)
{
    hw_buf *b = &d->b;
    hw_begin(b, "JAVA PROFILE 1.0.2", 8);
    hw_string(b, 1, "java/lang/Object");
    hw_string(b, 2, "Node");
    hw_string(b, 3, "next");
    hw_load_class(b, 1, 0x100, 1);
    hw_load_class(b, 2, 0x200, 2);
    hw_record(b, 0x1c);
    uint64_t sid = 3;
    uint8_t obj = T_OBJECT;
    hw_class_dump(b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x200, 0x100, 0, 8, 1, &sid, &obj);
    hw_u1(b, 0x01); /* JNI global -> the head */
    hw_id(b, 0x1000);
    hw_id(b, 0);
    for (int i = 0; i < 4; i++) {
        uint64_t next = i < 3 ? 0x1000 + 0x10 * (uint64_t)(i + 1) : 0;
        uint8_t data[8];
        for (int k = 0; k < 8; k++)
            data[k] = (uint8_t)(next >> (56 - 8 * k));
        d->node_at[i] = b->len;
        hw_instance(b, 0x1000 + 0x10 * (uint64_t)i, 0x200, data, 8);
    }
    hw_record_end(b);
    d->segment_end = b->len;
    d->string_at = b->len;
    hw_string(b, 4, "after the heap");
}

/* --partial: a dump cut off mid-write is read up to its last complete
 * sub-record; what the cut record declared beyond the file is reported. */
void test_hprof_partial(void)
{
    chain_dump d;
    build_chain(&d);
    const size_t full = d.b.len;
    lf_snapshot s;
    lf_error err;

    /* cut 5 bytes into the third node: without --partial an error that says
     * the file is cut; with it, two classes and two nodes */
    d.b.len = d.node_at[2] + 5;
    CHECK(parse_buf(&d.b, 0, &s, &err) == -1);
    CHECK(err.truncated == 1);
    CHECK(parse_buf(&d.b, LF_HPROF_PARTIAL, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 4);
    CHECK(s.flags & LF_SNAP_PARTIAL);
    CHECK_EQ_U64(s.stats.cut_at, d.node_at[2]);
    CHECK_EQ_U64(s.stats.cut_missing, d.segment_end - d.b.len);
    CHECK_EQ_U64(s.stats.dangling_edges, 1); /* 0x1010.next -> 0x1020, past the cut */
    CHECK(lf_snapshot_find_id(&s, 0x1010) != LF_NODE_NONE);
    CHECK(lf_snapshot_find_id(&s, 0x1020) == LF_NODE_NONE);
    CHECK(lf_analyze(&s, 0, 2, &err) == 0);
    uint32_t head = lf_snapshot_find_id(&s, 0x1000);
    if (head != LF_NODE_NONE)
        CHECK_EQ_U64(lf_snapshot_retained(&s, head), 2 * 16); /* itself and 0x1010, align8(12 + 4) each */
    lf_snapshot_free(&s);

    /* cut exactly between two sub-records: all three nodes before it */
    d.b.len = d.node_at[3];
    CHECK(parse_buf(&d.b, LF_HPROF_PARTIAL, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 5);
    CHECK_EQ_U64(s.stats.cut_at, d.node_at[3]);
    CHECK_EQ_U64(s.stats.cut_missing, d.segment_end - d.node_at[3]);
    lf_snapshot_free(&s);

    /* cut inside the header of the record after the heap: the whole heap */
    d.b.len = d.string_at + 4;
    CHECK(parse_buf(&d.b, LF_HPROF_PARTIAL, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 6);
    CHECK_EQ_U64(s.stats.cut_at, d.string_at);
    CHECK_EQ_U64(s.stats.cut_missing, 0);
    CHECK_EQ_U64(s.stats.dangling_edges, 0);
    lf_snapshot_free(&s);

    /* cut inside that record's body: it declares 8 + 14 bytes */
    d.b.len = full - 3;
    CHECK(parse_buf(&d.b, LF_HPROF_PARTIAL, &s, &err) == 0);
    CHECK_EQ_U64(s.stats.cut_at, d.string_at);
    CHECK_EQ_U64(s.stats.cut_missing, 3);
    lf_snapshot_free(&s);

    /* the whole file: not partial */
    d.b.len = full;
    CHECK(parse_buf(&d.b, LF_HPROF_PARTIAL, &s, &err) == 0);
    CHECK(!(s.flags & LF_SNAP_PARTIAL));
    CHECK_EQ_U64(s.stats.cut_at, 0);
    lf_snapshot_free(&s);

    /* a fault before the cut stays an error: an unknown sub-record tag */
    d.b.data[d.node_at[1]] = 0x42;
    d.b.len = d.node_at[2] + 5;
    CHECK(parse_buf(&d.b, LF_HPROF_PARTIAL, &s, &err) == -1);
    CHECK(err.truncated == 0);
    CHECK_EQ_U64(err.position, d.node_at[1]);
    hw_free(&d.b);
}

/* A thread's name read from its Thread object's String: JDK 8's char[]
 * (big-endian UTF-16) with a surrogate pair, JDK 9+'s byte[] with coder 1
 * (UTF-16, little-endian) with a lone surrogate. The names must come out
 * as valid UTF-8: the pair as one 4-byte character, the lone half as
 * U+FFFD (they used to come out as two 3-byte halves). */
void test_hprof_thread_name_utf16(void)
{
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    static const char *names[] = {"java/lang/Object", "java/lang/Thread", "java/lang/String", "name", "value",
                                  "coder"};
    for (uint64_t i = 0; i < 6; i++)
        hw_string(&b, i + 1, names[i]);
    hw_load_class(&b, 1, 0x100, 1);
    hw_load_class(&b, 2, 0x200, 2);
    hw_load_class(&b, 3, 0x300, 3);
    hw_load_class(&b, 4, 0x400, 3); /* JDK 9's String: value and coder */
    hw_record(&b, 0x1c);
    uint64_t name_sid = 4, value_coder_sid[2] = {5, 6};
    uint8_t obj = T_OBJECT, value_coder_type[2] = {T_OBJECT, T_BYTE};
    hw_class_dump(&b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(&b, 0x200, 0x100, 0, 8, 1, &name_sid, &obj);
    hw_class_dump(&b, 0x300, 0x100, 0, 8, 1, &value_coder_sid[0], &obj);
    hw_class_dump(&b, 0x400, 0x100, 0, 9, 2, value_coder_sid, value_coder_type);
    const uint8_t thread_a[8] = {0, 0, 0, 0, 0, 0, 0x20, 0x00}; /* name -> 0x2000 */
    const uint8_t thread_b[8] = {0, 0, 0, 0, 0, 0, 0x21, 0x00}; /* name -> 0x2100 */
    const uint8_t string_a[8] = {0, 0, 0, 0, 0, 0, 0x30, 0x00}; /* value -> 0x3000 */
    const uint8_t string_b[9] = {0, 0, 0, 0, 0, 0, 0x31, 0x00, 1}; /* value -> 0x3100, coder UTF16 */
    hw_instance(&b, 0x1000, 0x200, thread_a, 8);
    hw_instance(&b, 0x1100, 0x200, thread_b, 8);
    hw_instance(&b, 0x2000, 0x300, string_a, 8);
    hw_instance(&b, 0x2100, 0x400, string_b, 9);
    /* "w-", U+1F600 as D83D DE00, "x" */
    const uint8_t chars_be[10] = {0, 'w', 0, '-', 0xd8, 0x3d, 0xde, 0x00, 0, 'x'};
    hw_prim_array(&b, 0x3000, 5 /* char */, 5, chars_be, 2);
    /* "é", a high surrogate with no low one after it, "z" */
    const uint8_t units_le[6] = {0xe9, 0, 0x00, 0xd8, 'z', 0};
    hw_prim_array(&b, 0x3100, T_BYTE, 6, units_le, 1);
    for (uint32_t k = 0; k < 2; k++) /* serials 7 and 8 */
        hw_root_thread_object(&b, k ? 0x1100 : 0x1000, 7 + k, 0);
    hw_record_end(&b);
    lf_snapshot s;
    lf_error err;
    CHECK(parse_buf(&b, 0, &s, &err) == 0);
    int seen_a = 0, seen_b = 0;
    for (uint32_t r = 0; r < s.root_count; r++) {
        lf_str name = lf_snapshot_string(&s, s.root[r].name);
        seen_a += name.len == 7 && memcmp(name.ptr, "w-\xf0\x9f\x98\x80x", 7) == 0;
        seen_b += name.len == 6 && memcmp(name.ptr, "\xc3\xa9\xef\xbf\xbdz", 6) == 0;
    }
    CHECK(seen_a == 1);
    CHECK(seen_b == 1);
    lf_snapshot_free(&s);
    hw_free(&b);
}
