/* test_hprof_sites.c - allocation sites from HPROF stack traces: an ART-like
 * dump with planted allocation traces, a HotSpot-like one whose objects all
 * name the dummy trace, broken traces, and the real HotSpot fixtures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/hprof/hprof.h"
#include "../../core/input/open.h"
#include "hprof_writer.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

/* The committed copy of build_art_sites's dump, for the CLI golden cases
 * (tests/cli/hprof_cases.sh); LF_WRITE_FIXTURES=1 build/unit_tests
 * hprof_sites rewrites it. */
#define ART_SITES_FIXTURE "tests/cli/inputs/art_alloc_sites.hprof"

enum { T_OBJECT = 2, T_BYTE = 8 };

static int frame_is(const lf_snapshot *s, uint32_t site, const char *function, const char *file,
                    uint32_t line)
{
    if (site == 0 || site >= s->site_count || s->site[site].frame >= s->frame_count)
        return 0;
    const lf_frame *f = &s->frame[s->site[site].frame];
    return test_str_is(lf_snapshot_string(s, f->function), function) &&
           test_str_is(lf_snapshot_string(s, f->file), file) && f->line == line && f->column == 0;
}

static uint32_t objects_at(const lf_snapshot *s, uint32_t site)
{
    uint32_t n = 0;
    for (uint32_t v = 0; v < s->object_count; v++)
        n += s->object_site[v] == site;
    return n;
}

/* ART with allocation tracking: strings and classes as ART names them
 * (dotted), frame ids from 0, trace serials from 1 after the empty trace 0.
 *   frames  0 com.acme.Parser.readNode (Parser.java:42)
 *           1 com.acme.Parser.parse (Parser.java:17)
 *           2 com.acme.Main.main (Main.java:5)
 *           3 com.acme.Parser.parse, line -1 (unknown)
 *           4 java.lang.System.arraycopy, line -2 (ART: native)
 *   trace 1 (T) = 0 1 2, trace 2 (U) = 4 3 2 (innermost first), trace 3 =
 *   2, a thread's stack that no object names.
 *   objects: 4 Node and an Object[] at T; 3 byte[] at U; 2 Node with the
 *   empty trace 0; 1 Node naming trace 99, which the dump lacks; the thread
 *   (a Node, 0x10a0) and the 7 classes with trace 0.
 * Sites: [main], [main parse:17], [main parse:17 readNode], [main parse],
 * [main parse arraycopy]: 5 and site 0; frames 5 and frame 0. */
enum { S_NODE_CLASS = 1, S_PARSE, S_READ_NODE, S_MAIN, S_ARRAYCOPY, S_SIG, S_PARSER_JAVA,
       S_MAIN_JAVA, S_EMPTY, S_PARSER, S_MAIN_CLASS, S_SYSTEM, S_OBJECT, S_OBJECTS, S_BYTES,
       S_COUNT };

