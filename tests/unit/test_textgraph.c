/* test_textgraph.c - the text graph reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/analysis/analysis.h"
#include "../../core/base/bigmem.h"
#include "../../core/base/file.h"
#include "../../core/base/resident.h"
#include "../../core/model/edge_batch.h"
#include "../../core/model/idrank.h"
#include "../../core/model/idset.h"
#include "../../core/lfs/lfs.h"
#include "../../core/writer/lfs_writer.h"
#include "../../core/model/strtab.h"
#include "../../core/textgraph/textgraph.h"
#include "test.h"
#include <xxhash.h>
#include "test_support.h"
#include "tests.h"

static int parse(const char *text, lf_snapshot *s, lf_error *err)
{
    return lf_textgraph_parse((const uint8_t *)text, strlen(text), s, err);
}

void test_textgraph_parse(void)
{
    const char *text = "# comment\n"
                       "node\t0x10\t24\tNode\n"
                       "edge\t0x10\t0x20\tstrong\tnext\n" /* forward reference */
                       "\n"
                       "node\t32\t16\tjava.lang.Object[]\r\n"
                       "edge\t0x20\t0x10\tweak\t7\n"
                       "edge\t0x20\t0x99\tstrong\n" /* dangling */
                       "root\t0x10\tstatic field\tQueue.head\n"
                       "root\t0x55\tJNI global\n"; /* dangling */
    lf_snapshot s;
    lf_error err;
    CHECK(parse(text, &s, &err) == 0);
    CHECK_EQ_U64(s.object_count, 2);
    CHECK_EQ_U64(s.edge_count, 2);
    CHECK_EQ_U64(s.stats.dangling_edges, 1);
    CHECK_EQ_U64(s.stats.dangling_roots, 1);
    CHECK_EQ_U64(s.object_id[0], 0x10);
    CHECK_EQ_U64(s.object_id[1], 32);
    CHECK_EQ_U64(lf_snapshot_shallow(&s, 1), 16);
    CHECK(test_str_is(lf_snapshot_class_name(&s, s.object_class[1]), "java.lang.Object[]"));
    CHECK_EQ_U64(s.edge_target[0], 1);
    CHECK_EQ_U64(s.edge_kind[0], LF_EDGE_KIND_FIELD);
    CHECK(test_str_is(lf_snapshot_string(&s, s.edge_label[0]), "next"));
    CHECK_EQ_U64(s.edge_target[1], 0 | LF_EDGE_WEAK);
    CHECK_EQ_U64(s.edge_kind[1], LF_EDGE_KIND_ELEMENT);
    CHECK_EQ_U64(s.edge_label[1], 7);
    CHECK_EQ_U64(s.root_count, 1);
    CHECK(test_str_is(lf_snapshot_string(&s, s.root[0].kind), "static field"));
    CHECK(test_str_is(lf_snapshot_string(&s, s.root[0].name), "Queue.head"));
    lf_snapshot_free(&s);
}

void test_textgraph_errors(void)
{
    static const struct {
        const char *text;
        uint64_t line;
        const char *reason;
    } cases[] = {
        {"node\t1\t8\tA\nnode\t1\t8\tB\n", 2, "duplicate object id"},
        {"node\t1\t8\n", 1, "a node record has 4 fields, this one has 3"},
        {"node\tx1\t8\tA\n", 1, "bad object id 'x1'"},
        {"node\t1\t-8\tA\n", 1, "bad shallow size '-8'"},
        {"node\t1\t99999999999999999999\tA\n", 1, "bad shallow size '99999999999999999999'"},
        {"#\nedge\t1\t2\tsoft\n", 2, "edge strength must be 'strong' or 'weak'"},
        {"root\t1\n", 1, "a root record has 3 or 4 fields, this one has 2"},
        {"node\t1\t8\tA\nobject\t2\n", 2, "unknown record 'object' (expected node, edge, root or alloc)"},
        {"node\t1\t8\tA\nalloc\t1\n", 2, "an alloc record has an id and at least one frame"},
        {"alloc\tzz\tf (a.ml:1)\n", 1, "bad object id in alloc"},
        {"edge\t1\t2\tstrong\t4294967296\n", 1, "array index out of range"},
        {"node\t1\t8\t\n", 1, "empty class name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lf_snapshot s;
        lf_error err;
        CHECK(parse(cases[i].text, &s, &err) == -1);
        CHECK_EQ_U64(err.kind, LF_ERR_INPUT);
        CHECK_EQ_U64(err.where, LF_WHERE_LINE);
        CHECK_EQ_U64(err.position, cases[i].line);
        if (strcmp(err.reason, cases[i].reason) != 0) {
            test_failures++;
            fprintf(stderr, "  case %zu: reason '%s', expected '%s'\n", i, err.reason, cases[i].reason);
        }
    }
}
