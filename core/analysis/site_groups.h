/* site_groups.h - objects grouped by allocation site (DESIGN 10), each site
 * cut to its N innermost frames: two stacks that share those frames are one
 * group. Group 0 is "(no site)". */
#ifndef LF_SITE_GROUPS_H
#define LF_SITE_GROUPS_H

#include "../model/snapshot.h"

typedef struct lf_site_groups {
    uint32_t depth;          /* frames that make a group; 0: the whole stack */
    uint32_t count;          /* groups, group 0 included */
    uint32_t *of_site;       /* site -> group */
    uint32_t *site_of;       /* group -> a site of it (for its label) */
} lf_site_groups;

/* Needs s->object_site (a dump with allocation data). */
int lf_site_groups_make(const lf_snapshot *s, uint32_t depth, lf_site_groups *g, lf_error *err);
void lf_site_groups_free(lf_site_groups *g);
/* node -> group, in a new array the caller frees; NULL when out of memory. */
uint32_t *lf_site_groups_of_nodes(const lf_snapshot *s, const lf_site_groups *g);

/* Sampled dumps (s->object_samples): the live objects and bytes each group
 * stands for. Memprof samples each word, header included, with probability
 * rate: a live sampled block of w words stands for 1 / (1 - (1 - rate)^w)
 * blocks, and its samples for samples / rate words (8 bytes each). Zero
 * for groups without samples, and everywhere when the dump is not sampled. */
void lf_site_estimates(const lf_snapshot *s, const uint32_t *group_of_node, uint32_t groups,
                       double *est_count, double *est_bytes);

/* A frame for people: "function (file:line:column)", "(anonymous)" for an
 * unnamed function, each part left out when unknown. Returns the length it
 * needs (like snprintf); buf always ends with NUL when size > 0. */
size_t lf_frame_label(const lf_snapshot *s, uint32_t frame, char *buf, size_t size);
/* A site's `depth` innermost frames (0: all) joined by " < ", innermost
 * first; "(no site)" for site 0. Cut with "..." when it does not fit. */
size_t lf_site_label(const lf_snapshot *s, uint32_t site, uint32_t depth, char *buf, size_t size);

#endif
