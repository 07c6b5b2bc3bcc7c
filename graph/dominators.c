/* dominators.c - Lengauer-Tarjan dominators, in two sweeps over the forest.
 *
 * The algorithm: T. Lengauer and R. E. Tarjan, "A fast algorithm for
 * finding dominators in a flowgraph", ACM TOPLAS 1(1), 1979. Its steps, as
 * lf_dominators_compute_reporting (at the end of this file) runs them:
 *   1. depth_first_search   number the vertices in DFS preorder from the
 *                           super-root (dfn 0), above every GC root;
 *   2. list_predecessors    each vertex's predecessors, in dfn space;
 *   3. semidominators       LT's step 2: sdom(w) by eval over a forest, in
 *                           decreasing dfn;
 *   4. relative_dominators  LT's step 3: the buckets of a second forest,
 *                           each emptied when its vertex is linked: w gets
 *                           its idom, or the vertex whose idom it shares;
 *   5. immediate_dominators LT's step 4: in increasing dfn, a vertex that
 *                           shares an idom reads the finished one;
 *   6. sum_retained         retained sizes, children before parents (reverse
 *                           preorder), no recursion.
 * From later work: the "simple" variant with path compression and no
 * balanced linking, as measured by Georgiadis, Tarjan and Werneck
 * ("Finding dominators in practice", 2006) and used by LLVM; pointer
 * reversal instead of a stack for compression.
 * The test oracle (tests/unit/test_dominators.c, graph_fixture.c): on
 * thousands of seeded random graphs, the idoms of Cooper, Harvey and
 * Kennedy's iterative algorithm ("A simple, fast dominance algorithm",
 * 2001) and, on the small ones, the definition itself (v dominates w when
 * removing v cuts w off the roots); retained sizes against a sum over the
 * reference tree; a 10M-vertex chain and the ladder (issue 39) for depth
 * and time.
 *
 * Variant: the "simple" Lengauer-Tarjan (path compression, no balanced
 * linking). The first sweep computes semidominators with a forest that keeps
 * the smallest semidominator itself (a step of eval is one cache line); the
 * second sweep, over a fresh forest that keeps the vertex that has it, is
 * LT's bucket step, and a preorder pass turns its relative dominators into
 * immediate dominators. Why simple: on heap graphs it is faster in practice
 * than the balanced one (LLVM made the same choice), and needs no size or
 * child arrays. Why not Semi-NCA (idom(w) = the nearest dominator-tree
 * ancestor of parent(w) at or above sdom(w)), used until issue 39: its walk
 * up the tree is quadratic when many vertices hang deep below their
 * semidominator (a long list whose every cell also holds a value the list's
 * owner holds: 1,002 s on a 9.1M-object OCaml heap). The buckets cost no
 * memory: they live in arrays the step no longer needs (relative_dominators).
 * Bound: path compression without balanced linking is O(m log n) in the
 * worst case (Tarjan and van Leeuwen), near-linear on every heap measured;
 * the balanced variant's alpha(m, n) would take 8 more bytes per node.
 *
 * Nothing here recurses, and no stack grows with the heap:
 *  - the DFS keeps its path on an explicit stack of (vertex, edge cursor)
 *    frames, as deep as the longest DFS path and no deeper;
 *  - path compression walks up reversing ancestor pointers, then walks back
 *    down restoring them compressed (pointer reversal instead of a stack).
 *
 * Index spaces: "node" numbers come from the graph; "dfn" numbers are DFS
 * preorder numbers, dfn 0 being the super-root. Arrays are named *_by_dfn or
 * node_to_dfn/dfn_to_node to say which space they are indexed by.
 *
 * Two cores: the passes that are not one chain of dependent loads (listing
 * predecessors, retained sizes) split their index range in two halves, run
 * one on a second thread, and write disjoint memory, so the result does not
 * depend on the number of threads. While the DFS (which cannot be split)
 * runs, the second thread maps the pages of the arrays it writes in order in,
 * a bounded distance ahead of it, so the DFS does not stop on page faults
 * (a fresh page costs 1-4 s per GB on this project's virtual machines).
 *
 * Memory: every array is allocated for the phases that use it and no
 * longer. DFS: 16 bytes per node (it counts the predecessors to list:
 * strong non-tree edges into non-roots), 16 per level of the deepest DFS
 * path; listing: 16 per node and 4 per predecessor (the peak: the edges are
 * read twice rather than the predecessors kept as pairs, which took 12 per
 * predecessor); semidominators: 20 per node (each goes where its list
 * offset was) and 4 per predecessor; buckets and idoms: 20 per node (the
 * same arrays); retained sizes: 20 per node with the caller's outputs (8
 * of them: retained sizes are 4-byte, graph/sizes.h), which are not
 * touched before then. Predecessor offsets are
 * 32-bit: more than 2^32 listed predecessors (16 GB of lists) is reported as
 * out of memory.
 */
#include "dominators.h"
#include "../core/base/bigmem.h"
#include "../core/base/populate.h"
#include "../core/base/prefetch.h"
#include "halves.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define DFN_NONE 0xffffffffu
#define ROOT_PENDING 0xffffffffu     /* node_to_dfn: a root not yet visited */
#define ROOT_FLAG 0x80000000u        /* node_to_dfn: a visited root (dfn < 2^31) */

/* Blocks of target nodes the DFS counts strong edges in (8 bytes each, on
 * the stack). */
#define TARGET_BLOCKS 4096

/* How far ahead (in list entries) the semidominator pass prefetches. */
#define PREFETCH_AHEAD 16

/* A vertex on the DFS path and the next of its edges to look at. */
typedef struct dfs_frame {
    uint64_t cursor;
    uint32_t dfn;
    uint32_t unused;
} dfs_frame;

/* One vertex of the path-compression forest. Classic LT keeps ancestor[],
 * label[] and semi[] apart and compares semi[label[x]]; the forest only ever
 * needs that value, so it is kept as best, next to the link: a step of eval
 * is one cache line instead of three. */
