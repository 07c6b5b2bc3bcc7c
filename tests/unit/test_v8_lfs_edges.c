/* test_v8_lfs_edges.c - every edge of every V8 fixture reads back from a
 * converted .lfs as it reads from the snapshot itself: same source, target
 * (weak bit included), kind, label text and V8 edge type (issue 33: a
 * property edge DevTools' rules make non-owning came back as "weak"), and
 * every closure's source place (issue 33 item 9: chunk PLAC). */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/input/open.h"
#include "../../core/lfs/lfs.h"
#include "../../core/v8/v8_values.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

/* How many edges of a and b differ in anything; edges of each V8 type seen
 * are counted into seen[]. Both have the same nodes and edge count. */
static uint64_t differing_edges(const lf_snapshot *a, const lf_snapshot *b, uint64_t seen[LF_V8E_OTHER + 1])
{
    uint64_t differ = 0;
    char la[512], lb[512];
    for (uint32_t v = 0; v < a->object_count; v++) {
        uint64_t first = lf_snapshot_edges_begin(a, v), end = lf_snapshot_edges_end(a, v);
        if (first != lf_snapshot_edges_begin(b, v) || end != lf_snapshot_edges_end(b, v)) {
            differ++;
            continue;
        }
        for (uint64_t e = first; e < end; e++) {
            uint8_t ka, kb, ta = 255, tb = 254;
            uint32_t ra, rb;
            lf_snapshot_edge_info(a, e, &ka, &ra);
            lf_snapshot_edge_info(b, e, &kb, &rb);
            size_t na = lf_snapshot_label_text(a, ka, ra, la, sizeof la);
            size_t nb = lf_snapshot_label_text(b, kb, rb, lb, sizeof lb);
            int typed = lf_snapshot_edge_types(a, e, e + 1, &ta) && lf_snapshot_edge_types(b, e, e + 1, &tb);
            if (typed && ta <= LF_V8E_OTHER)
                seen[ta]++;
            differ += !typed || ta != tb || ka != kb || na != nb || memcmp(la, lb, na) != 0 ||
                      a->edge_target[e] != b->edge_target[e];
        }
    }
    return differ;
}

static int same_string(const lf_snapshot *a, uint32_t sa, const lf_snapshot *b, uint32_t sb)
{
    lf_str x = lf_snapshot_string(a, sa), y = lf_snapshot_string(b, sb);
    return x.len == y.len && memcmp(x.ptr, y.ptr, x.len) == 0;
}

/* How many of a's places b lacks or has otherwise (node, name, script,
 * line, column); b has as many. */
static uint64_t differing_places(const lf_snapshot *a, const lf_snapshot *b)
{
    if (a->place_count != b->place_count)
        return a->place_count > b->place_count ? a->place_count - b->place_count : b->place_count - a->place_count;
    uint64_t differ = 0;
    for (uint32_t i = 0; i < a->place_count; i++) {
        const lf_place *p = &a->place[i], *q = lf_snapshot_place(b, p->node);
        differ += !q || !same_string(a, p->name, b, q->name) || !same_string(a, p->script, b, q->script) ||
                  p->line != q->line || p->column != q->column;
    }
    return differ;
}

static void check_round_trip(const char *fixture, const char *tmp, uint64_t seen[LF_V8E_OTHER + 1],
                             uint64_t *places)
{
    lf_snapshot direct, converted;
    lf_error err;
    if (lf_open(fixture, NULL, &direct, &err) != 0) {
        fprintf(stderr, "  cannot read %s\n", fixture);
        CHECK(0);
        return;
    }
    CHECK(lf_lfs_write(&direct, tmp, &err) == 0);
    CHECK(lf_lfs_open(tmp, &converted, &err) == 0);
    CHECK_EQ_U64(converted.source_format, LF_FORMAT_V8);
    CHECK_EQ_U64(converted.object_count, direct.object_count);
    CHECK_EQ_U64(converted.edge_count, direct.edge_count);
    if (converted.object_count == direct.object_count && converted.edge_count == direct.edge_count) {
        uint64_t differ = differing_edges(&direct, &converted, seen);
        if (differ)
            fprintf(stderr, "  %s: %llu edges differ after convert\n", fixture, (unsigned long long)differ);
        CHECK_EQ_U64(differ, 0);
        CHECK_EQ_U64(differing_places(&direct, &converted), 0);
        *places += direct.place_count;
    }
    lf_snapshot_free(&converted);
    lf_snapshot_free(&direct);
    unlink(tmp);
}

