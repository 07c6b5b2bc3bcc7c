/* object_id.c - see object_id.h. */
#include "object_id.h"

#include <stdio.h>
#include <string.h>

#include "nearest_ids.h"
#include "output.h"

/* Past this many objects a scan of every id (about 100 ns each: an HPROF
 * dump's are read back from the file) gives way to one edit's lookups,
 * when the ids are sorted. */
#define SCAN_MAX_OBJECTS (4u << 20)

size_t cli_closest_ids(const lf_snapshot *s, const char *arg, char *buf, size_t size)
{
    nearest_id best[NEAREST_KEEP];
    int by_edits = s->object_count > SCAN_MAX_OBJECTS && (s->flags & LF_SNAP_IDS_SORTED);
    size_t count = nearest_ids(s, arg, by_edits, best), o = 0;
    if (size == 0)
        return 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count && o < size; i++) {
        char id[32], bytes[32], tail[48] = ""; /* path: no analysis, no retained size */
        id[nearest_id_write(id, lf_snapshot_object_id(s, best[i].node), nearest_id_style(arg))] = '\0';
        uint32_t cls = s->object_class[best[i].node];
        lf_str name = cls < s->class_count ? lf_snapshot_class_name(s, cls) : (lf_str){"?", 1};
        out_format_bytes(bytes, sizeof bytes, best[i].bytes);
        if (nearest_id_unreachable(s, best[i].node))
            snprintf(tail, sizeof tail, ", unreachable");
        else if (lf_snapshot_has_retained(s))
            snprintf(tail, sizeof tail, ", retaining %s", bytes);
        int n = snprintf(buf + o, size - o, "%s%s: %.*s%s%s", i == 0 ? " (did you mean " : "; or ", id,
                         (int)(name.len > 200 ? 200 : name.len), name.ptr, tail, i + 1 == count ? "?)" : "");
        if (n < 0)
            break;
        o += (size_t)n;
    }
    if (o >= size) { /* cut: no half a suggestion */
        buf[0] = '\0';
        o = 0;
    }
    return o;
}

int cli_find_object(cli_context *ctx, const lf_snapshot *s, const char *arg, const char *what, const char *prefix,
                    uint32_t *node)
{
    uint64_t id;
    if (cli_parse_id(arg, &id))
        return cli_usage_error(ctx, "%s is an object id (0x1f, @123, 123), not '%s'", what, arg);
    *node = lf_snapshot_find_id(s, id);
    if (*node != LF_NODE_NONE)
        return EXIT_OK;
    char near[1024];
    cli_closest_ids(s, arg, near, sizeof near);
    cli_message("error", "%sno object with id %s%s", prefix, arg, near);
    return EXIT_USAGE;
}