static void build_art_sites(hw_buf *b)
{
    static const char *names[S_COUNT] = {
        [S_NODE_CLASS] = "com.acme.Node", [S_PARSE] = "parse", [S_READ_NODE] = "readNode",
        [S_MAIN] = "main", [S_ARRAYCOPY] = "arraycopy", [S_SIG] = "()V",
        [S_PARSER_JAVA] = "Parser.java", [S_MAIN_JAVA] = "Main.java", [S_EMPTY] = "",
        [S_PARSER] = "com.acme.Parser", [S_MAIN_CLASS] = "com.acme.Main",
        [S_SYSTEM] = "java.lang.System", [S_OBJECT] = "java.lang.Object",
        [S_OBJECTS] = "java.lang.Object[]", [S_BYTES] = "byte[]"};
    hw_begin(b, "JAVA PROFILE 1.0.3", 4);
    for (uint64_t i = 1; i < S_COUNT; i++)
        hw_string(b, i, names[i]);
    /* serial: 1 Object, 2 Node, 3 Parser, 4 Main, 5 System, 6 Object[], 7 byte[] */
    static const uint64_t class_id[] = {0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700};
    static const uint64_t class_sid[] = {S_OBJECT, S_NODE_CLASS, S_PARSER, S_MAIN_CLASS,
                                         S_SYSTEM, S_OBJECTS, S_BYTES};
    for (int i = 0; i < 7; i++)
        hw_load_class(b, (uint32_t)i + 1, class_id[i], class_sid[i]);
    hw_stack_frame(b, 0, S_READ_NODE, S_SIG, S_PARSER_JAVA, 3, 42);
    hw_stack_frame(b, 1, S_PARSE, S_SIG, S_PARSER_JAVA, 3, 17);
    hw_stack_frame(b, 2, S_MAIN, S_SIG, S_MAIN_JAVA, 4, 5);
    hw_stack_frame(b, 3, S_PARSE, S_SIG, S_PARSER_JAVA, 3, -1);
    hw_stack_frame(b, 4, S_ARRAYCOPY, S_SIG, S_EMPTY, 5, -2);
    hw_stack_trace(b, 0, 0, 0, NULL);
    static const uint64_t trace_t[] = {0, 1, 2}, trace_u[] = {4, 3, 2}, thread[] = {2};
    hw_stack_trace(b, 1, 7, 3, trace_t);
    hw_stack_trace(b, 2, 7, 3, trace_u);
    hw_stack_trace(b, 3, 7, 1, thread);

    hw_record(b, 0x1c);
    hw_u1(b, 0x08); /* thread object root, its stack trace 3 */
    hw_id(b, 0x10a0);
    hw_u4(b, 1);
    hw_u4(b, 3);
    hw_u1(b, 0x8d); /* VM internal -> the array holding the rest */
    hw_id(b, 0x2000);
    uint64_t elems[11];
    for (int i = 0; i < 11; i++)
        elems[i] = 0x1000 + 0x10 * (uint64_t)i;
    b->trace_serial = 1;
    for (int i = 0; i < 4; i++)
        hw_instance(b, elems[i], 0x200, NULL, 0);
    hw_obj_array(b, 0x2000, 0x600, 11, elems);
    b->trace_serial = 2;
    uint8_t bytes[16] = {0};
    for (int i = 4; i < 7; i++)
        hw_prim_array(b, elems[i], T_BYTE, 16, bytes, 1);
    b->trace_serial = 0;
    hw_instance(b, elems[7], 0x200, NULL, 0);
    hw_instance(b, elems[8], 0x200, NULL, 0);
    b->trace_serial = 99;
    hw_instance(b, elems[9], 0x200, NULL, 0);
    b->trace_serial = 0;
    hw_instance(b, elems[10], 0x200, NULL, 0); /* the thread */
    for (int i = 0; i < 7; i++)
        hw_class_dump(b, class_id[i], i ? 0x100 : 0, 0, i == 1 ? 8 : 0, 0, NULL, NULL);
    hw_record_end(b);
    hw_record(b, 0x2c);
    hw_record_end(b);
}

static int parse(const hw_buf *b, lf_snapshot *s)
{
    lf_error err;
    int rc = lf_hprof_parse(b->data, b->len, 0, 2, s, &err);
    if (rc) {
        char msg[300];
        lf_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "  %s\n", msg);
    }
    return rc;
}