void test_v8_lfs_edge_round_trip(void)
{
    static const char *const patterns[] = {"fixtures/v8/*.heapsnapshot", "fixtures/node/*.heapsnapshot.gz"};
    uint64_t seen[LF_V8E_OTHER + 1] = {0}, places = 0;
    size_t fixtures = 0;
    char tmp[256];
    test_tmp_path(tmp, sizeof tmp, "v8-edges.lfs");
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        glob_t g;
        if (glob(patterns[p], 0, NULL, &g) != 0)
            continue;
        for (size_t i = 0; i < g.gl_pathc; i++, fixtures++)
            check_round_trip(g.gl_pathv[i], tmp, seen, &places);
        globfree(&g);
    }
    CHECK(fixtures >= 20);
    /* Node's own heap has thousands of closures with a place in each
     * snapshot (fixtures/node/README.md): the places were compared */
    CHECK(places > 20 * 1000);
    /* the fixtures hold every type V8 writes, so each was compared */
    for (int t = LF_V8E_CONTEXT; t <= LF_V8E_WEAK; t++) {
        if (!seen[t])
            fprintf(stderr, "  no edge of type %s in the fixtures\n", lf_v8_edge_type_name((uint8_t)t));
        CHECK(seen[t] > 0);
    }
}

/* A V8 edge type past the last one (8), written with valid checksums: the
 * .lfs reader refuses it at the ETYP chunk's first entry. */
void test_v8_lfs_edge_type_corrupt(void)
{
    lf_snapshot direct, converted;
    lf_error err;
    char tmp[256], bad[256];
    test_tmp_path(tmp, sizeof tmp, "v8-etyp.lfs");
    test_tmp_path(bad, sizeof bad, "v8-etyp-bad.lfs");
    CHECK(lf_open("fixtures/v8/tiny.heapsnapshot", NULL, &direct, &err) == 0);
    CHECK(lf_lfs_write(&direct, tmp, &err) == 0);
    CHECK(lf_lfs_open(tmp, &converted, &err) == 0);
    CHECK(converted.edge_type != NULL && converted.edge_count > 0);
    uint8_t *types = malloc(converted.edge_count + 1);
    if (types && converted.edge_type) {
        memcpy(types, converted.edge_type, converted.edge_count);
        types[0] = 8;
        converted.edge_type = types;
        CHECK(lf_lfs_write(&converted, bad, &err) == 0);
        lf_snapshot b;
        CHECK(lf_lfs_open(bad, &b, &err) == -1);
        CHECK(strcmp(err.reason, "corrupt leakfind snapshot") == 0);
        CHECK(strstr(err.detail, "ETYP") != NULL);
        CHECK(strstr(err.detail, "entry 0 has invalid value 8") != NULL);
    }
    free(types);
    lf_snapshot_free(&converted);
    lf_snapshot_free(&direct);
    unlink(tmp);
    unlink(bad);
}

/* A PLAC chunk with valid checksums but bad entries is refused at the
 * entry, with its offset: closures.heapsnapshot's places are nodes 2, 5, 8
 * (fixtures/v8/README.md); a script string past the table, or nodes out of
 * order, is corrupt. */
static void check_bad_places(const lf_snapshot *good, const char *bad, int which, const char *want)
{
    lf_snapshot copy = *good;
    lf_error err;
    lf_place place[3];
    memcpy(place, good->place, sizeof place);
    if (which == 0)
        place[1].script = good->string_count; /* one past the last string */
    else
        place[2].node = 1;                    /* below the entry before it (5) */
    copy.place = place;
    CHECK(lf_lfs_write(&copy, bad, &err) == 0);
    lf_snapshot b;
    CHECK(lf_lfs_open(bad, &b, &err) == -1);
    CHECK(strcmp(err.reason, "corrupt leakfind snapshot") == 0);
    if (!strstr(err.detail, want))
        fprintf(stderr, "  %s: wanted \"%s\"\n", err.detail, want);
    CHECK(strstr(err.detail, want) != NULL);
    unlink(bad);
}

void test_v8_lfs_places_corrupt(void)
{
    lf_snapshot direct;
    lf_error err;
    char bad[256];
    test_tmp_path(bad, sizeof bad, "v8-plac-bad.lfs");
    CHECK(lf_open("fixtures/v8/closures.heapsnapshot", NULL, &direct, &err) == 0);
    CHECK_EQ_U64(direct.place_count, 3);
    if (direct.place_count == 3) {
        CHECK_EQ_U64(direct.place[0].node, 2);
        CHECK_EQ_U64(direct.place[1].node, 5);
        CHECK_EQ_U64(direct.place[2].node, 8);
        check_bad_places(&direct, bad, 0, "chunk PLAC entry 1 has invalid value 5");
        check_bad_places(&direct, bad, 1, "chunk PLAC entry 2 has invalid value 1");
    }
    lf_snapshot_free(&direct);
}
