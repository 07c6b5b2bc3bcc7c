/* hprof_lazy.h - object ids and edge labels of a JVM dump, decoded on demand.
 *
 * A dump's labels (field names, element indices) and ids are a third of the
 * snapshot in memory and only output needs them; the dump stays mapped, so
 * they are read back from each object's sub-record when asked for. */
#ifndef LF_HPROF_LAZY_H
#define LF_HPROF_LAZY_H

#include "hprof_internal.h"
#include "../model/snapshot.h"

typedef struct hprof_lazy {
    lf_lazy_fields fields;           /* what the snapshot calls */
    const uint8_t *data;
    uint64_t size;
    unsigned id_size;
    const uint32_t *record_low;      /* node -> sub-record offset, see hprof_record_at */
    const uint8_t *record_high;
    const hprof_class *classes;
    size_t class_count;
    const hprof_ref_field *ref_fields;
    const uint64_t *class_hash_id;
    const uint32_t *class_hash_index;
    unsigned class_hash_shift;
    uint32_t class_class;
    int class_tells_instance;        /* no array's class has reference fields */
    uint32_t prim_array_class[12];
    /* Names (string indices) of every reference-typed static field, class
     * by class in dump order: static_name[static_start[k] ...]. */
    const uint32_t *static_start;    /* class_count + 1 entries */
    const uint32_t *static_name;
    uint32_t class_label, super_label, loader_label, array_label;
    /* Edges that are thread-local roots hung under their thread (the last
     * edges of the thread's list): ascending edge numbers and their labels. */
    const uint64_t *frame_edge;
    const uint32_t *frame_label;
    size_t frame_count;
} hprof_lazy;

/* Points l->fields at the decoder; call once l is filled in and placed. */
void hprof_lazy_init(hprof_lazy *l);
/* Whether f is this decoder's (f->ctx is then an hprof_lazy). */
int hprof_lazy_is(const lf_lazy_fields *f);

#endif