void test_hprof_sites_art(void)
{
    hw_buf b;
    build_art_sites(&b);
    CHECK(hw_matches_fixture(&b, ART_SITES_FIXTURE) == 1); /* the file on disk is this construction */
    lf_snapshot s;
    if (parse(&b, &s)) {
        CHECK(!"parsed");
        hw_free(&b);
        return;
    }
    CHECK(s.object_site != NULL);
    CHECK_EQ_U64(s.site_count, 6);
    CHECK_EQ_U64(s.frame_count, 6);
    CHECK_EQ_U64(s.stats.warnings, 1); /* the Node naming trace 99 */
    if (!s.object_site || s.site_count != 6) {
        lf_snapshot_free(&s);
        hw_free(&b);
        return;
    }
    uint32_t at_t = s.object_site[lf_snapshot_find_id(&s, 0x1000)];
    uint32_t at_u = s.object_site[lf_snapshot_find_id(&s, 0x1040)];
    CHECK(frame_is(&s, at_t, "com.acme.Parser.readNode", "Parser.java", 42));
    uint32_t parse_17 = s.site[at_t].caller;
    CHECK(frame_is(&s, parse_17, "com.acme.Parser.parse", "Parser.java", 17));
    uint32_t main_5 = s.site[parse_17].caller;
    CHECK(frame_is(&s, main_5, "com.acme.Main.main", "Main.java", 5));
    CHECK_EQ_U64(s.site[main_5].caller, 0);
    CHECK(frame_is(&s, at_u, "java.lang.System.arraycopy", "Native Method", 0));
    uint32_t parse_unknown = s.site[at_u].caller;
    CHECK(frame_is(&s, parse_unknown, "com.acme.Parser.parse", "Parser.java", 0));
    CHECK_EQ_U64(s.site[parse_unknown].caller, main_5); /* one call tree */
    /* N = 5 at T (4 Node, the Object[]), M = 3 at U; no site: the 2 Nodes of
     * the empty trace, the one of the missing trace, the thread, 7 classes. */
    CHECK_EQ_U64(s.object_count, 19);
    CHECK_EQ_U64(objects_at(&s, at_t), 5);
    CHECK_EQ_U64(objects_at(&s, at_u), 3);
    CHECK_EQ_U64(objects_at(&s, 0), 4 + 7);
    CHECK_EQ_U64(s.object_site[lf_snapshot_find_id(&s, 0x2000)], at_t);
    CHECK_EQ_U64(s.object_site[lf_snapshot_find_id(&s, 0x1070)], 0);
    CHECK_EQ_U64(s.object_site[lf_snapshot_find_id(&s, 0x1090)], 0);
    lf_snapshot_free(&s);
    hw_free(&b);
}

/* HotSpot: a dummy trace (serial 1, no frames) for every object, and a
 * trace per thread that only the thread's root names. No sites. */
