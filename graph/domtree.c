/* domtree.c - child lists of the dominator tree, sorted by retained size. */
#include "domtree.h"
#include "../core/base/bigmem.h"
#include "halves.h"

#include <stdlib.h>

/* Lists of 16 or more children are copied out with their retained sizes and
 * sorted there, so the sort reads no other memory (qsort called a function
 * that read retained sizes at random, twice per comparison): long lists by a
 * radix sort of packed keys, the others (and lists holding a size of 4 GiB or
 * more) by an introsort of (retained, node) pairs. The scratch space is 16
 * bytes per child of the longest list of each half (see build_state). */
typedef struct sort_pair {
    uint64_t retained;
    uint32_t node;
} sort_pair;

#define SORT_SMALL 16
#define RADIX_MIN 256 /* below, the 256 counters of a radix pass cost more */

/* The tree's order: larger retained first, then smaller node number. Nodes
 * are distinct, so no two pairs are equal and the order is total. */
static inline int before(sort_pair a, sort_pair b)
{
    return a.retained != b.retained ? a.retained > b.retained : a.node < b.node;
}

static void insertion_sort_pairs(sort_pair *a, size_t len)
{
    for (size_t i = 1; i < len; i++) {
        sort_pair v = a[i];
        size_t j = i;
        for (; j > 0 && before(v, a[j - 1]); j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static inline void swap_pairs(sort_pair *a, sort_pair *b)
{
    sort_pair t = *a;
    *a = *b;
    *b = t;
}

static void sift_down(sort_pair *a, size_t root, size_t end)
{
    for (size_t child; (child = 2 * root + 1) < end; root = child) {
        if (child + 1 < end && before(a[child], a[child + 1]))
            child++;
        if (!before(a[root], a[child]))
            return;
        swap_pairs(&a[root], &a[child]);
    }
}

/* The fallback when quicksort keeps splitting badly: O(n log n) always. */
static void heap_sort_pairs(sort_pair *a, size_t len)
{
    for (size_t i = len / 2; i > 0; i--)
        sift_down(a, i - 1, len);
    for (size_t end = len; end > 1; end--) {
        swap_pairs(&a[0], &a[end - 1]); /* the last in order goes to the back */
        sift_down(a, 0, end - 1);
    }
}

/* Introsort without recursion: quicksort with a median of three, ranges of
 * fewer than SORT_SMALL pairs left for one insertion sort at the end, and
 * heapsort for a range that is split too often. Keeps the smaller side on an
 * explicit stack (at most log2(len) entries) and loops on the larger. */
static void sort_pairs(sort_pair *a, size_t len)
{
    struct {
        size_t lo, hi;
        unsigned budget;
    } stack[64];
    unsigned top = 0, budget = 0;
    for (size_t l = len; l > 1; l >>= 1)
        budget += 2;
    size_t lo = 0, hi = len;
    for (;;) {
        while (hi - lo >= SORT_SMALL) {
            if (budget == 0) {
                heap_sort_pairs(a + lo, hi - lo);
                break;
            }
            budget--;
            size_t mid = lo + (hi - lo) / 2;
            if (before(a[mid], a[lo]))
                swap_pairs(&a[mid], &a[lo]);
            if (before(a[hi - 1], a[mid])) {
                swap_pairs(&a[hi - 1], &a[mid]);
                if (before(a[mid], a[lo]))
                    swap_pairs(&a[mid], &a[lo]);
            }
            sort_pair pivot = a[mid];
            size_t i = lo, j = hi - 1; /* a[lo] <= pivot <= a[hi-1]: sentinels */
            for (;;) {
                while (before(a[++i], pivot))
                    ;
                while (before(pivot, a[--j]))
                    ;
                if (i >= j)
                    break;
                swap_pairs(&a[i], &a[j]);
            }
            /* [lo, i) and [i, hi) */
            if (i - lo < hi - i) {
                stack[top].lo = i, stack[top].hi = hi, stack[top].budget = budget, top++;
                hi = i;
            } else {
                stack[top].lo = lo, stack[top].hi = i, stack[top].budget = budget, top++;
                lo = i;
            }
        }
        if (top == 0)
            break;
        top--;
        lo = stack[top].lo, hi = stack[top].hi, budget = stack[top].budget;
    }
    insertion_sort_pairs(a, len);
}

/* Stable LSD radix sort, a byte at a time, skipping the bytes that are the
 * same in every key (retained sizes in one list rarely span many bytes).
 * tmp has len entries; returns the buffer that holds the sorted keys. */
static uint64_t *radix_sort_keys(uint64_t *keys, uint64_t *tmp, size_t len)
{
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < len; i++) {
        any |= keys[i];
        all &= keys[i];
    }
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if ((((any ^ all) >> shift) & 0xff) == 0)
            continue;
        size_t start[256] = {0};
        for (size_t i = 0; i < len; i++)
            start[(keys[i] >> shift) & 0xff]++;
        size_t sum = 0;
        for (unsigned b = 0; b < 256; b++) {
            size_t c = start[b];
            start[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < len; i++)
            tmp[start[(keys[i] >> shift) & 0xff]++] = keys[i];
        uint64_t *t = keys;
        keys = tmp;
        tmp = t;
    }
    return keys;
}

/* Sorts one child list. scratch holds 16 bytes per child of the longest list. */
static void sort_children(uint32_t *list, uint32_t len, const lf_sizes *retained, void *scratch)
{
    if (len < SORT_SMALL) { /* most lists are tiny: sort in place */
        for (uint32_t i = 1; i < len; i++) {
            uint32_t v = list[i];
            uint64_t rv = lf_sizes_get(retained, v);
            uint32_t j = i;
            for (; j > 0; j--) {
                uint64_t rp = lf_sizes_get(retained, list[j - 1]);
                if (rp > rv || (rp == rv && list[j - 1] < v))
                    break;
                list[j] = list[j - 1];
            }
            list[j] = v;
        }
        return;
    }
    if (len >= RADIX_MIN) {
        /* When every size fits 32 bits, (~retained, node) packed in 64 bits
         * sorts ascending in the tree's order: a radix sort, no branches to
         * mispredict (quicksort guesses wrong at half its comparisons). */
        uint64_t *keys = scratch, *tmp = keys + len;
        uint64_t wide = 0;
        for (uint32_t i = 0; i < len; i++) {
            uint64_t r = lf_sizes_get(retained, list[i]);
            wide |= r;
            keys[i] = (uint64_t)(uint32_t)~r << 32 | list[i];
        }
        if (wide <= UINT32_MAX) {
            keys = radix_sort_keys(keys, tmp, len);
            for (uint32_t i = 0; i < len; i++)
                list[i] = (uint32_t)keys[i];
            return;
        }
    }
    sort_pair *pairs = scratch;
    for (uint32_t i = 0; i < len; i++)
        pairs[i] = (sort_pair){lf_sizes_get(retained, list[i]), list[i]};
    sort_pairs(pairs, len);
    for (uint32_t i = 0; i < len; i++)
        list[i] = pairs[i].node;
}

/* Filling and sorting the lists split at a slot: each half scans every
 * node for the children of its own slots, then sorts its own lists, with
 * its own scratch. */
typedef struct build_state {
    uint32_t node_count;
    const uint32_t *idom;
    const lf_sizes *retained;
    uint32_t *offset, *child;
    size_t slots, split; /* slots [0, split) and [split, slots) */
    int failed[2];
    const lf_graph_progress *progress; /* NULL: nobody listens */
    int threaded;                      /* the halves run side by side */
} build_state;

/* Progress, in nodes, over the pass's three steps: counting children,
 * filling the lists, sorting them (by slot). Side by side, half 0 speaks
 * for both halves; one after the other, each has half of its step. */
static void report_step(const build_state *b, unsigned step, unsigned half, uint64_t done, uint64_t range)
{
    uint64_t n = b->node_count, base = step * n;
    done = range ? done * n / range : n; /* the step's own units (slots) to nodes */
    if (!b->threaded)
        base += half * n / 2, done /= 2;
    lf_graph_progress_parts(b->progress, 1, 1, base + done, 3 * n, 3);
}

static int speaks(const build_state *b, unsigned half)
{
    return b->progress && (half == 0 || !b->threaded);
}

/* The loops that report run in blocks of this many, a report after each
 * block: nothing is added per node. */
#define BLOCK ((uint32_t)LF_GRAPH_PROGRESS_STEP)

static void fill_half(void *ctx, unsigned half)
{
    build_state *b = ctx;
    size_t lo = half ? b->split : 0, span = (half ? b->slots : b->split) - lo;
    /* Each offset is the end of its list; filling from the last node down
     * leaves it at the start, with every list in increasing node order. */
    for (uint32_t block = b->node_count; block > 0;) {
        uint32_t block_end = block > BLOCK ? block - BLOCK : 0;
        for (uint32_t v = block; v-- > block_end;) {
            uint32_t d = b->idom[v];
            if (d == LF_NODE_NONE)
                continue;
            size_t slot = lf_domtree_slot(b->node_count, d);
            if (slot - lo < span)
                b->child[--b->offset[slot]] = v;
        }
        block = block_end;
        if (speaks(b, half))
            report_step(b, 1, half, b->node_count - block, b->node_count);
    }
}

static void sort_half(void *ctx, unsigned half)
{
    build_state *b = ctx;
    size_t lo = half ? b->split : 0, hi = half ? b->slots : b->split;
    uint32_t longest = 0;
    for (size_t s = lo; s < hi; s++)
        if (b->offset[s + 1] - b->offset[s] > longest)
            longest = b->offset[s + 1] - b->offset[s];
    void *scratch = NULL; /* pairs, or keys and their radix buffer */
    if (longest >= SORT_SMALL && !(scratch = lf_big_malloc((size_t)longest * 16))) {
        b->failed[half] = 1;
        return;
    }
    for (size_t block = lo; block < hi;) {
        size_t block_end = hi - block > BLOCK ? block + BLOCK : hi;
        for (size_t s = block; s < block_end; s++)
            if (b->offset[s + 1] - b->offset[s] > 1)
                sort_children(b->child + b->offset[s], b->offset[s + 1] - b->offset[s], b->retained,
                              scratch);
        block = block_end;
        if (speaks(b, half) && (block < hi || (!b->threaded && half == 0))) /* the end: below */
            report_step(b, 2, half, block - lo, hi - lo);
    }
    lf_big_free(scratch);
}

int lf_domtree_build(uint32_t node_count, const uint32_t *idom, const lf_sizes *retained,
                     unsigned threads, lf_domtree *tree)
{
    return lf_domtree_build_reporting(node_count, idom, retained, threads, tree, NULL);
}

int lf_domtree_build_reporting(uint32_t node_count, const uint32_t *idom, const lf_sizes *retained,
                               unsigned threads, lf_domtree *tree, const lf_graph_progress *progress)
{
    const size_t slots = (size_t)node_count + 1;
    uint32_t *offset = lf_big_result_calloc(slots + 1, sizeof *offset);
    if (!offset)
        return -1;
    uint32_t listed = 0;
    const uint64_t n3 = 3 * (uint64_t)node_count;
    lf_graph_progress_parts(progress, 1, 1, 0, n3, 3);
    for (uint32_t block = 0; block < node_count;) {
        uint32_t block_end = node_count - block > BLOCK ? block + BLOCK : node_count;
        for (uint32_t v = block; v < block_end; v++) {
            if (idom[v] == LF_NODE_NONE)
                continue;
            offset[lf_domtree_slot(node_count, idom[v])]++;
            listed++;
        }
        block = block_end;
        lf_graph_progress_parts(progress, 1, 1, block, n3, 3);
    }
    uint32_t *child = lf_big_result_malloc((listed ? listed : 1) * sizeof *child);
    if (!child) {
        lf_big_free(offset);
        return -1;
    }
    /* Each offset becomes the end of its list; the halves get about as many
     * children each. */
    uint32_t sum = 0;
    size_t split = 0;
    for (size_t s = 0; s < slots; s++) {
        sum += offset[s];
        offset[s] = sum;
        if ((uint64_t)sum * 2 <= listed)
            split = s + 1;
    }
    offset[slots] = sum;
    const int threaded = node_count >= LF_THREADED_MIN_NODES && threads > 1;
    build_state b = {node_count, idom, retained, offset, child, slots, split, {0, 0}, progress, threaded};
    lf_run_halves(fill_half, &b, threaded);
    lf_run_halves(sort_half, &b, threaded);
    lf_graph_progress_parts(progress, 1, 1, n3, n3, 3);
    if (b.failed[0] || b.failed[1]) {
        lf_big_free(offset);
        lf_big_free(child);
        return -1;
    }
    tree->node_count = node_count;
    tree->child_offset = offset;
    tree->child = child;
    return 0;
}

void lf_domtree_free(lf_domtree *tree)
{
    lf_big_free(tree->child_offset);
    lf_big_free(tree->child);
    tree->child_offset = NULL;
    tree->child = NULL;
}

int lf_class_retained(const uint32_t *child_offset, const uint32_t *child, uint32_t node_count,
                      const uint32_t *object_class, uint32_t class_count,
                      const lf_sizes *retained, const lf_sizes *skip_empty_of,
                      uint64_t *class_retained)
{
    /* open_by_class counts instances of each class on the current tree path. */
    uint32_t *open_by_class = calloc(class_count ? class_count : 1, sizeof *open_by_class);
    /* Stack entries: a node, or ~node meaning "leaving node" (node < 2^31). */
    uint32_t *stack = lf_big_malloc(((size_t)node_count + 1) * 2 * sizeof *stack);
    if (!open_by_class || !stack) {
        free(open_by_class);
        lf_big_free(stack);
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
        if (!skip_empty_of || skip_empty_of->narrow[entry] != 0) {
            uint32_t cls = object_class[entry];
            if (open_by_class[cls]++ == 0)
                class_retained[cls] += lf_sizes_get(retained, entry);
            stack[top++] = ~entry;
        }
        for (uint32_t i = child_offset[entry]; i < child_offset[entry + 1]; i++)
            stack[top++] = child[i];
    }
    free(open_by_class);
    lf_big_free(stack);
    return 0;
}