typedef struct forest_vertex {
    uint32_t ancestor;
    union {
        uint32_t best;  /* semidominators: smallest semi on the compressed path up to ancestor */
        uint32_t label; /* relative dominators: the vertex that has it */
    };
} forest_vertex;

typedef struct dom_state {
    const lf_graph *g;
    const lf_sizes *shallow;
    unsigned flags;   /* LF_DOM_* */
    uint32_t count; /* dfn 0 .. count-1 are in use */
    uint32_t *dfn_to_node;
    uint32_t *node_to_dfn;
    uint32_t *parent_by_dfn;
    uint64_t listed;   /* predecessors the search counted */
    uint64_t max_pred; /* room for predecessors: one per strong edge and root */
    forest_vertex *forest;
    uint32_t *semi_by_dfn;
    uint32_t searched; /* dfn searched .. count-1: unreached nodes alone, edges not looked at */
    uint32_t split_node; /* listing: the first target node of the second half */
    uint32_t *pred_offset;
    uint32_t *pred;
    uint32_t split; /* the first dfn of the second half of a pass */
    const uint32_t *idom_by_dfn;
    uint64_t *retained_by_dfn;
    uint32_t *idom;
    uint32_t *retained;
    lf_size_table retained_big[2]; /* per half: the sizes past 4 bytes */
    int big_failed[2];             /* per half: no memory for retained_big */
    uint64_t shallow_sum[2];
    const lf_graph_progress *progress; /* NULL: nobody listens */
    int threaded;                      /* the halves run side by side */
} dom_state;

/* The loops that report run in blocks of this many vertices, a report after
 * each block: nothing is added per vertex (a compare per vertex measurably
 * slowed them). */
#define BLOCK ((uint32_t)LF_GRAPH_PROGRESS_STEP)

/* The units a half of a pass reports in: side by side, half 0 speaks for
 * both (they advance together); one after the other, each covers its half
 * of twice the range (reported as one: lf_graph_progress_parts). */
static uint64_t half_base(const dom_state *s, unsigned half, uint64_t range)
{
    return s->threaded ? 0 : half * range;
}

static uint64_t halves_total(const dom_state *s, uint64_t range)
{
    return s->threaded ? range : 2 * range;
}

/* Pages to map in ahead of use (see populate_pages). */
typedef struct populate_job {
    unsigned count;
    struct {
        void *p;
        size_t bytes;
    } range[4];
} populate_job;

static void *populate_pages(void *arg)
{
    populate_job *job = arg;
    for (unsigned i = 0; i < job->count; i++)
        lf_populate_range(job->range[i].p, 0, job->range[i].bytes);
    return NULL;
}

static int populate_start(pthread_t *t, populate_job *job, int threaded)
{
    return threaded && pthread_create(t, NULL, populate_pages, job) == 0;
}

/* The DFS writes dfn_to_node and parent_by_dfn in dfn order, and counts the
 * predecessors the listing will write after it: a second thread maps their
 * pages in a bounded distance ahead (never more than AHEAD_BYTES past what
 * gets used). The DFS publishes how far it has got. */
#define AHEAD_BYTES (32u << 20)
#define AHEAD_STEP (4u << 20)

typedef struct dfs_ahead {
    uint32_t next_dfn;   /* published by the DFS (relaxed atomics) */
    uint64_t listed;     /* likewise: predecessors counted so far */
    int done;            /* set once the DFS has finished */
    uint32_t *dfn_to_node, *parent_by_dfn;
    size_t slots;
    uint32_t *pred;      /* filled after the DFS, as long as it has counted */
    uint64_t max_pred;
} dfs_ahead;

/* Maps in the next step of [*mapped, want) entries of size bytes each, of
 * one or two arrays; returns whether there was anything to do. */
static int map_ahead(void *a, void *b, size_t size, uint64_t *mapped, uint64_t want)
{
    if (*mapped >= want)
        return 0;
    uint64_t to = *mapped + AHEAD_STEP / size < want ? *mapped + AHEAD_STEP / size : want;
    lf_populate_range(a, *mapped * size, to * size);
    if (b)
        lf_populate_range(b, *mapped * size, to * size);
    *mapped = to;
    return 1;
}

