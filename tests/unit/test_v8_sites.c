/* test_v8_sites.c - allocation sites read from V8 snapshots written with
 * allocation tracking: a hand-made trace tree checked site by site, bad
 * trace data, and the planted leak of fixtures/node/alloc_sites.js. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/input/open.h"
#include "../../core/v8/v8.h"
#include "test.h"
#include "test_support.h"
#include "tests.h"

/* Strings: 0 "", 1 "(root)", 2 "A", 3 "f", 4 "g", 5 "h", 6 "a.js", 7 "b.js", 8 "x".
 * Functions: 0 (root), 1 f a.js:10:5, 2 g a.js:20 (column unknown), 3 h b.js (no line).
 * Trace tree: (root)#1 -> f#2 -> {g#3, h#4}; (root)#1 -> h#5 -> f#6.
 * Nodes: the root (trace 0) with a property edge to each A; the A's have
 * trace ids TRACE_IDS. */
#define TRACE_IDS "3,4,6,2,1,0,6"
static const char *const tiny_head =
    "{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\","
    "\"trace_node_id\"],\"node_types\":[[\"hidden\",\"array\",\"string\",\"object\",\"code\",\"closure\","
    "\"regexp\",\"number\",\"native\",\"synthetic\"]],\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],"
    "\"edge_types\":[[\"context\",\"element\",\"property\",\"internal\",\"hidden\",\"shortcut\",\"weak\"]],"
    "\"trace_function_info_fields\":[\"function_id\",\"name\",\"script_name\",\"script_id\",\"line\",\"column\"],"
    "\"trace_node_fields\":[\"id\",\"function_info_index\",\"count\",\"size\",\"children\"]},"
    "\"node_count\":8,\"edge_count\":7,\"trace_function_count\":%s},\n";

/* The tiny snapshot with the given trace ids of the seven A's, function
 * infos and trace tree (NULL: the standard ones). */
static char *tiny_snapshot(const char *count, const char *ids, const char *infos, const char *tree)
{
    unsigned id[7];
    if (sscanf(ids, "%u,%u,%u,%u,%u,%u,%u", &id[0], &id[1], &id[2], &id[3], &id[4], &id[5], &id[6]) != 7)
        return NULL;
    size_t cap = 4096, o = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    o += (size_t)snprintf(s + o, cap - o, tiny_head, count);
    o += (size_t)snprintf(s + o, cap - o, "\"nodes\":[9,1,1,0,7,0");
    for (unsigned k = 0; k < 7; k++)
        o += (size_t)snprintf(s + o, cap - o, ",3,2,%u,16,0,%u", 3 + 2 * k, id[k]);
    o += (size_t)snprintf(s + o, cap - o, "],\n\"edges\":[");
    for (unsigned k = 0; k < 7; k++)
        o += (size_t)snprintf(s + o, cap - o, "%s2,8,%u", k ? "," : "", 6 * (k + 1));
    o += (size_t)snprintf(s + o, cap - o,
                          "],\n\"trace_function_infos\":[%s],\n\"trace_tree\":[%s],\n\"samples\":[],"
                          "\"strings\":[\"\",\"(root)\",\"A\",\"f\",\"g\",\"h\",\"a.js\",\"b.js\",\"x\"]}\n",
                          infos ? infos : "0,1,0,0,0,0, 11,3,6,1,10,5, 12,4,6,1,20,0, 13,5,7,2,0,0",
                          tree ? tree : "1,0,0,0,[2,1,1,16,[3,2,1,16,[],4,3,1,16,[]],5,3,1,16,[6,1,1,16,[]]]");
    return s;
}

/* The stack of site s as "f a.js:10:5 < ...", innermost first. */
static void stack_text(const lf_snapshot *s, uint32_t site, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned depth = 0; site != LF_SITE_NONE && depth < 16; depth++) {
        const lf_frame *f = &s->frame[s->site[site].frame];
        lf_str fn = lf_snapshot_string(s, f->function), file = lf_snapshot_string(s, f->file);
        o += (size_t)snprintf(buf + o, size - o, "%s%.*s %.*s:%u:%u", depth ? " < " : "", (int)fn.len,
                              fn.ptr, (int)file.len, file.ptr, f->line, f->column);
        site = s->site[site].caller;
    }
}

