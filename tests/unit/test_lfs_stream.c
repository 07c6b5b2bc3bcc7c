/* test_lfs_stream.c - the streaming writer (lfs_writer_new_streaming): the
 * file it writes reads back as the records that made it, the same as the
 * builder's for the same records, and its misuses fail with a reason. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "test_support.h"
#include "../../core/lfs/lfs.h"
#include "../../core/writer/lfs_writer.h"

#define FIVE_GIB (5ULL << 30)

/* ids 0..4, objects in id order, each one's references after it:
 *   0 Map 48:          [0] -> 1, [1] -> 2, next -> 3, lost -> 99 (dangling)
 *   1 Entry 32:        v -> 4
 *   2 Entry 5 GiB:     owner -> 0 (weak)
 *   3 Entry 24
 *   4 Entry 16:        [7] -> 0
 * roots: 0 global "m", 99 global "gone" (dangling), 4 stack "";
 * objects 1 and 3 allocated at Main.f (main.ml:3:1), 3 and 2 samples, at
 * rate 0.5 (3's given twice, 9 then 2; a site for id 77 dropped). */
static void hand_graph(lfs_writer *w, int streaming)
{
    int64_t map = lfs_writer_class(w, "Map"), entry = lfs_writer_class(w, "Entry");
    CHECK(map == 0 && entry == 1);
    CHECK(lfs_writer_root(w, 0, "global", "m") == 0);
    if (streaming)
        CHECK(lfs_writer_objects(w, 5) == 0);
    int64_t f = lfs_writer_frame(w, "Main.f", "main.ml", 3, 1);
    int64_t site = lfs_writer_site(w, 0, f);
    CHECK(site == 1);
    CHECK(lfs_writer_allocated_at(w, 3, site, 9) == 0);
    CHECK(lfs_writer_allocated_at(w, 1, site, 3) == 0);
    CHECK(lfs_writer_allocated_at(w, 77, site, 1) == 0); /* no such object: dropped */
    CHECK(lfs_writer_allocated_at(w, 3, site, 2) == 0);  /* given again: the last counts */
    lfs_writer_sample_rate(w, 0.5);
    CHECK(lfs_writer_object(w, 0, map, 48) == 0);
    CHECK(lfs_writer_element(w, 0, 1, 0) == 0);
    CHECK(lfs_writer_element(w, 0, 2, 1) == 0);
    CHECK(lfs_writer_reference(w, 0, 3, "next") == 0);
    CHECK(lfs_writer_reference(w, 0, 99, "lost") == 0);
    CHECK(lfs_writer_object(w, 1, entry, 32) == 0);
    CHECK(lfs_writer_reference(w, 1, 4, "v") == 0);
    CHECK(lfs_writer_object(w, 2, entry, FIVE_GIB) == 0);
    CHECK(lfs_writer_weak_reference(w, 2, 0, "owner") == 0);
    CHECK(lfs_writer_object(w, 3, entry, 24) == 0);
    CHECK(lfs_writer_object(w, 4, entry, 16) == 0);
    CHECK(lfs_writer_element(w, 4, 0, 7) == 0);
    CHECK(lfs_writer_root(w, 99, "global", "gone") == 0);
    CHECK(lfs_writer_root(w, 4, "stack", "") == 0);
    lfs_writer_taken_at(w, 1700000000123ULL);
}

static int str_is(const lf_snapshot *s, uint32_t index, const char *want)
{
    lf_str str = lf_snapshot_string(s, index);
    return str.len == strlen(want) && memcmp(str.ptr, want, str.len) == 0;
}

/* The hand graph as read back, value by value from its construction. */
static void check_hand_graph(const lf_snapshot *s)
{
    CHECK_EQ_U64(s->object_count, 5);
    CHECK_EQ_U64(s->edge_count, 6);
    CHECK_EQ_U64(s->class_count, 2);
    CHECK_EQ_U64(s->root_count, 2);
    CHECK_EQ_U64(s->stats.dangling_edges, 1);
    CHECK_EQ_U64(s->stats.dangling_roots, 1);
    CHECK_EQ_U64(s->clock.value, 1700000000123ULL);
    const uint64_t shallow[5] = {48, 32, FIVE_GIB, 24, 16};
    const uint32_t cls[5] = {0, 1, 1, 1, 1};
    const uint64_t first[6] = {0, 3, 4, 5, 5, 6};
    for (uint32_t v = 0; v < 5; v++) {
        CHECK_EQ_U64(lf_snapshot_shallow(s, v), shallow[v]);
        CHECK_EQ_U64(s->object_class[v], cls[v]);
        CHECK_EQ_U64(lf_snapshot_edges_begin(s, v), first[v]);
        CHECK_EQ_U64(lf_snapshot_edges_end(s, v), first[v + 1]);
    }
    const uint32_t target[6] = {1, 2, 3, 4, 0 | LF_EDGE_WEAK, 0};
    const uint8_t kind[6] = {LF_EDGE_KIND_ELEMENT, LF_EDGE_KIND_ELEMENT, LF_EDGE_KIND_FIELD,
                             LF_EDGE_KIND_FIELD, LF_EDGE_KIND_FIELD, LF_EDGE_KIND_ELEMENT};
    const char *field[6] = {NULL, NULL, "next", "v", "owner", NULL};
    const uint32_t index[6] = {0, 1, 0, 0, 0, 7};
    for (uint64_t e = 0; e < 6; e++) {
        CHECK_EQ_U64(s->edge_target[e], target[e]);
        uint8_t k;
        uint32_t label;
        lf_snapshot_edge_info(s, e, &k, &label);
        CHECK_EQ_U64(k, kind[e]);
        if (field[e])
            CHECK(str_is(s, label, field[e]));
        else
            CHECK_EQ_U64(label, index[e]);
    }
    CHECK_EQ_U64(s->root[0].node, 0);
    CHECK(str_is(s, s->root[0].kind, "global") && str_is(s, s->root[0].name, "m"));
    CHECK_EQ_U64(s->root[1].node, 4);
    CHECK(str_is(s, s->root[1].kind, "stack") && str_is(s, s->root[1].name, ""));
    CHECK(s->object_site != NULL && s->object_samples != NULL);
    if (s->object_site && s->object_samples) {
        CHECK_EQ_U64(s->object_site[1], 1);
        CHECK_EQ_U64(s->object_samples[1], 3);
        CHECK_EQ_U64(s->object_site[0], 0);
        CHECK_EQ_U64(s->object_samples[0], 0);
        CHECK_EQ_U64(s->object_site[3], 1);
        CHECK_EQ_U64(s->object_samples[3], 2);
        CHECK_EQ_U64(s->object_site[4], 0);
    }
    CHECK(s->sample_rate == 0.5);
    CHECK_EQ_U64(s->frame_count, 2);
    CHECK_EQ_U64(s->site_count, 2);
}