static void *map_ahead_of_dfs(void *arg)
{
    dfs_ahead *j = arg;
    uint64_t dfn_mapped = 0, pred_mapped = 0;
    const uint64_t ahead = AHEAD_BYTES / sizeof(uint32_t);
    while (!__atomic_load_n(&j->done, __ATOMIC_ACQUIRE)) {
        uint64_t dfn = __atomic_load_n(&j->next_dfn, __ATOMIC_RELAXED);
        uint64_t listed = __atomic_load_n(&j->listed, __ATOMIC_RELAXED);
        uint64_t want_dfn = dfn + ahead < j->slots ? dfn + ahead : j->slots;
        uint64_t want_pred = listed + ahead < j->max_pred ? listed + ahead : j->max_pred;
        if (map_ahead(j->dfn_to_node, j->parent_by_dfn, sizeof(uint32_t), &dfn_mapped, want_dfn) |
            map_ahead(j->pred, NULL, sizeof(uint32_t), &pred_mapped, want_pred))
            continue;
        struct timespec pause = {0, 100000}; /* ahead everywhere: wait for the DFS */
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* The same for arrays written from their ends backwards, side by side: step
 * by step from the top of each, so the pages are there before the writer
 * reaches them. */
static void *populate_pages_down(void *arg)
{
    populate_job *job = arg;
    const unsigned steps = 1024;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t mask = page > 0 ? (uintptr_t)page - 1 : 4095;
    for (unsigned k = 0; k < steps; k++)
        for (unsigned i = 0; i < job->count; i++) {
            /* steps end on page boundaries, so that they tile the array */
            uintptr_t base = (uintptr_t)job->range[i].p, bytes = job->range[i].bytes;
            uintptr_t hi = (base + bytes - bytes / steps * k) & ~mask;
            uintptr_t lo = k + 1 == steps ? base : (base + bytes - bytes / steps * (k + 1)) & ~mask;
            if (hi > lo)
                lf_populate_range(job->range[i].p, lo - base, hi - base);
        }
    return NULL;
}

/* Returns the smallest semidominator on the forest path from v up to, but
 * excluding, its forest root, compressing that path. v > w, the vertex being
 * processed. Vertices are linked in decreasing dfn order, so a vertex is a
 * forest root exactly when its dfn is at most w: that takes no load. */
static inline uint32_t eval_and_compress(uint32_t v, uint32_t w, forest_vertex *forest)
{
    if (forest[v].ancestor <= w)
        return forest[v].best;
    /* Walk up while the ancestor is not a forest root, reversing pointers. */
    uint32_t x = v, reversed = DFN_NONE;
    while (forest[x].ancestor > w) {
        uint32_t up = forest[x].ancestor;
        forest[x].ancestor = reversed;
        reversed = x;
        x = up;
    }
    /* x is the topmost vertex below the forest root; walk back down. */
    while (reversed != DFN_NONE) {
        uint32_t y = reversed;
        reversed = forest[y].ancestor;
        if (forest[x].best < forest[y].best)
            forest[y].best = forest[x].best;
        forest[y].ancestor = forest[x].ancestor;
        x = y;
    }
    return forest[v].best;
}

/* Whether a strong edge from dfn `from` into the vertex whose node_to_dfn
 * entry is `entry` (visited) is listed as a predecessor of that vertex. A
 * root's semidominator is the super-root whatever points at it: a root
 * lists only the super-root, once per edge from its DFS parent (the edge
 * that reached it, if any). Any other vertex lists every source but its DFS
 * parent, the implicit first predecessor. The DFS counts by this rule and
 * the listing re-reads the edges by it, so the two agree by construction. */
static inline uint32_t is_listed(uint32_t entry, uint32_t from, const uint32_t *parent_by_dfn)
{
    /* A child has a larger dfn than its parent: most edges need no load. */
    uint32_t d = entry & ~ROOT_FLAG;
    int from_parent = d > from && parent_by_dfn[d] == from;
    return from_parent == ((entry & ROOT_FLAG) != 0);
}

/* Each half lists the predecessors of its own range of target nodes, so the
 * halves write disjoint parts of pred_offset and pred without atomics; each
 * reads all edges in order (the sources the DFS searched). */
static void fill_preds_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    const lf_graph *g = s->g;
    /* by target node, not dfn: an edge of the other half costs no load */
    uint32_t lo = half ? s->split_node : 0, span = (half ? g->node_count : s->split_node) - lo;
    const lf_edge_offsets edge_offset = g->edge_offset;
    const uint64_t edges = lf_edge_offset_at(edge_offset, g->node_count);
    const uint32_t *edge_target = g->edge_target, *node_to_dfn = s->node_to_dfn;
    const uint32_t *parent_by_dfn = s->parent_by_dfn;
    uint32_t *pred_offset = s->pred_offset;
    uint32_t *pred = s->pred;
    const uint64_t base = half_base(s, half, g->node_count), total = halves_total(s, g->node_count);
    const int speaks = s->progress && (half == 0 || !s->threaded);
    /* pred_offset[d] holds the end of d's list: fill from the back, so it
     * ends up holding the start. */
    for (uint32_t block = 0; block < g->node_count;) {
        uint32_t block_end = g->node_count - block > BLOCK ? block + BLOCK : g->node_count;
        for (uint32_t node = block; node < block_end; node++) {
            uint32_t from = node_to_dfn[node] & ~ROOT_FLAG;
            if (from == 0 || from >= s->searched)
                continue; /* its edges were not looked at */
            for (uint64_t e = lf_edge_offset_at(edge_offset, node), end = lf_edge_offset_at(edge_offset, node + 1);
                 e < end; e++) {
                uint32_t t = edge_target[e];
                /* the edges are read in order: fetch a target's dfn well ahead */
                uint32_t ahead = e + PREFETCH_AHEAD < edges ? edge_target[e + PREFETCH_AHEAD] : lo + span;
                if (ahead - lo < span)
                    __builtin_prefetch(&node_to_dfn[ahead]);
                if (t - lo >= span) /* weak edges too: the bit puts them past every node */
                    continue;
                uint32_t entry = node_to_dfn[t], d = entry & ~ROOT_FLAG;
                if (is_listed(entry, from, parent_by_dfn))
                    pred[--pred_offset[d]] = entry & ROOT_FLAG ? 0 : from;
            }
        }
        block = block_end;
        if (speaks && base + block < total) /* the pass's end is told once both halves are done */
            lf_graph_progress_parts(s->progress, 2, LF_DOM_PASSES, base + block, total, s->threaded ? 1 : 2);
    }
}

/* Each vertex's own size, in dfn space. */
static void retained_start_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    uint32_t lo = half ? s->split : 1, hi = half ? s->count : s->split;
    const uint32_t *dfn_to_node = s->dfn_to_node;
    uint64_t sum = 0;
    for (uint32_t w = lo; w < hi; w++) {
        uint64_t size = lf_sizes_get(s->shallow, dfn_to_node[w]);
        s->retained_by_dfn[w] = size;
        sum += size;
    }
    s->shallow_sum[half] = sum;
}

/* The outputs, in node space, one after the other (the second is mapped
 * once the first has let go of idom_by_dfn). */
static void idom_store_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    uint32_t lo = half ? s->split : 1, hi = half ? s->count : s->split;
    const uint32_t *dfn_to_node = s->dfn_to_node;
    for (uint32_t w = lo; w < hi; w++) {
        uint32_t d = s->idom_by_dfn[w];
        s->idom[dfn_to_node[w]] = d == 0 ? LF_NODE_SUPER : dfn_to_node[d];
    }
}

/* Each half keeps its own big table: the two are joined and sorted by
 * node after, so the result is the same on one thread or two. */
