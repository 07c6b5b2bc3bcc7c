/* dangling_note.c - where a dump's references to missing objects come from,
 * for the message after reading and for info. */
#include "dangling_note.h"

#include <inttypes.h>
#include <stdio.h>

int dangling_all_expected(const lf_snapshot *s)
{
    return s->stats.dangling_edges && s->stats.dangling_roots == 0 &&
           s->stats.dangling_expected == s->stats.dangling_edges;
}

size_t dangling_holder_text(const lf_snapshot *s, char *buf, size_t size)
{
    uint64_t holder = s->stats.dangling_top_holder;
    if (holder == 0 || holder > s->object_count || size == 0)
        return 0;
    uint32_t node = (uint32_t)(holder - 1);
    lf_str cls = lf_snapshot_object_label(s, node);
    uint64_t id = lf_snapshot_object_id(s, node);
    int n = snprintf(buf, size, "%" PRIu64 " from %.*s %s%" PRIx64, s->stats.dangling_top_count,
                     (int)(cls.len > 300 ? 300 : cls.len), cls.ptr,
                     (s->flags & LF_SNAP_IDS_AT) ? "@" : "0x", id);
    size_t len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
    /* the roots that name it: what holds the holder (first few) */
    unsigned named = 0;
    for (uint32_t r = 0; r < s->root_count && len + 1 < size; r++) {
        if (s->root[r].node != node)
            continue;
        lf_str kind = lf_snapshot_string(s, s->root[r].kind);
        if (named == 3) {
            n = snprintf(buf + len, size - len, ", ...");
        } else {
            n = snprintf(buf + len, size - len, "%s%.*s", named ? ", " : " (", (int)(kind.len > 100 ? 100 : kind.len),
                         kind.ptr);
        }
        len += n < 0 ? 0 : (size_t)n < size - len ? (size_t)n : size - len - 1;
        if (named++ == 3)
            break;
    }
    if (named && len + 2 < size)
        len += (size_t)snprintf(buf + len, size - len, ")");
    return len;
}
