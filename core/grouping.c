/* grouping.c - objects by class or by allocation site. */
#include "grouping.h"
#include "bigmem.h"

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
