/* grouping.c - objects by class or by allocation site. */
#include "grouping.h"
#include "../base/bigmem.h"

#include <stdlib.h>
#include <string.h>

void lf_grouping_by_class(const lf_snapshot *s, lf_grouping *g)
{
    memset(g, 0, sizeof *g);
    g->count = s->class_count;
    g->of_node = s->object_class;
}

int lf_grouping_by_site(const lf_snapshot *s, uint32_t depth, lf_grouping *g, lf_error *err)
{
    memset(g, 0, sizeof *g);
    if (lf_site_groups_make(s, depth, &g->sites, err))
        return -1;
    g->owned = lf_site_groups_of_nodes(s, &g->sites);
    if (!g->owned) {
        lf_site_groups_free(&g->sites);
        return lf_fail_nomem(err, "grouping allocation sites");
    }
    g->by_site = 1;
    g->count = g->sites.count;
    g->of_node = g->owned;
    return 0;
}

void lf_grouping_free(lf_grouping *g)
{
    if (g->by_site)
        lf_site_groups_free(&g->sites);
    lf_big_free(g->owned);
    memset(g, 0, sizeof *g);
}

lf_str lf_grouping_name(const lf_grouping *g, const lf_snapshot *s, uint32_t group, char *buf,
                        size_t size)
{
    if (!g->by_site)
        return lf_snapshot_class_name(s, group);
    size_t len = lf_site_label(s, g->sites.site_of[group], g->sites.depth, buf, size);
    return (lf_str){buf, len < size ? len : size ? size - 1 : 0};
}

int lf_grouping_rows_by_name(const lf_grouping *g, const lf_snapshot *s, const lf_class_totals *t,
                             lf_strtab *names, uint32_t *row_of)
{
    char buf[LF_GROUP_NAME_MAX];
    for (uint32_t c = 0; c < g->count; c++) {
        row_of[c] = UINT32_MAX;
        if (t->count[c] == t->unreachable_count[c])
            continue;
        lf_str name = lf_grouping_name(g, s, c, buf, sizeof buf);
        int64_t k = lf_strtab_intern(names, name.ptr, name.len);
        if (k < 0)
            return -1;
        row_of[c] = (uint32_t)k;
    }
    return 0;
}
