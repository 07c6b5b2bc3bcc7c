/* test_dotnet_entries.c - a .NET Dictionary's entries told apart in its
 * Entry[] (core/analysis/dotnet_entries.h), on hand-written graphs: the
 * pairs expected follow from the order of the array's references. */
#include <stdlib.h>
#include <string.h>

#include "../../core/analysis/dotnet_entries.h"
#include "test.h"
#include "tests.h"
#include "test_support.h"

#define DICT "System.Collections.Generic.Dictionary"
#define HASHSET "System.Collections.Generic.HashSet"

/* A graph whose node 0x1 (class `array`) references, in order, nodes 0x10,
 * 0x11, ... of the classes in `targets` (tab-separated), rooted at 0x1. */
static int parse_array(lf_snapshot *s, const char *array, const char *targets)
{
    char text[4096], classes[1024];
    size_t at = (size_t)snprintf(text, sizeof text, "node\t0x1\t64\t%s\nroot\t0x1\tstatic field\tApp.map\n", array);
    snprintf(classes, sizeof classes, "%s", targets);
    uint32_t id = 0x10;
    for (char *cls = strtok(classes, "\t"); cls && at < sizeof text; cls = strtok(NULL, "\t"), id++)
        at += (size_t)snprintf(text + at, sizeof text - at, "node\t0x%x\t24\t%s\nedge\t0x1\t0x%x\tstrong\n", id, cls,
                               id);
    return test_parse_analyzed(text, s);
}

/* The walk's entries as "key:value" ids past 0x10 ("-" for none), one
 * space between; "not begun" when the walk refuses the array. */
static void entries_text(const lf_snapshot *s, char *out, size_t size)
{
    lf_dotnet_entries_walk w;
    uint32_t array = lf_snapshot_find_id(s, 0x1), key, value;
    size_t at = 0;
    out[0] = 0;
    if (lf_dotnet_entries_begin(&w, s, array) != 0) {
        snprintf(out, size, "not begun");
        return;
    }
    while (lf_dotnet_entries_next(&w, &key, &value))
        test_append_pair(s, 0x10, key, value, out, size, &at);
}

static void check_entries(const char *array, const char *targets, const char *want)
{
    lf_snapshot s;
    char got[512];
    CHECK(parse_array(&s, array, targets) == 0);
    entries_text(&s, got, sizeof got);
    char what[1200];
    snprintf(what, sizeof what, "%s [%s]: entries", array, targets);
    test_expect_text(what, got, want);
    lf_snapshot_free(&s);
}

void test_dotnet_entries_pairs(void)
{
    /* string keys: each key starts an entry; the entry of key 2 has a null
     * value (no edge), so key 3 starts the next one */
    check_entries(DICT "<System.String,App.Session>+Entry[]",
                  "System.String\tApp.Session\tSystem.String\tSystem.String\tApp.Session", "0:1 2:- 3:4");
    /* a value of a class derived from V is a value all the same */
    check_entries(DICT "<System.String,App.IHandler>+Entry[]", "System.String\tApp.Handler\tSystem.String\tApp.Other",
                  "0:1 2:3");
    /* keys and values of one class go two by two */
    check_entries(DICT "<System.String,System.String>+Entry[]",
                  "System.String\tSystem.String\tSystem.String\tSystem.String", "0:1 2:3");
    /* values that may be strings (object, an interface) go two by two */
    check_entries(DICT "<System.String,System.Object>+Entry[]",
                  "System.String\tSystem.String\tSystem.String\tApp.Session", "0:1 2:3");
    check_entries(DICT "<System.String,System.IComparable>+Entry[]",
                  "System.String\tSystem.String\tSystem.String\tSystem.Int32", "0:1 2:3");
    /* a value-type key has no edge: every target is a value */
    check_entries(DICT "<System.Int32,App.Session>+Entry[]", "App.Session\tApp.Session", "-:0 -:1");
    /* a value-type value: the keys alone */
    check_entries(DICT "<System.String,System.Int64>+Entry[]", "System.String\tSystem.String", "0:- 1:-");
    /* a HashSet's members, one entry each */
    check_entries(HASHSET "<App.Session>+Entry[]", "App.Session\tApp.Session", "0:- 1:-");
    /* keys of an interface type: no target is of class K, so no entry can
     * be told from the next */
    check_entries(DICT "<App.IKey,App.Session>+Entry[]", "App.Key\tApp.Session\tApp.Key\tApp.Session", "not begun");
    /* an array of no dictionary */
    check_entries("App.Session[]", "App.Session\tApp.Session", "not begun");
}