static void retained_store_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    uint32_t lo = half ? s->split : 1, hi = half ? s->count : s->split;
    const uint32_t *dfn_to_node = s->dfn_to_node;
    uint32_t *retained = s->retained;
    const uint64_t *retained_by_dfn = s->retained_by_dfn;
    for (uint32_t w = lo; w < hi; w++) {
        uint64_t bytes = retained_by_dfn[w];
        if (bytes < LF_SIZE_BIG)
            retained[dfn_to_node[w]] = (uint32_t)bytes;
        else if (lf_size_store(retained, &s->retained_big[half], dfn_to_node[w], bytes))
            s->big_failed[half] = 1;
    }
}

/* The halves' big tables, one after the other, sorted by node into out. */
static int join_big_tables(dom_state *s, lf_size_table *out)
{
    for (unsigned half = 0; half < 2; half++) {
        const lf_size_table *t = &s->retained_big[half];
        for (uint64_t i = 0; i < t->count; i++)
            if (lf_size_table_add(out, t->entry[i].node, t->entry[i].bytes))
                return -1;
    }
    lf_size_table_sort(out);
    return 0;
}

/* Every node starts unreachable; the reachable ones are overwritten later.
 * retained is cleared whatever the count: writing it in order maps its
 * pages in on both cores, where the stores would fault all over. */
static void clear_idom_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    uint32_t n = s->g->node_count;
    uint32_t lo = half ? n / 2 : 0, hi = half ? n : n / 2;
    for (uint32_t node = lo; node < hi; node++)
        s->idom[node] = LF_NODE_NONE;
}

static void clear_retained_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    uint32_t n = s->g->node_count;
    uint32_t lo = half ? n / 2 : 0, hi = half ? n : n / 2;
    memset(s->retained + lo, 0, (size_t)(hi - lo) * sizeof *s->retained);
}

int lf_dominators_compute(const lf_graph *g, const lf_sizes *shallow, unsigned flags, uint32_t *idom,
                          uint32_t *retained, lf_size_table *retained_big, lf_dominator_result *result)
{
    return lf_dominators_compute_reporting(g, shallow, flags, idom, retained, retained_big, result, NULL);
}

/* --- step 1: depth-first search ---------------------------------------------- */

/* The arrays the search writes. A page fault costs about as much as
 * visiting a few hundred vertices: node_to_dfn and pred_offset are written
 * all over from the first vertex on, so both cores map them in before the
 * search starts; the arrays written in order are mapped by the other core
 * while the search runs, just ahead of it (map_ahead_of_dfs). */
static int allocate_search(dom_state *s)
{
    const lf_graph *g = s->g;
    const size_t slots = (size_t)g->node_count + 1; /* dfn space: super-root plus every node */
    s->node_to_dfn = lf_big_calloc(slots, sizeof *s->node_to_dfn); /* 0 = not visited */
    s->dfn_to_node = lf_big_malloc(slots * sizeof *s->dfn_to_node);
    s->parent_by_dfn = lf_big_malloc(slots * sizeof *s->parent_by_dfn);
    s->pred_offset = lf_big_calloc(slots + 1, sizeof *s->pred_offset);
    /* At most one predecessor per strong edge plus one per root; only the
     * pages that get used become resident. */
    s->max_pred = g->edge_count + g->root_count;
    s->pred = lf_big_malloc((s->max_pred ? s->max_pred : 1) * sizeof *s->pred);
    if (!s->node_to_dfn || !s->dfn_to_node || !s->parent_by_dfn || !s->pred_offset || !s->pred)
        return -1;
    populate_job lower = {2, {{s->node_to_dfn, slots / 2 * sizeof *s->node_to_dfn},
                              {s->pred_offset, slots / 2 * sizeof *s->pred_offset}}};
    pthread_t populate_thread;
    int populating = populate_start(&populate_thread, &lower, s->threaded);
    lf_populate_range(s->node_to_dfn, slots / 2 * sizeof *s->node_to_dfn, slots * sizeof *s->node_to_dfn);
    lf_populate_range(s->pred_offset, slots / 2 * sizeof *s->pred_offset, (slots + 1) * sizeof *s->pred_offset);
    if (populating)
        pthread_join(populate_thread, NULL);
    return 0;
}

/* What the search keeps beside the arrays it writes. */
typedef struct search_counts {
    uint32_t next_dfn;
    uint64_t listed;           /* predecessors to list (is_listed) */
    /* Strong edges examined per block of target nodes: the listing looks
     * each up again, which is its work, split into halves by it. */
    unsigned block_shift;
    uint64_t strong_by_block[TARGET_BLOCKS];
    dfs_frame *stack;          /* the DFS path, below the vertex being looked at */
    size_t stack_cap;
    uint64_t report_at;        /* progress: the next dfn to report at */
    dfs_ahead *ahead;          /* the mapper, told how far the search has got */
} search_counts;

/* The DFS path doubles when it is full (deep paths are rare). */
static int grow_stack(dfs_frame **stack, size_t *cap)
{
    dfs_frame *grown = realloc(*stack, 2 * *cap * sizeof *grown);
    if (!grown)
        return -1;
    *stack = grown;
    *cap *= 2;
    return 0;
}

/* Starts the loads the children of a vertex will need, its edges [e, end)
 * (the search is one long chain of dependent cache misses otherwise). */
LF_PREFETCH_HELPER void prefetch_children(lf_edge_offsets edge_offset, const uint32_t *edge_target,
                                      const uint32_t *node_to_dfn, uint64_t e, uint64_t end)
{
    for (uint64_t p = e; p < end && p < e + 8; p++) {
        uint32_t child = edge_target[p] & LF_EDGE_NODE;
        __builtin_prefetch(&node_to_dfn[child]);
        if (edge_offset.narrow)
            __builtin_prefetch(&edge_offset.narrow[child]);
        else
            __builtin_prefetch(&edge_offset.wide[child]);
    }
}

