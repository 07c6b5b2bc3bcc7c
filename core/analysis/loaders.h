/* loaders.h - classes and objects by the class loader that defined their
 * class (HPROF: the CLASS DUMP's loader), for `classes --by-loader`. */
#ifndef LF_LOADERS_H
#define LF_LOADERS_H

#include "../model/snapshot.h"

typedef struct lf_loader_groups {
    uint32_t count;            /* groups: one per loader, the bootstrap loader included */
    uint32_t *loader;          /* group -> loader node, LF_NODE_NONE: the bootstrap loader */
    uint32_t *classes;         /* group -> classes it defined */
    uint32_t *of_node;         /* node -> group (its class's) */
} lf_loader_groups;

/* s must have loaders (s->class_loader). Groups are numbered in the order
 * of their first class. */
int lf_loader_groups_make(const lf_snapshot *s, lf_loader_groups *g, lf_error *err);
void lf_loader_groups_free(lf_loader_groups *g);

/* A loader for people: "java.net.URLClassLoader 0x7ff0010" (its class and
 * id), "(bootstrap)" for LF_NODE_NONE. The length written (cut to size). */
size_t lf_loader_label(const lf_snapshot *s, uint32_t loader, char *buf, size_t size);

#endif
