/* grouping.h - what objects are counted by in diff and trend: their class
 * (the default) or their allocation site (--by-site, DESIGN 10). Groups of
 * two snapshots are matched by name: a class name or a site label. */
#ifndef LF_GROUPING_H
#define LF_GROUPING_H

#include "analysis.h"
#include "site_groups.h"
#include "../model/snapshot.h"
#include "../model/strtab.h"

typedef struct lf_grouping {
    uint32_t count;               /* groups */
    const uint32_t *of_node;      /* node -> group */
    int by_site;
    lf_site_groups sites;         /* by_site: each group's site */
    uint32_t *owned;
} lf_grouping;

/* Site labels longer than this are cut (lf_site_label). */
#define LF_GROUP_NAME_MAX 4096

void lf_grouping_by_class(const lf_snapshot *s, lf_grouping *g);
/* s must have allocation sites (s->object_site). depth: frames per site, 0 all. */
int lf_grouping_by_site(const lf_snapshot *s, uint32_t depth, lf_grouping *g, lf_error *err);
void lf_grouping_free(lf_grouping *g);
/* A group's name: the class's, or the site's label written into buf. */
lf_str lf_grouping_name(const lf_grouping *g, const lf_snapshot *s, uint32_t group, char *buf,
                        size_t size);
/* How diff and trend match groups across snapshots: each group of g with live
 * objects in t (garbage waiting for a collection is not growth) gets its
 * name's number in names, interned there, in row_of[group]; a group with no
 * live object gets UINT32_MAX. Same-named groups (classes of several
 * loaders) get the same number. 0, or -1 when out of memory. */
int lf_grouping_rows_by_name(const lf_grouping *g, const lf_snapshot *s, const lf_class_totals *t,
                             lf_strtab *names, uint32_t *row_of);

#endif
