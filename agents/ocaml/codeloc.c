/* codeloc.c - where in the source an anonymous function is.
 *
 * An anonymous function's symbol says only its stamp (camlLeaky__fun_412).
 * A program built with -g has debuginfo for the calls and allocations in
 * its code, in the frame table: the first of them in the function's code
 * (the lowest return address) that the function's own file has gives its
 * file and a line inside it. The
 * descriptors with debuginfo are sorted by address once, the first time a
 * label asks (8 bytes per descriptor), and again only if the table changed
 * (natdynlink). */
#define CAML_INTERNALS
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <caml/backtrace_prim.h>

typedef struct located_descr {
    uintptr_t retaddr;
    void *descr;
} located_descr;

static located_descr *by_address; /* descriptors with debuginfo, by retaddr */
static size_t by_address_count;
static const void *indexed_table; /* the table they come from */
static size_t indexed_slots;

static int by_retaddr(const void *a, const void *b)
{
    uintptr_t x = ((const located_descr *)a)->retaddr, y = ((const located_descr *)b)->retaddr;
    return x < y ? -1 : x > y;
}

static int index_descriptors(void)
{
    size_t slots;
    const void *table = agent_frames_table(&slots);
    if (!table)
        return -1;
    if (by_address && indexed_table == table && indexed_slots == slots)
        return 0;
    free(by_address);
    by_address_count = 0;
    by_address = malloc((slots ? slots : 1) * sizeof *by_address);
    if (!by_address)
        return -1;
    for (size_t i = 0; i < slots; i++) {
        uintptr_t retaddr;
        void *d = agent_frames_debug_slot(i, &retaddr);
        if (d)
            by_address[by_address_count++] = (located_descr){retaddr, d};
    }
    qsort(by_address, by_address_count, sizeof *by_address, by_retaddr);
    indexed_table = table;
    indexed_slots = slots;
    return 0;
}

/* Whether a debuginfo file is the unit's own source: "anon.ml" for Anon,
 * "list.ml" for Stdlib.List (its unit Stdlib__List), any directory. */
static int is_unit_file(const char *file, const char *unit)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    const char *dot = strrchr(base, '.');
    size_t n = dot ? (size_t)(dot - base) : strlen(base);
    return n == strlen(unit) && strncasecmp(base, unit, n) == 0;
}

/* The outermost location of descriptor d in the unit's own source (an
 * inlined call's debuginfo comes innermost first, and what was inlined
 * from elsewhere names the other file); 0 when found. */
static int own_location(void *d, const char *unit, struct caml_loc_info *out)
{
    int found = 0;
    for (debuginfo dbg = caml_debuginfo_extract(d); dbg; dbg = caml_debuginfo_next(dbg)) {
        struct caml_loc_info li;
        caml_debuginfo_location(dbg, &li);
        if (li.loc_valid && li.loc_filename && is_unit_file(li.loc_filename, unit))
            *out = li, found = 1;
    }
    return found ? 0 : -1;
}

/* How many descriptors of one function are tried for one in its own file. */
#define TRIES 16

int agent_code_location(uintptr_t start, uintptr_t end, const char *unit, char *file, size_t len,
                        int *line)
{
    if (index_descriptors())
        return -1;
    size_t lo = 0, hi = by_address_count; /* the first retaddr past start */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_address[mid].retaddr <= start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < by_address_count && i < lo + TRIES && by_address[i].retaddr <= end; i++) {
        struct caml_loc_info li;
        if (own_location(by_address[i].descr, unit, &li) == 0) {
            snprintf(file, len, "%s", li.loc_filename);
            *line = AGENT_LOC_LINE(li);
            return 0;
        }
    }
    return -1;
}