static int parse_text(const char *json, unsigned threads, lf_snapshot *s, lf_error *err)
{
    return lf_v8_parse((const uint8_t *)json, strlen(json), threads, 0, s, err);
}

void test_v8_sites_tree(void)
{
    static const char *const want[7] = {
        "g a.js:20:0 < f a.js:10:5", "h b.js:0:0 < f a.js:10:5", "f a.js:10:5 < h b.js:0:0",
        "f a.js:10:5", "", "", "f a.js:10:5 < h b.js:0:0"};
    char *json = tiny_snapshot("4", TRACE_IDS, NULL, NULL);
    CHECK(json != NULL);
    for (unsigned threads = 1; json && threads <= 2; threads++) {
        lf_snapshot s;
        lf_error err;
        CHECK(parse_text(json, threads, &s, &err) == 0);
        CHECK(s.object_site != NULL);
        if (!s.object_site)
            return;
        /* five trace nodes below the root, three functions besides "(root)" */
        CHECK_EQ_U64(s.site_count, 6);
        CHECK_EQ_U64(s.frame_count, 4);
        CHECK_EQ_U64(s.object_site[0], LF_SITE_NONE);
        for (uint32_t k = 0; k < 7; k++) {
            char got[256];
            stack_text(&s, s.object_site[k + 1], got, sizeof got);
            if (strcmp(got, want[k]) != 0) {
                fprintf(stderr, "  A #%u: site '%s', expected '%s'\n", k, got, want[k]);
                CHECK(0);
            }
        }
        /* a caller is always a smaller site */
        for (uint32_t site = 1; site < s.site_count; site++)
            CHECK(s.site[site].caller < site);
        CHECK_EQ_U64(s.stats.warnings, 0);
        lf_snapshot_free(&s);
    }
    free(json);
}

/* The byte offset of the n-th (1-based) occurrence of needle in json. */
static uint64_t offset_of(const char *json, const char *needle, unsigned n)
{
    const char *p = json;
    for (unsigned k = 0; k < n && p; k++)
        p = strstr(k ? p + 1 : p, needle);
    return p ? (uint64_t)(p - json) : UINT64_MAX;
}

static void check_fails(const char *json, const char *reason, uint64_t offset)
{
    lf_snapshot s;
    lf_error err;
    CHECK(json != NULL);
    if (!json)
        return;
    CHECK(parse_text(json, 1, &s, &err) == -1);
    if (strstr(err.reason, reason) == NULL) {
        fprintf(stderr, "  reason '%s', expected '%s'\n", err.reason, reason);
        CHECK(0);
    }
    CHECK_EQ_U64(err.position, offset);
}