/* Searches from one root (not visited yet) everything it reaches that is
 * not visited yet. It counts, per target, the edges it examines that can
 * change a semidominator (is_listed); they are listed by reading the edges
 * again once every vertex has its dfn and DFS parent. Not listed: weak
 * edges, DFS tree edges (the parent is the implicit first predecessor) and
 * edges into roots (a root's semidominator is the super-root whatever else
 * points at it; on a heap that drops every instance -> class edge of a
 * rooted class). A root first reached by an edge lists the super-root
 * instead. One loop on purpose: this is the one pass that is a chain of
 * dependent loads, and its counters live in registers. */
static int search_from(dom_state *s, search_counts *c, uint32_t root)
{
    const lf_graph *g = s->g;
    const lf_edge_offsets edge_offset = g->edge_offset;
    const uint32_t *edge_target = g->edge_target;
    uint32_t *node_to_dfn = s->node_to_dfn, *dfn_to_node = s->dfn_to_node;
    uint32_t *parent_by_dfn = s->parent_by_dfn, *pred_offset = s->pred_offset;
    uint64_t *strong_by_block = c->strong_by_block;
    const unsigned block_shift = c->block_shift;
    uint32_t next_dfn = c->next_dfn;
    uint64_t listed = c->listed, report_at = c->report_at;
    dfs_frame *stack = c->stack;
    dfs_ahead *ahead = c->ahead;
    size_t depth = 0, stack_cap = c->stack_cap;
    int rc = 0;
    uint32_t v = next_dfn++;
    node_to_dfn[root] = v | ROOT_FLAG;
    dfn_to_node[v] = root;
    parent_by_dfn[v] = 0;
    /* The vertex being looked at lives in registers; the stack holds its
     * ancestors on the DFS path, each with its next edge. */
    uint32_t node = root;
    uint64_t e = lf_edge_offset_at(edge_offset, node), end = lf_edge_offset_at(edge_offset, node + 1);
    for (;;) {
        uint32_t descend = 0, t = 0;
        while (e < end) {
            t = edge_target[e++];
            if (lf_edge_is_weak(t))
                continue;
            uint32_t d = node_to_dfn[t];
            if (d == 0 || d == ROOT_PENDING) {
                descend = next_dfn++;
                node_to_dfn[t] = descend | (d == ROOT_PENDING ? ROOT_FLAG : 0);
                dfn_to_node[descend] = t;
                parent_by_dfn[descend] = v;
                pred_offset[descend] += d == ROOT_PENDING; /* the super-root */
                strong_by_block[t >> block_shift]++;
                listed += d == ROOT_PENDING;
                break;
            }
            strong_by_block[t >> block_shift]++;
            if (is_listed(d, v, parent_by_dfn)) {
                pred_offset[d & ~ROOT_FLAG]++;
                listed++;
            }
        }
        if (descend) {
            if (next_dfn >= report_at)
                report_at = lf_graph_progress_report(s->progress, 1, LF_DOM_PASSES, next_dfn,
                                                     g->node_count);
            __atomic_store_n(&ahead->next_dfn, next_dfn, __ATOMIC_RELAXED);
            __atomic_store_n(&ahead->listed, listed, __ATOMIC_RELAXED);
            if (depth == stack_cap && grow_stack(&stack, &stack_cap)) {
                rc = -1;
                break;
            }
            stack[depth++] = (dfs_frame){e, v, 0};
            v = descend;
            node = t;
            e = lf_edge_offset_at(edge_offset, node);
            end = lf_edge_offset_at(edge_offset, node + 1);
            prefetch_children(edge_offset, edge_target, node_to_dfn, e, end);
            continue;
        }
        if (depth == 0)
            break; /* this root's tree is done */
        depth--;
        v = stack[depth].dfn;
        e = stack[depth].cursor;
        node = dfn_to_node[v];
        end = lf_edge_offset_at(edge_offset, node + 1);
    }
    c->next_dfn = next_dfn;
    c->listed = listed;
    c->report_at = report_at;
    c->stack = stack;
    c->stack_cap = stack_cap;
    return rc;
}

/* LF_DOM_UNREACHED_ALONE: every node not reached is a child of the
 * super-root, searched no further (s->searched says where they begin). */
static void number_unreached_alone(dom_state *s, search_counts *c)
{
    s->searched = c->next_dfn;
    for (uint32_t node = 0; node < s->g->node_count; node++)
        if (s->node_to_dfn[node] == 0) {
            uint32_t d = c->next_dfn++;
            s->node_to_dfn[node] = d | ROOT_FLAG;
            s->dfn_to_node[d] = node;
            s->parent_by_dfn[d] = 0;
        }
}

/* The next node to search from: the roots, then (LF_DOM_KEEP_UNREACHABLE)
 * each node still not visited; LF_NODE_NONE when there is none. */
static uint32_t next_search_root(dom_state *s, uint32_t *root_cursor, uint32_t *unreached_scan)
{
    const lf_graph *g = s->g;
    if (*root_cursor < g->root_count)
        return g->root_node[(*root_cursor)++];
    if (!(s->flags & LF_DOM_KEEP_UNREACHABLE))
        return LF_NODE_NONE;
    while (*unreached_scan < g->node_count && s->node_to_dfn[*unreached_scan] != 0)
        (*unreached_scan)++;
    return *unreached_scan < g->node_count ? *unreached_scan : LF_NODE_NONE;
}

/* A half's listing costs per edge it lists and per node of its target
 * range: both halves read every edge, and a listed edge's target is read
 * at random within the range, so a wide range misses the cache where a
 * narrow one (the class objects most edges point at) does not. Fitted on
 * the Express snapshot, where balancing the edges alone split at node
 * 26,112: 4.45M edges into that narrow range took 24-25 ms, 2.67M edges
 * over the other 1.63M nodes 41-43 ms. With these weights the halves took
 * 31-34 and 35-42 ms there, and 214-249 and 330-409 ms on the 30M-object
 * HPROF dump against 245-256 and 306-411 ms (BENCHMARKS.md 1.3.4). */
