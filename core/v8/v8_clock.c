/* v8_clock.c - the order of V8 snapshots of one process (v8_internal.h,
 * v8.h): the largest id of a heap object, from the reader's arrays or from
 * a scan of the nodes array fed in pieces (a gzip stream, a file read in
 * blocks) without reading the rest of the snapshot. */
#include <stdlib.h>
#include <string.h>

#include "v8.h"
#include "v8_internal.h"

lf_clock v8_clock_of(const v8_raw *raw)
{
    uint64_t largest = 0;
    for (uint32_t v = 0; v < raw->node_count; v++) {
        uint8_t kind = v8_node_kind(raw, v);
        if (kind != V8N_NATIVE && kind != V8N_SYNTHETIC && raw->node_id[v] > largest)
            largest = raw->node_id[v];
    }
    return largest ? (lf_clock){LF_CLOCK_V8_IDS, largest} : (lf_clock){LF_CLOCK_NONE, 0};
}

/* The header is kept until "nodes":[ is in it: a few KiB in every snapshot
 * seen; past this, the file is not one whose order can be read cheaply. */
#define HEAD_MAX (4u << 20)

struct lf_v8_clock_scan {
    uint8_t *head;            /* the bytes before the values, while looking for them */
    size_t head_len;
    size_t tried_at;          /* head_len at the last parse of the head */
    int in_values;            /* past "nodes":[ */
    v8_nodes_layout layout;
    unsigned field;           /* of the value being read, in its row */
    int in_number;
    uint64_t number, row_id, row_type;
    uint64_t largest;
};

lf_v8_clock_scan *lf_v8_clock_begin(void)
{
    lf_v8_clock_scan *c = calloc(1, sizeof *c);
    if (c && !(c->head = malloc(HEAD_MAX))) {
        free(c);
        return NULL;
    }
    return c;
}

/* A whole value: a heap object's id counts when its row ends. */
static void end_value(lf_v8_clock_scan *c)
{
    const v8_nodes_layout *l = &c->layout;
    if (c->field == l->id_field)
        c->row_id = c->number;
    else if (c->field == l->type_field)
        c->row_type = c->number;
    c->in_number = 0;
    c->number = 0;
    if (++c->field < l->fields)
        return;
    c->field = 0;
    if (c->row_type < 32 && (l->heap_types >> c->row_type & 1) && c->row_id > c->largest)
        c->largest = c->row_id;
}

/* 1 at the array's end, 0 for more, -1 on a byte no nodes array has. */
static int scan_values(lf_v8_clock_scan *c, const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        uint8_t b = p[i];
        if (b >= '0' && b <= '9') {
            if (c->number > (UINT64_MAX - 9) / 10)
                return -1;
            c->number = c->number * 10 + (b - '0');
            c->in_number = 1;
        } else if (b == ',' || b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == ']') {
            if (c->in_number)
                end_value(c);
            if (b == ']')
                return 1;
        } else {
            return -1;
        }
    }
    return 0;
}

int lf_v8_clock_feed(lf_v8_clock_scan *c, const uint8_t *data, size_t len)
{
    if (c->in_values)
        return len ? scan_values(c, data, len) : -1; /* the end, before the array's */
    size_t take = len < HEAD_MAX - c->head_len ? len : HEAD_MAX - c->head_len;
    if (take)
        memcpy(c->head + c->head_len, data, take);
    c->head_len += take;
    /* the head is parsed again only once it has doubled (or at the end, or
     * full): small pieces cost linear time, not quadratic */
    int last = len == 0 || c->head_len == HEAD_MAX;
    if (!last && c->head_len < 2 * c->tried_at)
        return 0;
    c->tried_at = c->head_len;
    lf_error err;
    if (v8_probe_nodes(c->head, c->head_len, &c->layout, &err))
        return err.truncated && take == len && !last ? 0 : -1;
    c->in_values = 1;
    /* the values that came with the header, then the rest of this piece */
    int rc = scan_values(c, c->head + c->layout.values_at, c->head_len - c->layout.values_at);
    return rc ? rc : scan_values(c, data + take, len - take);
}

lf_clock lf_v8_clock_end(lf_v8_clock_scan *c, int whole)
{
    lf_clock clock = {LF_CLOCK_NONE, 0};
    if (c && whole && c->largest)
        clock = (lf_clock){LF_CLOCK_V8_IDS, c->largest};
    if (c)
        free(c->head);
    free(c);
    return clock;
}