void test_v8_sites_errors(void)
{
    /* a function index past the four functions: the offset of that 9 */
    char *json = tiny_snapshot("4", TRACE_IDS, NULL, "1,0,0,0,[2,1,1,16,[3,9,1,16,[]]]");
    check_fails(json, "trace function index out of range", json ? offset_of(json, "[3,9,", 1) + 3 : 0);
    free(json);
    /* two trace nodes with id 2: the second one's function index */
    json = tiny_snapshot("4", TRACE_IDS, NULL, "1,0,0,0,[2,1,1,16,[],2,2,1,16,[]]");
    check_fails(json, "duplicate trace node id", json ? offset_of(json, "2,2,1,16", 1) + 2 : 0);
    free(json);
    /* f named by string 99 of 8 */
    json = tiny_snapshot("4", TRACE_IDS, "0,1,0,0,0,0, 11,99,6,1,10,5", "1,0,0,0,[2,1,1,16,[]]");
    check_fails(json, "string index out of range", json ? offset_of(json, "\"trace_function_infos\":[", 1) + 23 : 0);
    free(json);
    /* a tree missing one ']': its last ']' closes the root's children, and
     * "samples" is read as the next trace node */
    json = tiny_snapshot("4", TRACE_IDS, NULL, "1,0,0,0,[2,1,1,16,[]");
    check_fails(json, "expected a non-negative integer", json ? offset_of(json, "],\n\"samples\"", 1) + 3 : 0);
    free(json);
    /* ids that name no trace node are "no site", each a warning */
    json = tiny_snapshot("4", "3,77,6,4000000000,1,0,6", NULL, NULL);
    lf_snapshot s;
    lf_error err;
    CHECK(json && parse_text(json, 1, &s, &err) == 0);
    if (json && s.object_site) {
        CHECK_EQ_U64(s.stats.warnings, 2);
        CHECK_EQ_U64(s.object_site[2], LF_SITE_NONE);
        CHECK_EQ_U64(s.object_site[4], LF_SITE_NONE);
        CHECK(s.object_site[1] != LF_SITE_NONE);
        lf_snapshot_free(&s);
    } else {
        CHECK(0);
    }
    free(json);
    /* tracking off (trace_function_count 0): no sites, whatever the arrays say */
    json = tiny_snapshot("0", TRACE_IDS, NULL, NULL);
    CHECK(json && parse_text(json, 2, &s, &err) == 0);
    if (json) {
        CHECK(s.object_site == NULL);
        CHECK_EQ_U64(s.site_count, 0);
        lf_snapshot_free(&s);
    }
    free(json);
}

/* Where `function makeLeak(` is in the fixture's source: line, and the
 * column of its '(' (V8 places a function at its parameter list). */
static int planted_position(unsigned *line, unsigned *column)
{
    FILE *f = fopen("fixtures/node/alloc_sites.js", "r");
    if (!f)
        return -1;
    char buf[512];
    for (unsigned n = 1; fgets(buf, sizeof buf, f); n++) {
        const char *p = strstr(buf, "function makeLeak(");
        if (p == buf) {
            *line = n;
            *column = (unsigned)(strchr(buf, '(') - buf) + 1;
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    return -1;
}

static int ends_with(lf_str s, const char *tail)
{
    size_t n = strlen(tail);
    return s.len >= n && memcmp(s.ptr + s.len - n, tail, n) == 0;
}

/* The function of site's innermost frame is fn. */
static int site_function_is(const lf_snapshot *s, uint32_t site, const char *fn)
{
    return site != LF_SITE_NONE && test_str_is(lf_snapshot_string(s, s->frame[s->site[site].frame].function), fn);
}

void test_v8_sites_planted(void)
{
    unsigned line = 0, column = 0;
    CHECK(planted_position(&line, &column) == 0);
    for (unsigned requests = 100; requests <= 300; requests += 100) {
        char path[128];
        snprintf(path, sizeof path, "fixtures/node/alloc_sites-%u.heapsnapshot.gz", requests);
        lf_snapshot s;
        lf_error err;
        CHECK(lf_open(path, NULL, &s, &err) == 0);
        CHECK(s.object_site != NULL);
        if (!s.object_site) {
            lf_snapshot_free(&s);
            continue;
        }
        CHECK_EQ_U64(s.stats.warnings, 0);
        uint64_t leaked = 0, at_site = 0;
        for (uint32_t v = 0; v < s.object_count; v++) {
            if (!test_str_is(lf_snapshot_object_label(&s, v), "LeakedRequest"))
                continue;
            leaked++;
            uint32_t site = s.object_site[v];
            if (!site_function_is(&s, site, "makeLeak"))
                continue;
            const lf_frame *f = &s.frame[s.site[site].frame];
            uint32_t caller = s.site[site].caller;
            at_site += f->line == line && f->column == column &&
                       ends_with(lf_snapshot_string(&s, f->file), "/alloc_sites.js") &&
                       site_function_is(&s, caller, "handleRequest") &&
                       site_function_is(&s, s.site[caller].caller, "main");
        }
        /* every LeakedRequest, all from makeLeak called by handleRequest by main */
        CHECK_EQ_U64(leaked, requests);
        CHECK_EQ_U64(at_site, requests);
        lf_snapshot_free(&s);
    }
}