enum { LISTED_WEIGHT = 4, RANGE_NODE_WEIGHT = 11 };

static uint64_t block_listing_cost(const search_counts *c, uint64_t b, uint32_t n)
{
    uint64_t first = b << c->block_shift, nodes = first >= n ? 0 : n - first;
    if (nodes > (1u << c->block_shift))
        nodes = 1u << c->block_shift;
    return c->strong_by_block[b] * LISTED_WEIGHT + nodes * RANGE_NODE_WEIGHT;
}

/* Splits the listing's work in two halves of target nodes of about the
 * same cost each (above). */
static uint32_t listing_split(const dom_state *s, const search_counts *c)
{
    const uint32_t n = s->g->node_count;
    uint64_t cost = 0;
    for (unsigned b = 0; b < TARGET_BLOCKS; b++)
        cost += block_listing_cost(c, b, n);
    for (uint64_t b = 0, sum = 0; b < TARGET_BLOCKS && (b << c->block_shift) < n; b++) {
        sum += block_listing_cost(c, b, n);
        if (sum * 2 >= cost) {
            uint64_t end = (b + 1) << c->block_shift;
            return end < n ? (uint32_t)end : n;
        }
    }
    return n / 2;
}

/* Step 1: DFS preorder numbers and parents from the super-root, whose
 * children are the roots; counts the predecessors each vertex will list. */
static int depth_first_search(dom_state *s)
{
    const lf_graph *g = s->g;
    search_counts c = {.next_dfn = 1, .stack_cap = 4096};
    c.stack = malloc(c.stack_cap * sizeof *c.stack);
    if (!c.stack)
        return -1;
    while ((g->node_count >> c.block_shift) >= TARGET_BLOCKS)
        c.block_shift++;
    for (uint32_t r = 0; r < g->root_count; r++)
        s->node_to_dfn[g->root_node[r]] = ROOT_PENDING;
    s->dfn_to_node[0] = DFN_NONE;
    s->parent_by_dfn[0] = DFN_NONE;
    dfs_ahead ahead = {.dfn_to_node = s->dfn_to_node, .parent_by_dfn = s->parent_by_dfn,
                       .slots = (size_t)g->node_count + 1, .pred = s->pred, .max_pred = s->max_pred};
    pthread_t populate_thread;
    int populating = s->threaded && pthread_create(&populate_thread, NULL, map_ahead_of_dfs, &ahead) == 0;
    c.ahead = &ahead;
    /* progress: one compare per vertex reached, where the search stores anyway */
    c.report_at = lf_graph_progress_report(s->progress, 1, LF_DOM_PASSES, 0, g->node_count);
    int rc = 0;
    uint32_t root_cursor = 0, unreached_scan = 0, root;
    while (rc == 0 && (root = next_search_root(s, &root_cursor, &unreached_scan)) != LF_NODE_NONE) {
        uint32_t v = s->node_to_dfn[root];
        s->node_to_dfn[root] = (v & ~ROOT_FLAG) | ROOT_FLAG;
        if (v == 0 || v == ROOT_PENDING) /* else visited from an earlier root */
            rc = search_from(s, &c, root);
    }
    /* the mapper reads `ahead` on this frame: stop it before leaving */
    __atomic_store_n(&ahead.done, 1, __ATOMIC_RELEASE);
    if (populating)
        pthread_join(populate_thread, NULL);
    free(c.stack);
    if (rc)
        return -1;
    if (s->flags & LF_DOM_UNREACHED_ALONE && !(s->flags & LF_DOM_KEEP_UNREACHABLE))
        number_unreached_alone(s, &c);
    lf_graph_progress_report(s->progress, 1, LF_DOM_PASSES, g->node_count, g->node_count);
    s->count = c.next_dfn;
    if (!s->searched)
        s->searched = s->count;
    s->listed = c.listed;
    s->split_node = listing_split(s, &c);
    return c.listed > UINT32_MAX ? -1 : 0; /* see the header */
}

/* --- step 2: predecessor lists ----------------------------------------------- */

/* Lists the predecessors by target dfn: a counting sort, the search
 * counted, the listing reads the edges again. */
static void list_predecessors(dom_state *s)
{
    const uint32_t count = s->count;
    uint32_t *pred_offset = s->pred_offset;
    uint64_t total = 0;
    for (uint32_t d = 0; d < count; d++) {
        total += pred_offset[d];
        pred_offset[d] = (uint32_t)total; /* the end of d's list */
    }
    pred_offset[count] = (uint32_t)total;
    /* The mapper mapped the lists a little past where the count ended. */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t mask = page > 0 ? (uintptr_t)page - 1 : 4095;
    uintptr_t used = ((uintptr_t)(s->pred + total) + mask) & ~mask;
    uintptr_t mapped_end = (uintptr_t)(s->pred + s->max_pred) & ~mask;
    if (mapped_end > used)
        (void)madvise((void *)used, mapped_end - used, MADV_DONTNEED); /* only memory */
    lf_graph_progress_report(s->progress, 2, LF_DOM_PASSES, 0, s->g->node_count);
    lf_run_halves(fill_preds_half, s, s->threaded);
    lf_graph_progress_report(s->progress, 2, LF_DOM_PASSES, s->g->node_count, s->g->node_count);
    lf_big_free(s->node_to_dfn); /* each step holds only what it needs: see the header */
    s->node_to_dfn = NULL;
}

/* --- step 3: semidominators ------------------------------------------------------ */

/* Semidominators, in decreasing dfn order, with path compression in the
 * forest. A vertex's forest entry is written when it is linked, before any
 * read. Its semidominator goes where its list offset was: read for the
 * last time just before. The lists are read back to front in one sweep,
 * so the forest entry of a predecessor a few lists ahead can be fetched
 * early. */
