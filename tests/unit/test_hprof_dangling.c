/* test_hprof_dangling.c - references to ids with no record and who holds
 * them: HotSpot's JNI-global object array (expected, a note) apart from any
 * other holder (a warning). Writes the CLI fixtures tests/cli/inputs/
 * jni_dangling.hprof and dangling_field.hprof (LF_WRITE_FIXTURES=1
 * build/unit_tests hprof_dangling rewrites them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/hprof/hprof.h"
#include "hprof_writer.h"
#include "test.h"
#include "tests.h"

enum { T_OBJECT = 2 };

/* java.lang.Object 0x100, Object[] 0x110, Holder 0x200 (one field "ref").
 * A JNI global names the array 0x3000: [Holder 0x1000, 0x9001, null,
 * 0x9002, 0x9003], three ids with no record, as HotSpot's array of archived
 * objects has. With `field_array`: Holder.ref -> another Object[] 0x3100 of
 * [0x9004, 0x9005, 0x9006, 0x9007], four more no JNI global holds. */
static void build(hw_buf *b, int field_array)
{
    hw_begin(b, "JAVA PROFILE 1.0.2", 8);
    hw_string(b, 1, "java/lang/Object");
    hw_string(b, 2, "[Ljava/lang/Object;");
    hw_string(b, 3, "Holder");
    hw_string(b, 4, "ref");
    hw_load_class(b, 1, 0x100, 1);
    hw_load_class(b, 2, 0x110, 2);
    hw_load_class(b, 3, 0x200, 3);
    hw_record(b, 0x1c);
    uint64_t sid = 4;
    uint8_t type = T_OBJECT;
    hw_class_dump(b, 0x100, 0, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x110, 0x100, 0, 0, 0, NULL, NULL);
    hw_class_dump(b, 0x200, 0x100, 0, 8, 1, &sid, &type);
    uint8_t ref[8] = {0};
    if (field_array)
        ref[6] = 0x31; /* 0x3100 */
    hw_instance(b, 0x1000, 0x200, ref, 8);
    const uint64_t jni_elems[] = {0x1000, 0x9001, 0, 0x9002, 0x9003};
    hw_obj_array(b, 0x3000, 0x110, 5, jni_elems);
    if (field_array) {
        const uint64_t elems[] = {0x9004, 0x9005, 0x9006, 0x9007};
        hw_obj_array(b, 0x3100, 0x110, 4, elems);
    }
    hw_u1(b, 0x01); /* JNI global -> the array */
    hw_id(b, 0x3000);
    hw_id(b, 0x7f00);
    hw_record_end(b);
}

static void check_dump(int field_array)
{
    hw_buf b;
    build(&b, field_array);
    const char *fixture = field_array ? "tests/cli/inputs/dangling_field.hprof" : "tests/cli/inputs/jni_dangling.hprof";
    CHECK(hw_matches_fixture(&b, fixture) == 1);
    lf_snapshot s;
    lf_error err;
    CHECK(lf_hprof_parse(b.data, b.len, 0, 2, &s, &err) == 0);
    CHECK_EQ_U64(s.stats.dangling_edges, field_array ? 7 : 3);
    CHECK_EQ_U64(s.stats.dangling_holders, field_array ? 2 : 1);
    CHECK_EQ_U64(s.stats.dangling_expected, 3);
    uint32_t top = lf_snapshot_find_id(&s, field_array ? 0x3100 : 0x3000);
    CHECK_EQ_U64(s.stats.dangling_top_holder, (uint64_t)top + 1);
    CHECK_EQ_U64(s.stats.dangling_top_count, field_array ? 4 : 3);
    lf_snapshot_free(&s);
    hw_free(&b);
}

void test_hprof_dangling_jni_array(void) { check_dump(0); }
void test_hprof_dangling_field_array(void) { check_dump(1); }
