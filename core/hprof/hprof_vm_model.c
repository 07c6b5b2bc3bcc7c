/* hprof_vm_model.c - which reference and header sizes the heap used, voted
 * on from the gaps between object addresses. */
#include <string.h>

#include "hprof_passes.h"

typedef struct vm_model {
    unsigned ref_size, header_size, array_header_size;
} vm_model;

/* With 8-byte ids: compressed oops (the default below 32 GiB), plain oops with
 * compressed class pointers, or neither. */
static const vm_model models64[] = {{4, 12, 16}, {8, 12, 16}, {8, 16, 24}};
#define MODELS 3
#define VOTE_OBJECTS 200000

typedef struct vote_state {
    uint64_t prev_id;
    uint64_t prev_size[MODELS];
    int prev_known;
    uint64_t votes[MODELS];
    uint64_t seen;
} vote_state;

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/* Objects are written in address order: the gap to the next object's address
 * is the real size of this one. Count, per model, how often it predicts it. */
static int vote_visit(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *c, void *state)
{
    vote_state *v = state;
    (void)record_at;
    const unsigned id = r->id_size;
    uint64_t obj = hprof_id(c, id);
    uint64_t size[MODELS];
    int known = 1;
    if (tag == HPROF_INSTANCE_DUMP) {
        c->pos += 4;
        uint32_t k = hprof_class_of_id(r, hprof_id(c, id));
        known = k != HPROF_NONE;
        for (int m = 0; known && m < MODELS; m++)
            size[m] = align_up(models64[m].header_size + r->classes[k].prim_bytes +
                               (uint64_t)r->classes[k].ref_count * models64[m].ref_size, 8);
    } else if (tag == HPROF_OBJ_ARRAY_DUMP) {
        c->pos += 4;
        uint32_t n = hprof_u4(c);
        for (int m = 0; m < MODELS; m++)
            size[m] = align_up(models64[m].array_header_size + (uint64_t)n * models64[m].ref_size, 8);
    } else if (tag == HPROF_PRIM_ARRAY_DUMP) {
        c->pos += 4;
        uint32_t n = hprof_u4(c);
        unsigned e = hprof_type_size(hprof_u1(c), id);
        for (int m = 0; m < MODELS; m++)
            size[m] = align_up(models64[m].array_header_size + (uint64_t)n * e, 8);
    } else {
        known = 0;
    }
    if (v->prev_known && obj > v->prev_id) {
        uint64_t gap = obj - v->prev_id;
        int all_same = v->prev_size[0] == v->prev_size[1] && v->prev_size[1] == v->prev_size[2];
        for (int m = 0; m < MODELS && !all_same; m++)
            v->votes[m] += v->prev_size[m] == gap;
    }
    v->prev_id = obj;
    v->prev_known = known;
    for (int m = 0; known && m < MODELS; m++)
        v->prev_size[m] = size[m];
    return ++v->seen >= VOTE_OBJECTS ? 1 : 0;
}

int hprof_detect_vm_model(hprof_reader *r)
{
    r->alignment = 8;
    if (r->id_size == 4) { /* ART, or a 32-bit HotSpot */
        r->ref_size = 4;
        r->header_size = 8;
        r->array_header_size = 12;
        hprof_class_sizes(r);
        return 0;
    }
    vote_state v;
    memset(&v, 0, sizeof v);
    r->ref_size = models64[0].ref_size; /* default, and the vote's tie-break */
    r->header_size = models64[0].header_size;
    r->array_header_size = models64[0].array_header_size;
    if (hprof_walk_all(r, 4, vote_visit, &v) < 0)
        return -1;
    int best = 0;
    for (int m = 1; m < MODELS; m++)
        if (v.votes[m] > v.votes[best])
            best = m;
    r->ref_size = models64[best].ref_size;
    r->header_size = models64[best].header_size;
    r->array_header_size = models64[best].array_header_size;
    hprof_class_sizes(r);
    return 0;
}
