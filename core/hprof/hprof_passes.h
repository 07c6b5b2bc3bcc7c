/* hprof_passes.h - what the files of one read share between its passes:
 * the walk, the per-node tables, the read's state, and its steps, which
 * hprof.c calls in order. */
#ifndef LF_HPROF_PASSES_H
#define LF_HPROF_PASSES_H

#include <pthread.h>

#include "../model/edge_offsets.h"
#include "hprof.h"
#include "hprof_internal.h"
#include "hprof_lazy.h"

/* --- the walk (hprof_records.c, hprof_parallel.c) --- */

/* Walks the sub-records of one heap dump body [c->pos, c->end). In pass 1 it
 * collects; in later passes `visit` handles each object (and may return 1 to
 * stop the walk early, or -1 after an error). */
typedef int (*object_visitor)(hprof_reader *r, uint8_t tag, uint64_t record_at, hprof_cursor *body,
                              void *state);

#define HPROF_MAX_THREADS 64

int hprof_walk_heap(hprof_reader *r, hprof_cursor *c, int pass, object_visitor visit, void *state);
/* Every heap dump body on this thread; a visitor's 1 stops the walk. */
int hprof_walk_all(hprof_reader *r, int pass, object_visitor visit, void *state);
/* Passes 2 and 3 on several threads: the heap dump bodies are split into
 * contiguous parts of about equal bytes. Every write goes to the slots of the
 * node being read (or to a thread's own counters), so the result does not
 * depend on the number of threads. */
int hprof_walk_parallel(hprof_reader *r, unsigned threads, int pass, object_visitor visit,
                        void **states);
int hprof_judy_set(hprof_reader *r, Pvoid_t *array, uint64_t key, uint64_t value);
/* Static reference fields of a class, as (name sid, value id) pairs, via callback. */
typedef int (*static_visitor)(hprof_reader *r, void *ctx, uint32_t from, uint64_t name_sid,
                              uint64_t value, uint64_t *count);

int hprof_for_each_static_ref(hprof_reader *r, void *ctx, const hprof_class *k, uint32_t from,
                              static_visitor visit, uint64_t *count);

/* --- classes (hprof_class_index.c, hprof_vm_model.c) --- */

int hprof_build_class_hash(hprof_reader *r);
uint32_t hprof_class_of_id(const hprof_reader *r, uint64_t class_id);
int hprof_detect_vm_model(hprof_reader *r);

/* --- the per-node tables (pass 2 fills them, pass 3 reads them) --- */

typedef struct node_tables {
    uint32_t *class_of;        /* node -> lf class (= class index, or extra classes) */
    uint32_t *shallow;         /* narrow sizes (graph/sizes.h): arrays of 4 GiB or more in */
    lf_size_table shallow_big; /* shallow_big, which threads add to under big_lock */
    pthread_mutex_t big_lock;
    int big_lock_made;
    int big_failed;            /* no memory for shallow_big */
    lf_edge_offsets_mut edge_offset; /* counts in pass 2, offsets in pass 3 */
    uint32_t *record_low;      /* node -> offset of its sub-record, see hprof_record_at */
    uint8_t *record_high;      /* NULL when the dump is under 4 GiB */
    uint8_t *seen;             /* node -> 1 once the first object with its id is read (a byte
                                * each, so threads never share one); pass 2 only, and only
                                * when some id repeats (else NULL) */
    lf_idrank rank;
    uint32_t *class_node;      /* class index -> node of its class object */
    uint32_t *frame_edges;     /* node -> thread-local roots hung under it */
    uint32_t *object_site;     /* node -> trace serial in pass 2, then site; NULL when
                                * no object names a trace with frames */
    /* Classes without a CLASS DUMP get extra lf classes after the dumped ones,
     * made before the passes (which may run on several threads): */
    uint32_t extra_name[16];
    size_t extra_count;
    uint32_t mirror_class;     /* class objects when java.lang.Class was not dumped */
    uint32_t obj_array_class;  /* object arrays of an unknown class */
    uint32_t unknown_class;    /* instances of an unknown class */
    uint32_t prim_class[12];   /* primitive arrays by basic type */
} node_tables;

static inline uint32_t node_of(const node_tables *t, uint64_t id)
{
    return id ? lf_idrank_find(&t->rank, id) : LF_NODE_NONE;
}

/* --- pass 3's state --- */

typedef struct pass3_state {
    node_tables *t;
    uint64_t dangling;
    uint32_t *target;
    hprof_dangling holders;
} pass3_state;

/* --- the whole read --- */

/* What the steps of one read share; whatever is still here at the end is
 * freed (what the snapshot took was set to NULL when handed over). */
typedef struct hprof_read {
    hprof_reader r;
    node_tables t;
    pass3_state s;
    unsigned threads;
    uint64_t records_at;      /* the first record, after the header */
    uint64_t ids_met;         /* ids met in pass 1, repeats included */
    lf_snapshot *out;
    lf_error *err;
    lf_site_table sites;
    /* roots: thread_label[i] >= 0 when root i hangs under its thread */
    lf_root *roots;
    size_t root_count, root_cap;
    int64_t *thread_label;
    /* thread-local roots as edges: thread, slot in its list, label */
    uint32_t *frame_thread, *frame_label;
    uint64_t *frame_edge;
    size_t frame_count;
    /* names of static fields that hold references, by class (for the decoder) */
    uint32_t *static_start, *static_name;
    uint32_t label_class, label_super, label_loader, label_array;
    uint32_t *class_name;
    hprof_lazy *lazy;
} hprof_read;

static inline uint32_t thread_node(const hprof_reader *r, const node_tables *t, uint32_t serial)
{
    PWord_t slot;
    JLG(slot, r->thread_object, (Word_t)serial);
    return slot ? node_of(t, *slot) : LF_NODE_NONE;
}

/* A thread's name from its Thread object, at most THREAD_NAME_CHARS
 * characters of valid UTF-8 (surrogate pairs joined) into buf, which holds
 * THREAD_NAME_BYTES; returns its length, 0 when unknown. */
#define THREAD_NAME_CHARS 200
#define THREAD_NAME_BYTES (4 * THREAD_NAME_CHARS + 1)
size_t hprof_thread_name(hprof_reader *r, node_tables *t, uint64_t thread_id, char *buf,
                         size_t size);

/* The steps, in the order hprof.c takes them. */
/* hprof_scan.c */
int hprof_read_header(hprof_read *h);
int hprof_collect_pass(hprof_read *h);
int hprof_describe_classes(hprof_reader *r);
int hprof_number_objects(hprof_read *h);
/* hprof_objects.c */
int hprof_measure_pass(hprof_read *h);
int hprof_name_class_objects(hprof_read *h);
/* hprof_roots.c */
int hprof_gather_roots(hprof_read *h);
/* hprof_edges.c */
int hprof_allocate_edges(hprof_read *h);
int hprof_intern_edge_labels(hprof_read *h);
int hprof_edge_pass(hprof_read *h);
int hprof_place_thread_local_roots(hprof_read *h);
uint64_t hprof_close_edge_gaps(hprof_read *h);
void hprof_number_frame_edges(hprof_read *h);
/* hprof_snapshot.c */
int hprof_finish_classes(hprof_read *h);
int hprof_hand_over(hprof_read *h, uint64_t edge_count);
int hprof_hand_over_sites(hprof_read *h);

#endif
