/* query.c - a parsed query's accessors and its release (query.h). */
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "query_ast.h"

void lf_query_free(lf_query *q)
{
    if (!q)
        return;
    q_fields_free(q);
    q_prepare_free(q);
    for (size_t c = 0; c < q->cls_count; c++)
        free(q->cls_match[c]);
    free(q->text);
    lf_big_free(q->node); /* lf_vec_reserve's */
    lf_big_free(q->seg);
    lf_big_free(q->lit);
    lf_big_free(q->field);
    free(q);
}

size_t lf_query_class_count(const lf_query *q)
{
    return q->cls_count;
}

lf_qclass lf_query_class(const lf_query *q, size_t i)
{
    return q->cls[i];
}

void lf_query_set_class(lf_query *q, size_t i, uint8_t *match)
{
    free(q->cls_match[i]);
    q->cls_match[i] = match;
}

size_t lf_query_column_count(const lf_query *q)
{
    return q->item_count;
}

lf_qcolumn lf_query_column(const lf_query *q, size_t i)
{
    const q_item *it = &q->item[i];
    if (it->name)
        return (lf_qcolumn){it->name, strlen(it->name), it->flavor};
    return (lf_qcolumn){q->text + it->name_at, it->name_len, it->flavor};
}

int lf_query_uses_fields(const lf_query *q)
{
    for (size_t s = 0; s < q->seg_count; s++)
        if (q->seg[s].attr == QT_FIELD)
            return 1;
    return 0;
}

size_t lf_query_note_count(const lf_query *q)
{
    return q->note_count;
}

const char *lf_query_note(const lf_query *q, size_t i)
{
    return q->note[i];
}

uint64_t lf_query_unreachable_matches(const lf_query *q)
{
    return q->unreachable_matches;
}

size_t lf_qvalue_cut(const lf_qvalue *v, uint64_t max, uint64_t *more)
{
    size_t keep = 0;
    uint64_t chars = 0;
    for (; keep < v->len; keep++)
        if (((unsigned char)v->str[keep] & 0xc0) != 0x80 && chars++ == max)
            break;
    *more = v->chars > max ? v->chars - max : 0;
    return keep;
}