void test_hprof_sites_hotspot(void)
{
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.2", 8);
    hw_string(&b, 1, "java/lang/Object");
    hw_string(&b, 2, "run");
    hw_string(&b, 3, "()V");
    hw_string(&b, 4, "Thread.java");
    hw_load_class(&b, 1, 0x100, 1);
    hw_stack_trace(&b, 1, 0, 0, NULL);
    hw_stack_frame(&b, 0x77, 2, 3, 4, 1, 10);
    uint64_t frame = 0x77;
    hw_stack_trace(&b, 2, 1, 1, &frame);
    hw_record(&b, 0x1c);
    hw_root_thread_object(&b, 0x1000, 1, 2);
    b.trace_serial = 1;
    hw_class_dump(&b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_instance(&b, 0x1000, 0x100, NULL, 0);
    hw_instance(&b, 0x1010, 0x100, NULL, 0);
    hw_record_end(&b);
    lf_snapshot s;
    if (parse(&b, &s) == 0) {
        CHECK(s.object_site == NULL);
        CHECK_EQ_U64(s.site_count, 0);
        CHECK_EQ_U64(s.stats.warnings, 0);
        lf_snapshot_free(&s);
    } else {
        CHECK(!"parsed");
    }
    hw_free(&b);
}

/* A trace naming frames the dump lacks: those frames are left out (one
 * warning per trace); a trace with none left gives no site. A frame count
 * past the record's end is an error. */
void test_hprof_sites_broken(void)
{
    hw_buf b;
    hw_begin(&b, "JAVA PROFILE 1.0.3", 4);
    hw_string(&b, 1, "java.lang.Object");
    hw_string(&b, 2, "make");
    hw_load_class(&b, 1, 0x100, 1);
    hw_stack_frame(&b, 5, 2, 0, 0, 1, 3);
    static const uint64_t half[] = {6, 5}, none[] = {6, 7};
    hw_stack_trace(&b, 1, 0, 2, half);
    hw_stack_trace(&b, 2, 0, 2, none);
    hw_record(&b, 0x1c);
    b.trace_serial = 1;
    hw_instance(&b, 0x1000, 0x100, NULL, 0);
    b.trace_serial = 2;
    hw_instance(&b, 0x1010, 0x100, NULL, 0);
    b.trace_serial = 0;
    hw_class_dump(&b, 0x100, 0, 0, 8, 0, NULL, NULL);
    hw_record_end(&b);
    lf_snapshot s;
    if (parse(&b, &s) == 0) {
        CHECK(s.object_site != NULL);
        CHECK_EQ_U64(s.site_count, 2);
        CHECK_EQ_U64(s.stats.warnings, 2);
        if (s.object_site && s.site_count == 2) {
            uint32_t site = s.object_site[lf_snapshot_find_id(&s, 0x1000)];
            /* no Java source file string: the file is "" */
            CHECK(frame_is(&s, site, "java.lang.Object.make", "", 3));
            CHECK_EQ_U64(s.site[site].caller, 0);
            CHECK_EQ_U64(s.object_site[lf_snapshot_find_id(&s, 0x1010)], 0);
        }
        lf_snapshot_free(&s);
    } else {
        CHECK(!"parsed");
    }
    hw_free(&b);

    /* only one trace, of no frame the dump has: no sites at all */
    hw_begin(&b, "JAVA PROFILE 1.0.3", 4);
    hw_string(&b, 1, "java.lang.Object");
    hw_load_class(&b, 1, 0x100, 1);
    hw_stack_trace(&b, 2, 0, 2, none);
    hw_record(&b, 0x1c);
    b.trace_serial = 2;
    hw_instance(&b, 0x1000, 0x100, NULL, 0);
    b.trace_serial = 0;
    hw_class_dump(&b, 0x100, 0, 0, 8, 0, NULL, NULL);
    hw_record_end(&b);
    if (parse(&b, &s) == 0) {
        CHECK(s.object_site == NULL);
        CHECK_EQ_U64(s.site_count, 0);
        CHECK_EQ_U64(s.stats.warnings, 1);
        lf_snapshot_free(&s);
    } else {
        CHECK(!"parsed");
    }
    hw_free(&b);

    /* a frame count past the record: 0x40000000 frames in 8 bytes */
    hw_begin(&b, "JAVA PROFILE 1.0.3", 4);
    hw_record(&b, 0x05);
    hw_u4(&b, 1);
    hw_u4(&b, 0);
    hw_u4(&b, 0x40000000);
    hw_id(&b, 5);
    hw_id(&b, 6);
    hw_record_end(&b);
    lf_error err;
    CHECK(lf_hprof_parse(b.data, b.len, 0, 1, &s, &err) != 0);
    CHECK(strstr(err.reason, "STACK TRACE") != NULL);
    hw_free(&b);
}

/* The HotSpot dumps of fixtures/java: every object names the dummy trace. */
void test_hprof_sites_fixtures(void)
{
    static const char *dumps[] = {
        "fixtures/java/dumps/planted_leak.hprof",
        "fixtures/java/dumps/stack_local.hprof",
        "fixtures/java/dumps/class_loader_leak.hprof",
        "fixtures/java/dumps/weak_cache.hprof",
    };
    for (size_t d = 0; d < sizeof dumps / sizeof dumps[0]; d++) {
        lf_snapshot s;
        lf_error err = {0};
        if (lf_open(dumps[d], NULL, &s, &err) != 0) {
            CHECK(!"fixture dump read");
            continue;
        }
        CHECK(s.format == LF_FORMAT_HPROF);
        CHECK(s.object_count > 9000);
        CHECK(s.object_site == NULL);
        CHECK_EQ_U64(s.site_count, 0);
        CHECK_EQ_U64(s.stats.warnings, 0);
        lf_snapshot_free(&s);
    }
}
