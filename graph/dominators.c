/* dominators.c - Lengauer-Tarjan semidominators, Semi-NCA immediate dominators.
 *
 * Variant: the "simple" Lengauer-Tarjan (path compression, no balanced linking)
 * computes semidominators; immediate dominators then come from the Semi-NCA rule
 * of Georgiadis and Tarjan (idom(w) is the nearest dominator-tree ancestor of
 * parent(w) whose preorder number is at most sdom(w)), which replaces LT's
 * buckets. Why: on heap graphs the simple variant is faster in practice than the
 * balanced one (LLVM made the same choice), and dropping the buckets saves two
 * arrays per node, which is what bounds peak memory on a 30M-object heap.
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
 * offset was) and 4 per predecessor; NCA: 20 per node; retained sizes: 24
 * per node with the caller's outputs (12 of them), which are not touched
 * before then. Predecessor offsets are 32-bit: more than 2^32 listed
 * predecessors (16 GB of lists) is reported as out of memory.
 */
#include "dominators.h"
#include "../core/bigmem.h"
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
    uint32_t best; /* smallest semi on the compressed path up to ancestor */
} forest_vertex;

typedef struct dom_state {
    const lf_graph *g;
    const uint64_t *shallow;
    uint32_t count; /* dfn 0 .. count-1 are in use */
    uint32_t *dfn_to_node;
    const uint32_t *node_to_dfn;
    const uint32_t *parent_by_dfn;
    uint32_t searched; /* dfn searched .. count-1: unreached nodes alone, edges not looked at */
    uint32_t split_node; /* listing: the first target node of the second half */
    uint32_t *pred_offset;
    uint32_t *pred;
    uint32_t split; /* the first dfn of the second half of a pass */
    const uint32_t *idom_by_dfn;
    uint64_t *retained_by_dfn;
    uint32_t *idom;
    uint64_t *retained;
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

/* Maps in the whole pages inside bytes [from, to) of p. Only maps zeroed
 * pages where none are: safe while another thread writes the same memory.
 * Failure (an older kernel) only costs time. */
static void populate_range(void *p, size_t from, size_t to)
{
#ifdef MADV_POPULATE_WRITE
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t mask = page > 0 ? (uintptr_t)page - 1 : 4095;
    uintptr_t start = ((uintptr_t)p + from + mask) & ~mask;
    uintptr_t end = ((uintptr_t)p + to) & ~mask;
    if (end > start)
        madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
    (void)p, (void)from, (void)to;
#endif
}

static void *populate_pages(void *arg)
{
    populate_job *job = arg;
    for (unsigned i = 0; i < job->count; i++)
        populate_range(job->range[i].p, 0, job->range[i].bytes);
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
    populate_range(a, *mapped * size, to * size);
    if (b)
        populate_range(b, *mapped * size, to * size);
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
#ifdef MADV_POPULATE_WRITE
    populate_job *job = arg;
    const unsigned steps = 1024;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t mask = page > 0 ? (uintptr_t)page - 1 : 4095;
    for (unsigned k = 0; k < steps; k++)
        for (unsigned i = 0; i < job->count; i++) {
            uintptr_t base = (uintptr_t)job->range[i].p, bytes = job->range[i].bytes;
            uintptr_t hi = (base + bytes - bytes / steps * k) & ~mask;
            uintptr_t lo = k + 1 == steps ? (base + mask) & ~mask
                                          : (base + bytes - bytes / steps * (k + 1)) & ~mask;
            if (hi > lo)
                madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
        }
#else
    (void)arg;
#endif
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
    const uint64_t *edge_offset = g->edge_offset, edges = g->edge_offset[g->node_count];
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
            for (uint64_t e = edge_offset[node], end = edge_offset[node + 1]; e < end; e++) {
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
        uint64_t size = s->shallow[dfn_to_node[w]];
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

static void retained_store_half(void *ctx, unsigned half)
{
    dom_state *s = ctx;
    uint32_t lo = half ? s->split : 1, hi = half ? s->count : s->split;
    const uint32_t *dfn_to_node = s->dfn_to_node;
    for (uint32_t w = lo; w < hi; w++)
        s->retained[dfn_to_node[w]] = s->retained_by_dfn[w];
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

int lf_dominators_compute(const lf_graph *g, const uint64_t *shallow, unsigned flags,
                          uint32_t *idom, uint64_t *retained, lf_dominator_result *result)
{
    return lf_dominators_compute_reporting(g, shallow, flags, idom, retained, result, NULL);
}

int lf_dominators_compute_reporting(const lf_graph *g, const uint64_t *shallow, unsigned flags,
                                    uint32_t *idom, uint64_t *retained, lf_dominator_result *result,
                                    const lf_graph_progress *progress)
{
    const uint32_t n = g->node_count;
    const size_t slots = (size_t)n + 1; /* dfn space: super-root plus every node */
    const uint64_t *edge_offset = g->edge_offset;
    const uint32_t *edge_target = g->edge_target;
    const int threaded = n >= LF_THREADED_MIN_NODES && !(flags & LF_DOM_ONE_THREAD);

    uint32_t *node_to_dfn = lf_big_calloc(slots, sizeof *node_to_dfn); /* 0 = not visited */
    uint32_t *dfn_to_node = lf_big_malloc(slots * sizeof *dfn_to_node);
    uint32_t *parent_by_dfn = lf_big_malloc(slots * sizeof *parent_by_dfn);
    uint32_t *pred_offset = lf_big_calloc(slots + 1, sizeof *pred_offset);
    /* At most one predecessor per strong edge plus one per root; only the
     * pages that get used become resident. */
    const uint64_t max_pred = g->edge_count + g->root_count;
    uint32_t *pred = lf_big_malloc((max_pred ? max_pred : 1) * sizeof *pred);
    size_t stack_cap = 4096, depth = 0;
    dfs_frame *stack = malloc(stack_cap * sizeof *stack);
    forest_vertex *forest = NULL;
    uint32_t *semi_by_dfn = NULL;
    if (!node_to_dfn || !dfn_to_node || !parent_by_dfn || !pred_offset || !pred || !stack)
        goto nomem;

    /* A page fault costs about as much as visiting a few hundred vertices.
     * node_to_dfn and pred_offset are written all over from the first
     * vertex on: both cores map them in before the DFS starts. The arrays
     * written in order are mapped by the other core while the DFS runs, just
     * ahead of it. */
    populate_job lower = {2, {{node_to_dfn, slots / 2 * sizeof *node_to_dfn},
                              {pred_offset, slots / 2 * sizeof *pred_offset}}};
    pthread_t populate_thread;
    int populating = populate_start(&populate_thread, &lower, threaded);
    populate_range(node_to_dfn, slots / 2 * sizeof *node_to_dfn, slots * sizeof *node_to_dfn);
    populate_range(pred_offset, slots / 2 * sizeof *pred_offset, (slots + 1) * sizeof *pred_offset);
    if (populating)
        pthread_join(populate_thread, NULL);
    dfs_ahead ahead = {.dfn_to_node = dfn_to_node, .parent_by_dfn = parent_by_dfn, .slots = slots,
                       .pred = pred, .max_pred = max_pred};
    populating = threaded && pthread_create(&populate_thread, NULL, map_ahead_of_dfs, &ahead) == 0;

    /* Depth-first search from the super-root. It counts, per target, the
     * edges it examines that can change a semidominator (is_listed); they
     * are listed by reading the edges again once every vertex has its dfn
     * and DFS parent. Not listed: weak edges, DFS tree edges (the parent is
     * the implicit first predecessor) and edges into roots (a root's
     * semidominator is the super-root whatever else points at it; on a heap
     * that drops every instance -> class edge of a rooted class). A root
     * first reached by an edge lists the super-root instead. */
    for (uint32_t r = 0; r < g->root_count; r++)
        node_to_dfn[g->root_node[r]] = ROOT_PENDING;
    uint32_t next_dfn = 1, searched = 0;
    /* Strong edges examined per block of target nodes: the listing looks
     * each up again, which is its work, split into halves by it. */
    unsigned block_shift = 0;
    while ((n >> block_shift) >= TARGET_BLOCKS)
        block_shift++;
    uint64_t strong_by_block[TARGET_BLOCKS] = {0}, listed = 0;
    dfn_to_node[0] = DFN_NONE;
    parent_by_dfn[0] = DFN_NONE;
    uint32_t root_cursor = 0, unreached_scan = 0;
    /* progress: one compare per vertex reached, where the DFS stores anyway */
    uint64_t report_at = lf_graph_progress_report(progress, 1, LF_DOM_PASSES, 0, n);
    for (;;) {
        uint32_t root;
        if (root_cursor < g->root_count) {
            root = g->root_node[root_cursor++];
        } else if (flags & LF_DOM_KEEP_UNREACHABLE) {
            while (unreached_scan < n && node_to_dfn[unreached_scan] != 0)
                unreached_scan++;
            if (unreached_scan == n)
                break;
            root = unreached_scan;
        } else if (flags & LF_DOM_UNREACHED_ALONE) {
            searched = next_dfn;
            for (uint32_t node = 0; node < n; node++)
                if (node_to_dfn[node] == 0) {
                    uint32_t d = next_dfn++;
                    node_to_dfn[node] = d | ROOT_FLAG;
                    dfn_to_node[d] = node;
                    parent_by_dfn[d] = 0;
                }
            break;
        } else {
            break;
        }
        uint32_t v = node_to_dfn[root];
        node_to_dfn[root] = (v & ~ROOT_FLAG) | ROOT_FLAG;
        if (v != 0 && v != ROOT_PENDING)
            continue; /* visited from an earlier root */
        v = next_dfn++;
        node_to_dfn[root] = v | ROOT_FLAG;
        dfn_to_node[v] = root;
        parent_by_dfn[v] = 0;
        /* The vertex being looked at lives in registers; the stack holds its
         * ancestors on the DFS path, each with its next edge. */
        uint32_t node = root;
        uint64_t e = edge_offset[node], end = edge_offset[node + 1];
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
                    report_at = lf_graph_progress_report(progress, 1, LF_DOM_PASSES, next_dfn, n);
                __atomic_store_n(&ahead.next_dfn, next_dfn, __ATOMIC_RELAXED);
                __atomic_store_n(&ahead.listed, listed, __ATOMIC_RELAXED);
                if (depth == stack_cap) {
                    dfs_frame *grown = realloc(stack, 2 * stack_cap * sizeof *stack);
                    if (!grown) {
                        /* the mapper reads `ahead` on this frame: stop it first */
                        __atomic_store_n(&ahead.done, 1, __ATOMIC_RELEASE);
                        if (populating)
                            pthread_join(populate_thread, NULL);
                        goto nomem;
                    }
                    stack = grown;
                    stack_cap *= 2;
                }
                stack[depth++] = (dfs_frame){e, v, 0};
                v = descend;
                node = t;
                e = edge_offset[node];
                end = edge_offset[node + 1];
                /* Start the loads the children will need (the DFS is one
                 * long chain of dependent cache misses otherwise). */
                for (uint64_t p = e; p < end && p < e + 8; p++) {
                    uint32_t c = edge_target[p] & LF_EDGE_NODE;
                    __builtin_prefetch(&node_to_dfn[c]);
                    __builtin_prefetch(&edge_offset[c]);
                }
                continue;
            }
            if (depth == 0)
                break; /* this root's tree is done */
            depth--;
            v = stack[depth].dfn;
            e = stack[depth].cursor;
            node = dfn_to_node[v];
            end = edge_offset[node + 1];
        }
    }
    free(stack);
    stack = NULL;
    lf_graph_progress_report(progress, 1, LF_DOM_PASSES, n, n); /* the rest is unreachable */
    const uint32_t count = next_dfn; /* dfn 0 .. count-1 are in use */
    if (!searched)
        searched = count;
    __atomic_store_n(&ahead.done, 1, __ATOMIC_RELEASE);
    if (populating)
        pthread_join(populate_thread, NULL);

    /* List the predecessors by target dfn (a counting sort: the DFS
     * counted, the listing reads the edges again). */
    dom_state s = {.g = g, .shallow = shallow, .count = count, .dfn_to_node = dfn_to_node,
                   .node_to_dfn = node_to_dfn, .parent_by_dfn = parent_by_dfn,
                   .searched = searched, .pred_offset = pred_offset,
                   .split = count / 2, .idom = idom, .retained = retained,
                   .progress = progress, .threaded = threaded};
    if (listed > UINT32_MAX)
        goto nomem; /* see the header */
    uint64_t strong = 0;
    for (unsigned b = 0; b < TARGET_BLOCKS; b++)
        strong += strong_by_block[b];
    s.split_node = n / 2;
    for (uint64_t b = 0, sum = 0; b < TARGET_BLOCKS && (b << block_shift) < n; b++) {
        sum += strong_by_block[b];
        if (sum * 2 >= strong) {
            uint64_t end = (b + 1) << block_shift;
            s.split_node = end < n ? (uint32_t)end : n;
            break;
        }
    }
    uint64_t total = 0;
    for (uint32_t d = 0; d < count; d++) {
        total += pred_offset[d];
        pred_offset[d] = (uint32_t)total; /* the end of d's list */
    }
    pred_offset[count] = (uint32_t)total;
    s.pred = pred;
    /* The helper mapped the lists a little past where the count ended. */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t mask = page > 0 ? (uintptr_t)page - 1 : 4095;
    uintptr_t used = ((uintptr_t)(pred + total) + mask) & ~mask;
    uintptr_t mapped_end = (uintptr_t)(pred + max_pred) & ~mask;
    if (mapped_end > used)
        (void)madvise((void *)used, mapped_end - used, MADV_DONTNEED); /* only memory */
    lf_graph_progress_report(progress, 2, LF_DOM_PASSES, 0, n);
    lf_run_halves(fill_preds_half, &s, threaded);
    lf_graph_progress_report(progress, 2, LF_DOM_PASSES, n, n);
    lf_big_free(node_to_dfn); /* each phase holds only what it needs: see the header */
    node_to_dfn = NULL;

    /* Semidominators, in decreasing dfn order. A vertex's forest entry is
     * written when it is linked, before any read. Its semidominator goes
     * where its list offset was: read for the last time just before. */
    forest = lf_big_malloc(slots * sizeof *forest);
    if (!forest)
        goto nomem;
    semi_by_dfn = pred_offset;
    pred_offset = NULL;
    populate_job forest_pages = {1, {{forest, slots * sizeof *forest}}};
    populating = threaded && pthread_create(&populate_thread, NULL, populate_pages_down,
                                            &forest_pages) == 0;
    /* The lists are read back to front in one sweep, so the forest entry
     * of a predecessor a few lists ahead can be fetched early. */
    uint32_t p = semi_by_dfn[count];
    const uint64_t reached = count - 1;
    lf_graph_progress_report(progress, 3, LF_DOM_PASSES, 0, reached);
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
            forest[w] = (forest_vertex){parent_by_dfn[w], best}; /* link w */
        }
        block = block_end;
        if (block) /* the end is told below */
            lf_graph_progress_report(progress, 3, LF_DOM_PASSES, count - 1 - block, reached);
    }
    if (populating)
        pthread_join(populate_thread, NULL);
    lf_big_free(pred);
    pred = NULL;
    lf_graph_progress_report(progress, 3, LF_DOM_PASSES, reached, reached);

    /* Semi-NCA: semi_by_dfn[] becomes idom_by_dfn[] in place, in preorder
     * (idom_by_dfn[x] is only read for x < w, already converted). */
    uint32_t *idom_by_dfn = semi_by_dfn;
    idom_by_dfn[0] = 0;
    /* pass 4: this loop, then the one summing retained sizes */
    lf_graph_progress_parts(progress, 4, LF_DOM_PASSES, 0, 2 * reached, 2);
    for (uint32_t block = 1; block < count;) {
        uint32_t block_end = count - block > BLOCK ? block + BLOCK : count;
        for (uint32_t w = block; w < block_end; w++) {
            uint32_t x = parent_by_dfn[w];
            while (x > semi_by_dfn[w])
                x = idom_by_dfn[x];
            idom_by_dfn[w] = x;
        }
        block = block_end;
        lf_graph_progress_parts(progress, 4, LF_DOM_PASSES, block - 1, 2 * reached, 2);
    }
    lf_big_free(parent_by_dfn);
    parent_by_dfn = NULL;

    /* Retained sizes are summed in dfn space, where a dominator is usually
     * close to its children, in the 8 bytes per vertex the forest used. */
    s.idom_by_dfn = idom_by_dfn;
    uint64_t *retained_by_dfn = (uint64_t *)forest;
    s.retained_by_dfn = retained_by_dfn;
    s.split = count / 2 > 1 ? count / 2 : 1;
    lf_run_halves(retained_start_half, &s, threaded);
    /* The outputs one at a time, so that idom_by_dfn is gone before the
     * 8-byte one is mapped in: this phase then stays below the peak that
     * listing the predecessors sets. The other core maps idom in while this
     * one accumulates. */
    populate_job idom_pages = {1, {{idom, (size_t)n * sizeof *idom}}};
    populating = populate_start(&populate_thread, &idom_pages, threaded);
    /* Children follow their dominator in preorder: accumulate bottom-up. */
    retained_by_dfn[0] = 0;
    for (uint32_t block = count - 1; block > 0;) {
        uint32_t block_end = block > BLOCK ? block - BLOCK : 0;
        for (uint32_t w = block; w > block_end; w--)
            retained_by_dfn[idom_by_dfn[w]] += retained_by_dfn[w];
        block = block_end;
        if (block) /* the end is told once the outputs are stored */
            lf_graph_progress_parts(progress, 4, LF_DOM_PASSES, reached + (count - 1 - block), 2 * reached, 2);
    }
    if (populating)
        pthread_join(populate_thread, NULL);
    if (count - 1 < n)
        lf_run_halves(clear_idom_half, &s, threaded);
    lf_run_halves(idom_store_half, &s, threaded);
    lf_big_free(semi_by_dfn);
    semi_by_dfn = NULL;
    lf_run_halves(clear_retained_half, &s, threaded);
    lf_run_halves(retained_store_half, &s, threaded);
    lf_graph_progress_parts(progress, 4, LF_DOM_PASSES, 2 * reached, 2 * reached, 2);
    result->reachable_count = count - 1;
    result->reachable_shallow = s.shallow_sum[0] + s.shallow_sum[1];

    lf_big_free(dfn_to_node);
    lf_big_free(forest);
    return 0;

nomem:
    lf_big_free(node_to_dfn);
    lf_big_free(semi_by_dfn);
    lf_big_free(dfn_to_node);
    lf_big_free(parent_by_dfn);
    lf_big_free(forest);
    free(stack);
    lf_big_free(pred_offset);
    lf_big_free(pred);
    return -1;
}
