/* serve_ids.c - an object id to its node, for every request that names an
 * object. Dumps whose ids are in node order (JVM addresses) are searched
 * as they are; the others (V8's ids) took a scan of every node: 45% of the
 * server's time under 32 clients on the 14M-node V8 snapshot. For those,
 * the keys id << 32 | node, sorted by id once (two counting passes over
 * the id's 16-bit halves, stable, so the ids come out in node order
 * already), are searched instead: 8 bytes a node. V8's ids are 32 bits;
 * a dump with a larger one keeps the scan. */
#include <stdlib.h>
#include <string.h>

#include "../../core/base/bigmem.h"
#include "serve.h"

/* One stable counting pass of keys by the 16 bits at shift. */
static void pass(const uint64_t *from, uint64_t *to, size_t n, unsigned shift, size_t *count)
{
    memset(count, 0, 65537 * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[((from[i] >> shift) & 0xffff) + 1]++;
    for (size_t d = 1; d <= 65536; d++)
        count[d] += count[d - 1];
    for (size_t i = 0; i < n; i++)
        to[count[(from[i] >> shift) & 0xffff]++] = from[i];
}

/* The sorted keys, or NULL (memory, or an id past 32 bits: -1 in *wide). */
static uint64_t *sorted_keys(const lf_snapshot *s, int *wide)
{
    size_t n = s->object_count;
    uint64_t *key = lf_big_malloc((n + 1) * sizeof *key), *tmp = lf_big_malloc((n + 1) * sizeof *tmp);
    size_t *count = malloc(65537 * sizeof *count);
    *wide = 0;
    for (uint32_t v = 0; key && tmp && count && v < n && !*wide; v++) {
        uint64_t id = lf_snapshot_object_id(s, v);
        *wide = id > UINT32_MAX;
        key[v] = id << 32 | v;
    }
    if (key && tmp && count && !*wide) {
        pass(key, tmp, n, 32, count);
        pass(tmp, key, n, 48, count);
    }
    free(count);
    lf_big_free(tmp);
    if (!tmp || !count || *wide) {
        lf_big_free(key);
        return NULL;
    }
    return key;
}

int serve_need_ids(serve_snapshot *snap)
{
    pthread_mutex_lock(&snap->ids_lock);
    int rc = 0;
    if (!snap->ids_built && !(snap->s.flags & LF_SNAP_IDS_SORTED)) {
        int wide;
        snap->id_key = sorted_keys(&snap->s, &wide);
        rc = snap->id_key || wide ? 0 : -1;
    }
    snap->ids_built = rc == 0;
    pthread_mutex_unlock(&snap->ids_lock);
    return rc;
}

uint32_t serve_find_id(serve_snapshot *snap, uint64_t id)
{
    /* a failure (memory) leaves the scan, slower but right */
    serve_need_ids(snap);
    const uint64_t *key = snap->id_key;
    if (!key || id > UINT32_MAX)
        return key ? LF_NODE_NONE : lf_snapshot_find_id(&snap->s, id);
    size_t lo = 0, hi = snap->s.object_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key[mid] >> 32 < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < snap->s.object_count && key[lo] >> 32 == id ? (uint32_t)key[lo] : LF_NODE_NONE;
}

void serve_ids_free(serve_snapshot *snap)
{
    lf_big_free(snap->id_key);
    snap->id_key = NULL;
    snap->ids_built = 0;
}