void test_lfs_stream_hand_graph(void)
{
    char streamed[256], built[256];
    test_tmp_path(streamed, sizeof streamed, "streamed.lfs");
    test_tmp_path(built, sizeof built, "built.lfs");
    lfs_writer *w = lfs_writer_new_streaming(streamed);
    hand_graph(w, 1);
    char msg[256];
    CHECK(lfs_writer_finish(w, "ignored.lfs", msg, sizeof msg) == 0);
    CHECK(access("ignored.lfs", F_OK) != 0);
    w = lfs_writer_new(LFS_WRITER_NO_ANALYSIS);
    hand_graph(w, 0);
    CHECK(lfs_writer_finish(w, built, msg, sizeof msg) == 0);

    lf_snapshot a, b;
    lf_error err;
    CHECK(lf_lfs_open(streamed, &a, &err) == 0);
    CHECK(lf_lfs_open(built, &b, &err) == 0);
    check_hand_graph(&a);
    check_hand_graph(&b); /* the builder reads the same: the test's values are the format's */
    lf_snapshot_free(&a);
    lf_snapshot_free(&b);
    unlink(streamed);
    unlink(built);
}

/* Each misuse fails, says why, and leaves no file behind. */
void test_lfs_stream_misuse(void)
{
    char path[256], msg[256];
    test_tmp_path(path, sizeof path, "misused.lfs");
    unlink(path);

    lfs_writer *w = lfs_writer_new_streaming(path);
    int64_t c = lfs_writer_class(w, "A");
    CHECK(lfs_writer_objects(w, 3) == 0);
    CHECK(lfs_writer_object(w, 1, c, 8) < 0); /* id 0 expected first */
    CHECK(lfs_writer_failure(w, msg, sizeof msg) == 1 && strstr(msg, "out of order") != NULL);
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) < 0);
    CHECK(access(path, F_OK) != 0);

    w = lfs_writer_new_streaming(path);
    c = lfs_writer_class(w, "A");
    CHECK(lfs_writer_objects(w, 3) == 0);
    CHECK(lfs_writer_object(w, 0, c, 8) == 0 && lfs_writer_object(w, 1, c, 8) == 0);
    CHECK(lfs_writer_reference(w, 0, 1, "x") < 0); /* 0 is no longer the object given last */
    CHECK(lfs_writer_failure(w, msg, sizeof msg) == 1 && strstr(msg, "given last") != NULL);
    lfs_writer_abandon(w);
    CHECK(access(path, F_OK) != 0);

    w = lfs_writer_new_streaming(path);
    c = lfs_writer_class(w, "A");
    CHECK(lfs_writer_objects(w, 3) == 0);
    CHECK(lfs_writer_object(w, 0, c, 8) == 0);
    CHECK(lfs_writer_failure(w, msg, sizeof msg) == 0);
    CHECK(lfs_writer_finish(w, path, msg, sizeof msg) < 0); /* 1 object of 3 */
    CHECK(strstr(msg, "fewer objects") != NULL);
    CHECK(access(path, F_OK) != 0);

    w = lfs_writer_new_streaming("/nonexistent-dir-of-leakfind/x.lfs");
    CHECK(lfs_writer_objects(w, 1) < 0);
    CHECK(lfs_writer_failure(w, msg, sizeof msg) == 1 && strstr(msg, "No such file or directory") != NULL);
    lfs_writer_abandon(w);
}

/* A device cannot be written out of order: the file is made aside and
 * copied into it, so /dev/null takes it and /dev/full says it is full. */
void test_lfs_stream_device(void)
{
    char msg[256] = "";
    lfs_writer *w = lfs_writer_new_streaming("/dev/null");
    hand_graph(w, 1);
    CHECK(lfs_writer_finish(w, NULL, msg, sizeof msg) == 0);
    w = lfs_writer_new_streaming("/dev/full");
    hand_graph(w, 1);
    CHECK(lfs_writer_finish(w, NULL, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "No space left on device") != NULL);
}