static int semidominators(dom_state *s)
{
    const uint32_t count = s->count;
    const size_t slots = (size_t)s->g->node_count + 1;
    forest_vertex *forest = s->forest = lf_big_malloc(slots * sizeof *forest);
    if (!forest)
        return -1;
    uint32_t *semi_by_dfn = s->semi_by_dfn = s->pred_offset;
    s->pred_offset = NULL;
    const uint32_t *pred = s->pred, *parent_by_dfn = s->parent_by_dfn;
    populate_job forest_pages = {1, {{forest, slots * sizeof *forest}}};
    pthread_t populate_thread;
    int populating = s->threaded && pthread_create(&populate_thread, NULL, populate_pages_down,
                                                   &forest_pages) == 0;
    uint32_t p = semi_by_dfn[count];
    const uint64_t reached = count - 1;
    lf_graph_progress_report(s->progress, 3, LF_DOM_PASSES, 0, reached);
    for (uint32_t block = count - 1; block > 0;) {
        uint32_t block_end = block > BLOCK ? block - BLOCK : 0;
        for (uint32_t w = block; w > block_end; w--) {
            uint32_t best = parent_by_dfn[w]; /* the tree edge, never listed */
            for (uint32_t start = semi_by_dfn[w]; p > start;) {
                p--;
                if (p >= PREFETCH_AHEAD)
                    __builtin_prefetch(&forest[pred[p - PREFETCH_AHEAD]]);
                uint32_t u = pred[p];
                if (u > w)
                    u = eval_and_compress(u, w, forest);
                if (u < best)
                    best = u;
            }
            semi_by_dfn[w] = best;
            forest[w] = (forest_vertex){.ancestor = parent_by_dfn[w], .best = best}; /* link w */
        }
        block = block_end;
        if (block) /* the end is told below */
            lf_graph_progress_report(s->progress, 3, LF_DOM_PASSES, count - 1 - block, reached);
    }
    if (populating)
        pthread_join(populate_thread, NULL);
    lf_big_free(s->pred);
    s->pred = NULL;
    lf_graph_progress_report(s->progress, 3, LF_DOM_PASSES, reached, reached);
    return 0;
}

/* --- step 4: immediate dominators and retained sizes ------------------------ */

/* Pass 4 is three loops of `reached` vertices each: relative dominators,
 * immediate dominators, retained sizes. */
#define STEP4_PARTS 3

/* parent_by_dfn, once a vertex is linked: its idom, or (this bit set) the
 * vertex whose idom it shares, seen on its semidominator path. dfn < 2^31
 * (ROOT_FLAG), so the bit is free. */
#define SHARES_IDOM 0x80000000u

/* eval_and_compress for the second sweep, whose forest holds labels: the
 * vertex of smallest semidominator on the compressed path up to, but
 * excluding, the forest root; vertices <= w are roots. */
static uint32_t eval_label(uint32_t v, uint32_t w, forest_vertex *forest, const uint32_t *semi_by_dfn)
{
    if (forest[v].ancestor <= w)
        return forest[v].label;
    uint32_t x = v, reversed = DFN_NONE;
    while (forest[x].ancestor > w) {
        uint32_t up = forest[x].ancestor;
        forest[x].ancestor = reversed;
        reversed = x;
        x = up;
    }
    uint32_t best = forest[x].label, best_semi = semi_by_dfn[best];
    while (reversed != DFN_NONE) {
        uint32_t y = reversed;
        reversed = forest[y].ancestor;
        uint32_t own_semi = semi_by_dfn[forest[y].label];
        if (best_semi < own_semi)
            forest[y].label = best;
        else
            best = forest[y].label, best_semi = own_semi;
        forest[y].ancestor = forest[x].ancestor;
        x = y;
    }
    return forest[v].label;
}

/* Empties bucket(p), the vertices whose semidominator is p, with every
 * vertex above p linked and p not: each gets idom p when no vertex between
 * p and it has a smaller semidominator, else shares the idom of the one
 * that has the smallest (Lengauer-Tarjan, Theorem 4 / Corollary 1). */
static void empty_bucket(uint32_t p, forest_vertex *forest, const uint32_t *semi_by_dfn,
                         uint32_t *parent_by_dfn)
{
    uint32_t v = forest[p].ancestor; /* the head, while p is not linked */
    if (v <= p)
        return; /* no head: what is left there points below p (see relative_dominators) */
    while (v) {
        uint32_t next = parent_by_dfn[v];
        uint32_t u = eval_label(v, p, forest, semi_by_dfn);
        parent_by_dfn[v] = semi_by_dfn[u] < p ? u | SHARES_IDOM : p;
        v = next;
    }
}

/* Lengauer-Tarjan's bucket step, as a second sweep in decreasing dfn over a
 * fresh forest with labels (the first sweep's forest keeps the smallest
 * semidominator itself, which is faster but does not say which vertex has
 * it). Linear but for path compression; Semi-NCA's walk up the dominator
 * tree, which it replaces, was quadratic on a ladder (issue 39).
 * No new memory: a vertex's parent is dead once it is linked, and holds its
 * link in its bucket, then its result; an unlinked vertex's forest entry
 * holds its bucket's head. That entry still holds the first sweep's
 * ancestor, always below the vertex itself, while a head is above it: so
 * the heads need no clearing. 0 ends a bucket (the super-root is in none). */
static void relative_dominators(dom_state *s)
{
    const uint32_t count = s->count;
    const uint64_t reached = count - 1;
    const uint32_t *semi_by_dfn = s->semi_by_dfn;
    uint32_t *parent_by_dfn = s->parent_by_dfn;
    forest_vertex *forest = s->forest;
    forest[0].ancestor = 0; /* never linked in the first sweep: no head */
    lf_graph_progress_parts(s->progress, 4, LF_DOM_PASSES, 0, STEP4_PARTS * reached, STEP4_PARTS);
    for (uint32_t block = count - 1; block > 0;) {
        uint32_t block_end = block > BLOCK ? block - BLOCK : 0;
        for (uint32_t w = block; w > block_end; w--) {
            empty_bucket(w, forest, semi_by_dfn, parent_by_dfn);
            uint32_t parent = parent_by_dfn[w], semi = semi_by_dfn[w];
            forest[w] = (forest_vertex){.ancestor = parent, .label = w}; /* link w */
            if (semi < parent) { /* else its idom is its parent, which stays */
                uint32_t head = forest[semi].ancestor;
                parent_by_dfn[w] = head > semi ? head : 0;
                forest[semi].ancestor = w;
            }
        }
        block = block_end;
        lf_graph_progress_parts(s->progress, 4, LF_DOM_PASSES, count - 1 - block,
                                STEP4_PARTS * reached, STEP4_PARTS);
    }
    empty_bucket(0, forest, semi_by_dfn, parent_by_dfn);
}

