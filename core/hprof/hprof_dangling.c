/* hprof_dangling.c - where references to ids with no record come from. A
 * real HotSpot dump always has some (elements of an object array a JNI global
 * holds): counted apart, they need not alarm anyone; others still do. */
#include <string.h>

#include "hprof_internal.h"
#include "../model/snapshot.h"

void hprof_dangling_init(hprof_dangling *d)
{
    memset(d, 0, sizeof *d);
    d->top = LF_NODE_NONE;
}

static void note_array(hprof_dangling *d, uint32_t node, uint64_t count)
{
    for (unsigned i = 0; i < d->arrays; i++)
        if (d->array[i] == node) {
            d->array_count[i] += count;
            return;
        }
    if (d->arrays == HPROF_DANGLING_ARRAYS) {
        d->arrays_overflow = 1;
        return;
    }
    d->array[d->arrays] = node;
    d->array_count[d->arrays++] = count;
}

static void note_top(hprof_dangling *d, uint32_t node, uint64_t count)
{
    if (count > d->top_count || (count == d->top_count && node < d->top))
        d->top = node, d->top_count = count;
}

void hprof_dangling_note(hprof_dangling *d, uint32_t node, uint8_t tag, uint64_t count)
{
    d->holders++;
    note_top(d, node, count);
    if (tag == HPROF_OBJ_ARRAY_DUMP)
        note_array(d, node, count);
}

void hprof_dangling_merge(hprof_dangling *into, const hprof_dangling *from)
{
    into->holders += from->holders;
    if (from->top != LF_NODE_NONE)
        note_top(into, from->top, from->top_count);
    into->arrays_overflow |= from->arrays_overflow;
    for (unsigned i = 0; i < from->arrays; i++)
        note_array(into, from->array[i], from->array_count[i]);
}

void hprof_dangling_stats(const hprof_dangling *d, const uint32_t *jni_global, size_t n,
                          lf_snapshot_stats *stats)
{
    stats->dangling_holders = d->holders;
    stats->dangling_top_holder = d->top == LF_NODE_NONE ? 0 : (uint64_t)d->top + 1;
    stats->dangling_top_count = d->top_count;
    stats->dangling_expected = 0;
    if (d->arrays_overflow)
        return; /* not the VM's one array: every dangling reference is news */
    for (unsigned i = 0; i < d->arrays; i++)
        for (size_t k = 0; k < n; k++)
            if (jni_global[k] == d->array[i]) {
                stats->dangling_expected += d->array_count[i];
                break;
            }
}
