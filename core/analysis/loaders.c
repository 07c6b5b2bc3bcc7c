/* loaders.c - objects grouped by their class's loader. */
#include "loaders.h"

#include <Judy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lf_loader_groups_make(const lf_snapshot *s, lf_loader_groups *g, lf_error *err)
{
    memset(g, 0, sizeof *g);
    if (!s->class_loader)
        return lf_fail(err, LF_ERR_SYSTEM, "the snapshot has no class loaders");
    uint32_t *group_of_class = malloc(((size_t)s->class_count + 1) * sizeof *group_of_class);
    g->loader = malloc(((size_t)s->class_count + 1) * sizeof *g->loader);
    g->classes = calloc((size_t)s->class_count + 1, sizeof *g->classes);
    g->of_node = malloc(((size_t)s->object_count + 1) * sizeof *g->of_node);
    Pvoid_t group_of_loader = NULL; /* loader node + 1 -> group + 1 */
    int rc = -1;
    if (!group_of_class || !g->loader || !g->classes || !g->of_node)
        goto out;
    for (uint32_t c = 0; c < s->class_count; c++) {
        Word_t *slot;
        JLI(slot, group_of_loader, (Word_t)s->class_loader[c] + 1);
        if (slot == PJERR)
            goto out;
        if (*slot == 0) {
            g->loader[g->count] = s->class_loader[c];
            *slot = ++g->count;
        }
        group_of_class[c] = (uint32_t)(*slot - 1);
        g->classes[*slot - 1]++;
    }
    for (uint32_t v = 0; v < s->object_count; v++)
        g->of_node[v] = group_of_class[s->object_class[v]];
    rc = 0;
out:
    free(group_of_class);
    Word_t freed;
    JLFA(freed, group_of_loader);
    (void)freed;
    if (rc) {
        lf_loader_groups_free(g);
        return lf_fail_nomem(err, "grouping by class loader");
    }
    return 0;
}

void lf_loader_groups_free(lf_loader_groups *g)
{
    free(g->loader);
    free(g->classes);
    free(g->of_node);
    memset(g, 0, sizeof *g);
}

size_t lf_loader_label(const lf_snapshot *s, uint32_t loader, char *buf, size_t size)
{
    int n;
    if (loader == LF_NODE_NONE || loader >= s->object_count) {
        n = snprintf(buf, size, "(bootstrap)");
    } else {
        lf_str cls = lf_snapshot_object_label(s, loader);
        unsigned long long id = (unsigned long long)lf_snapshot_object_id(s, loader);
        n = snprintf(buf, size, (s->flags & LF_SNAP_IDS_AT) ? "%.*s @%llu" : "%.*s 0x%llx",
                     (int)cls.len, cls.ptr, id);
    }
    if (n < 0)
        return 0;
    return (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}