/* Immediate dominators in preorder, into semi_by_dfn's memory: a vertex
 * that shares the idom of another, above it, reads the finished one. */
static void immediate_dominators(dom_state *s)
{
    const uint32_t count = s->count;
    const uint64_t reached = count - 1;
    const uint32_t *result_by_dfn = s->parent_by_dfn;
    uint32_t *idom_by_dfn = s->semi_by_dfn;
    idom_by_dfn[0] = 0;
    for (uint32_t block = 1; block < count;) {
        uint32_t block_end = count - block > BLOCK ? block + BLOCK : count;
        for (uint32_t w = block; w < block_end; w++) {
            uint32_t r = result_by_dfn[w];
            idom_by_dfn[w] = r & SHARES_IDOM ? idom_by_dfn[r & ~SHARES_IDOM] : r;
        }
        block = block_end;
        lf_graph_progress_parts(s->progress, 4, LF_DOM_PASSES, reached + block - 1,
                                STEP4_PARTS * reached, STEP4_PARTS);
    }
    lf_big_free(s->parent_by_dfn);
    s->parent_by_dfn = NULL;
    s->idom_by_dfn = idom_by_dfn;
}

/* Retained sizes are summed in dfn space, where a dominator is usually
 * close to its children, in the 8 bytes per vertex the forest used:
 * children follow their dominator in preorder, so bottom-up. The other
 * core maps the idom output in meanwhile. */
static void sum_retained(dom_state *s)
{
    const uint32_t count = s->count;
    const uint64_t reached = count - 1;
    const uint32_t *idom_by_dfn = s->idom_by_dfn;
    uint64_t *retained_by_dfn = s->retained_by_dfn = (uint64_t *)s->forest;
    s->split = count / 2 > 1 ? count / 2 : 1;
    lf_run_halves(retained_start_half, s, s->threaded);
    populate_job idom_pages = {1, {{s->idom, (size_t)s->g->node_count * sizeof *s->idom}}};
    pthread_t populate_thread;
    int populating = populate_start(&populate_thread, &idom_pages, s->threaded);
    retained_by_dfn[0] = 0;
    for (uint32_t block = count - 1; block > 0;) {
        uint32_t block_end = block > BLOCK ? block - BLOCK : 0;
        for (uint32_t w = block; w > block_end; w--)
            retained_by_dfn[idom_by_dfn[w]] += retained_by_dfn[w];
        block = block_end;
        if (block) /* the end is told once the outputs are stored */
            lf_graph_progress_parts(s->progress, 4, LF_DOM_PASSES, 2 * reached + (count - 1 - block),
                                    STEP4_PARTS * reached, STEP4_PARTS);
    }
    if (populating)
        pthread_join(populate_thread, NULL);
}

/* The outputs in node space, one at a time, so that idom_by_dfn is gone
 * before retained is mapped in: this step then stays below the peak that
 * listing the predecessors sets. 0, or -1 when the big table finds no memory. */
static int store_outputs(dom_state *s, lf_size_table *retained_big)
{
    if (s->count - 1 < s->g->node_count)
        lf_run_halves(clear_idom_half, s, s->threaded);
    lf_run_halves(idom_store_half, s, s->threaded);
    lf_big_free(s->semi_by_dfn);
    s->semi_by_dfn = NULL;
    s->idom_by_dfn = NULL;
    lf_run_halves(clear_retained_half, s, s->threaded);
    lf_run_halves(retained_store_half, s, s->threaded);
    if (s->big_failed[0] || s->big_failed[1] || join_big_tables(s, retained_big))
        return -1;
    const uint64_t reached = s->count - 1;
    lf_graph_progress_parts(s->progress, 4, LF_DOM_PASSES, STEP4_PARTS * reached, STEP4_PARTS * reached,
                            STEP4_PARTS);
    return 0;
}

static void dom_free(dom_state *s)
{
    lf_big_free(s->node_to_dfn);
    lf_big_free(s->semi_by_dfn);
    lf_big_free(s->dfn_to_node);
    lf_big_free(s->parent_by_dfn);
    lf_big_free(s->forest);
    lf_big_free(s->pred_offset);
    lf_big_free(s->pred);
    lf_size_table_free(&s->retained_big[0]);
    lf_size_table_free(&s->retained_big[1]);
}

int lf_dominators_compute_reporting(const lf_graph *g, const lf_sizes *shallow, unsigned flags,
                                    uint32_t *idom, uint32_t *retained, lf_size_table *retained_big,
                                    lf_dominator_result *result, const lf_graph_progress *progress)
{
    dom_state s = {.g = g, .shallow = shallow, .flags = flags, .idom = idom, .retained = retained,
                   .progress = progress,
                   .threaded = g->node_count >= LF_THREADED_MIN_NODES && !(flags & LF_DOM_ONE_THREAD)};
    if (allocate_search(&s) || depth_first_search(&s)) {
        dom_free(&s);
        return -1;
    }
    list_predecessors(&s);
    if (semidominators(&s)) {
        dom_free(&s);
        return -1;
    }
    relative_dominators(&s);
    immediate_dominators(&s);
    sum_retained(&s);
    if (store_outputs(&s, retained_big)) {
        dom_free(&s);
        return -1;
    }
    result->reachable_count = s.count - 1;
    result->reachable_shallow = s.shallow_sum[0] + s.shallow_sum[1];
    dom_free(&s);
    return 0;
}
