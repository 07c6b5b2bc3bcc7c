/* domtree.c - child lists of the dominator tree, sorted by retained size. */
#include "domtree.h"

#include <stdlib.h>

static const uint64_t *sort_retained; /* qsort has no context argument in C11 */

static int by_retained_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_retained[x] != sort_retained[y])
        return sort_retained[x] > sort_retained[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void sort_children(uint32_t *list, uint32_t len, const uint64_t *retained)
{
    if (len < 16) { /* most lists are tiny: insertion sort beats qsort's overhead */
        for (uint32_t i = 1; i < len; i++) {
            uint32_t v = list[i];
            uint32_t j = i;
            while (j > 0 && (retained[list[j - 1]] < retained[v] ||
                             (retained[list[j - 1]] == retained[v] && list[j - 1] > v))) {
                list[j] = list[j - 1];
                j--;
            }
            list[j] = v;
        }
        return;
    }
    sort_retained = retained;
    qsort(list, len, sizeof *list, by_retained_desc);
}

int lf_domtree_build(uint32_t node_count, const uint32_t *idom, const uint64_t *retained,
                     lf_domtree *tree)
{
    const size_t slots = (size_t)node_count + 1;
    uint32_t *offset = calloc(slots + 1, sizeof *offset);
    if (!offset)
        return -1;
    uint32_t listed = 0;
    for (uint32_t v = 0; v < node_count; v++) {
        if (idom[v] == LF_NODE_NONE)
            continue;
        offset[lf_domtree_slot(node_count, idom[v])]++;
        listed++;
    }
    uint32_t *child = malloc((listed ? listed : 1) * sizeof *child);
    if (!child) {
        free(offset);
        return -1;
    }
    uint32_t sum = 0;
    for (size_t s = 0; s < slots; s++) {
        uint32_t c = offset[s];
        offset[s] = sum;
        sum += c;
    }
    offset[slots] = sum;
    for (uint32_t v = 0; v < node_count; v++)
        if (idom[v] != LF_NODE_NONE)
            child[offset[lf_domtree_slot(node_count, idom[v])]++] = v;
    for (size_t s = slots; s > 0; s--)
        offset[s] = offset[s - 1];
    offset[0] = 0;
    for (size_t s = 0; s < slots; s++)
        sort_children(child + offset[s], offset[s + 1] - offset[s], retained);
    tree->node_count = node_count;
    tree->child_offset = offset;
    tree->child = child;
    return 0;
}

void lf_domtree_free(lf_domtree *tree)
{
    free(tree->child_offset);
    free(tree->child);
    tree->child_offset = NULL;
    tree->child = NULL;
}

int lf_class_retained(const uint32_t *child_offset, const uint32_t *child, uint32_t node_count,
                      const uint32_t *object_class, uint32_t class_count,
                      const uint64_t *retained, uint64_t *class_retained)
{
    /* open_by_class counts instances of each class on the current tree path. */
    uint32_t *open_by_class = calloc(class_count ? class_count : 1, sizeof *open_by_class);
    /* Stack entries: a node, or ~node meaning "leaving node" (node < 2^31). */
    uint32_t *stack = malloc(((size_t)node_count + 1) * 2 * sizeof *stack);
    if (!open_by_class || !stack) {
        free(open_by_class);
        free(stack);
        return -1;
    }
    for (uint32_t c = 0; c < class_count; c++)
        class_retained[c] = 0;
    size_t top = 0;
    for (uint32_t i = child_offset[node_count]; i < child_offset[node_count + 1]; i++)
        stack[top++] = child[i];
    while (top > 0) {
        uint32_t entry = stack[--top];
        if (entry & 0x80000000u) { /* a leave marker */
            open_by_class[object_class[~entry]]--;
            continue;
        }
        uint32_t cls = object_class[entry];
        if (open_by_class[cls]++ == 0)
            class_retained[cls] += retained[entry];
        stack[top++] = ~entry;
        for (uint32_t i = child_offset[entry]; i < child_offset[entry + 1]; i++)
            stack[top++] = child[i];
    }
    free(open_by_class);
    free(stack);
    return 0;
}
