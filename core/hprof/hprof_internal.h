/* hprof_internal.h - the HPROF reader's state, shared by its files:
 * hprof.c and the files of its passes (hprof_passes.h), hprof_classes.c (class
 * layouts, shallow sizes, reference semantics), hprof_names.c (names of
 * classes, threads and frames). */
#ifndef LF_HPROF_INTERNAL_H
#define LF_HPROF_INTERNAL_H

#include <Judy.h>
#include <stdint.h>

#include "../base/error.h"
#include "hprof_format.h"
#include "../model/idrank.h"
#include "../model/idset.h"
#include "../base/progress.h"
#include "../model/site_table.h"
#include "../model/strtab.h"

#define HPROF_NONE 0xffffffffu

/* A bounds-checked view of the file: every read says what it was reading so a
 * short file gives "truncated INSTANCE DUMP at offset N: need 8 bytes, 3 left". */
typedef struct hprof_cursor {
    const uint8_t *data;
    uint64_t pos, end;
} hprof_cursor;

typedef struct hprof_ref_field {
    uint32_t offset;      /* in the instance's field bytes */
    uint32_t name;        /* lf string index */
    uint8_t weak;         /* Reference.referent under the chosen semantics */
} hprof_ref_field;

typedef struct hprof_class {
    uint64_t id, super_id, loader_id;
    uint64_t record_at;          /* offset of the CLASS DUMP sub-record */
    uint64_t statics_at;         /* offset of its static-field count */
    uint64_t fields_at;          /* offset of its instance-field count */
    uint32_t instance_size;      /* as written (HotSpot: field bytes; ART: object size) */
    uint32_t name;               /* lf string index, Java source form */
    uint32_t super_index;        /* class index of the superclass, or HPROF_NONE */
    uint32_t array_class;        /* class index of this class's array class, or HPROF_NONE */
    /* Over the whole superclass chain, computed once every class is read: */
    uint32_t ref_start, ref_count;   /* into hprof_reader.ref_fields */
    uint32_t data_size;          /* bytes of instance field data */
    uint32_t prim_bytes;         /* bytes of primitive fields */
    uint64_t shallow;            /* an instance's size in the VM */
    uint8_t resolved;
} hprof_class;

typedef struct hprof_root {
    uint64_t id;
    uint32_t thread_serial, frame;
    uint8_t tag;
} hprof_root;

typedef struct hprof_reader {
    const uint8_t *data;
    uint64_t size;
    unsigned id_size;
    unsigned version_minor;      /* 1, 2 or 3 */
    unsigned flags;              /* LF_HPROF_* */
    lf_error *err;

    lf_strtab strings;           /* names as leakfind shows them */
    Pvoid_t string_at;           /* HPROF string id -> offset of its bytes (JudyL) */
    Pvoid_t class_name_sid;      /* class object id -> name string id (LOAD CLASS) */
    Pvoid_t class_by_serial;     /* class serial -> class object id */
    Pvoid_t frame_at;            /* frame id -> offset of the STACK FRAME body */
    Pvoid_t trace_at;            /* trace serial -> offset of the STACK TRACE body */
    Pvoid_t thread_object;       /* thread serial -> thread object id (ROOT THREAD OBJECT) */
    Pvoid_t thread_trace;        /* thread serial -> stack trace serial */
    Pvoid_t thread_name_sid;     /* thread serial -> name string id (START THREAD) */
    Pvoid_t class_index;         /* class object id -> index in classes + 1 */
    /* the same, as an open-addressing table for the per-object lookups */
    uint64_t *class_hash_id;
    uint32_t *class_hash_index;
    unsigned class_hash_shift;

    uint64_t *segment;           /* (start, end) pairs of heap dump bodies */
    size_t segment_count, segment_cap;
    hprof_class *classes;
    size_t class_count, class_cap;
    hprof_ref_field *ref_fields;
    size_t ref_field_count, ref_field_cap;
    hprof_root *roots;
    size_t root_count, root_cap;
    lf_idset ids;                /* pass 1: every object id */
    size_t id_count;             /* then: unique ids, the node count */
    uint64_t *sorted_ids;        /* the ids, when the rank index searches them */

    /* VM model, detected from the dump */
    unsigned ref_size, header_size, array_header_size, alignment;
    /* class indices of well-known classes, HPROF_NONE when absent */
    uint32_t class_class, reference_class, soft_reference_class;
    uint32_t prim_array_class[12]; /* by basic type: the class of "byte[]" ... */
    const lf_progress *progress_to; /* who hears of the passes; NULL: nobody */
    lf_progress_counter *progress; /* heap bytes walked in this pass; shared by the threads */
    uint64_t warnings;
    /* Allocation sites (hprof_sites.c): the last object's trace serial, known
     * to name a trace; whether some object names a trace with frames. */
    uint32_t trace_serial_seen;
    uint8_t has_alloc_traces;
    /* Some array's class has reference fields of its own (never in a
     * JVM's dump): a node's class then does not tell an instance, and the
     * lazy decoder reads every record (hprof_lazy.c, labels_from_class). */
    uint8_t array_class_has_fields;
    /* LF_HPROF_PARTIAL: where the analysed part of a cut-off dump ends, and
     * how many bytes the record cut there still declared (0: not known). */
    uint64_t cut_at, cut_missing;
} hprof_reader;

/* Class lookups happen for every object: a Judy lookup each cost 10% of a
 * read, so a small multiplicative-hash table answers them. */
static inline uint32_t hprof_class_hash_find(const uint64_t *hash_id, const uint32_t *hash_index,
                                             unsigned shift, uint64_t class_id)
{
    const uint64_t mask = (~0ull) >> shift;
    for (uint64_t slot = (class_id * 0x9e3779b97f4a7c15ull) >> shift; hash_id[slot];
         slot = (slot + 1) & mask)
        if (hash_id[slot] == class_id)
            return hash_index[slot];
    return HPROF_NONE;
}

/* A node's sub-record offset in 40 bits (5 bytes a node instead of 8): the
 * reader refuses dumps of 1 TiB and more. */
#define HPROF_MAX_FILE_SIZE (1ull << 40)
static inline uint64_t hprof_record_at(const uint32_t *low, const uint8_t *high, uint32_t node)
{
    return high ? (uint64_t)high[node] << 32 | low[node] : low[node]; /* high: NULL under 4 GiB */
}

static inline uint32_t hprof_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* hprof_records.c */
int hprof_need(hprof_reader *r, hprof_cursor *c, uint64_t n, const char *what);
uint64_t hprof_id(hprof_cursor *c, unsigned id_size);
/* Inline: the passes read every object's counts with them (hprof_id stays a
 * call, as it was when the passes were one file). */
static inline uint32_t hprof_u4(hprof_cursor *c)
{
    const uint8_t *p = c->data + c->pos;
    c->pos += 4;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t hprof_u2(hprof_cursor *c)
{
    const uint8_t *p = c->data + c->pos;
    c->pos += 2;
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint8_t hprof_u1(hprof_cursor *c)
{
    return c->data[c->pos++];
}

/* hprof_classes.c */
int hprof_resolve_classes(hprof_reader *r);
/* Links each class to its array class (the VM's element -> array klass link,
 * which the dump leaves out), so an array class is owned with its element class. */
int hprof_link_array_classes(hprof_reader *r);
/* Shallow size of every class's instances under the current VM model. */
void hprof_class_sizes(hprof_reader *r);
uint64_t hprof_array_shallow(const hprof_reader *r, uint64_t length, unsigned elem_size);
/* Shallow size of a class object (its mirror): Class instance plus statics. */
uint64_t hprof_mirror_shallow(const hprof_reader *r, const hprof_class *k);

/* hprof_names.c */
/* Interns the Java source form of a JVM class name ("java/util/HashMap$Node",
 * "[Ljava/lang/Object;", "[[I"); returns the string index or -1 (memory). */
int64_t hprof_intern_class_name(hprof_reader *r, const uint8_t *name, size_t len);
/* The bytes of HPROF string sid, or NULL. */
const uint8_t *hprof_string(const hprof_reader *r, uint64_t sid, uint32_t *len);
int64_t hprof_intern_sid(hprof_reader *r, uint64_t sid);
/* "frame 3: com.acme.Server.handle (Server.java:42)" for a thread's frame. */
int64_t hprof_frame_label(hprof_reader *r, uint32_t thread_serial, uint32_t frame, const char *prefix);
const char *hprof_root_kind_name(uint8_t tag);

/* hprof_sites.c */
/* cold: called only when the serial changes */
__attribute__((cold)) void hprof_note_trace_serial(hprof_reader *r, uint32_t serial);
/* Pass 1 sees every object's stack trace serial. Dumps repeat one serial
 * (HotSpot: the dummy trace for every object), so only a change costs a
 * lookup. */
static inline void hprof_see_trace_serial(hprof_reader *r, uint32_t serial)
{
    if (serial != r->trace_serial_seen)
        hprof_note_trace_serial(r, serial);
}
/* Turns object_site[0..n) from trace serials (pass 2) into sites of table;
 * the number of objects with a site, or -1 (memory, in r->err). */
int64_t hprof_object_sites(hprof_reader *r, uint32_t *object_site, uint32_t n, lf_site_table *table);

/* hprof_dangling.c: who holds the references to ids with no record. HotSpot
 * always writes some: elements of an object array a JNI global holds (the
 * VM's own array of archived objects, whose elements are not dumped). */
#define HPROF_DANGLING_ARRAYS 8
typedef struct hprof_dangling {
    uint64_t holders;                       /* objects with dangling references */
    uint32_t top;                           /* node holding the most; LF_NODE_NONE: none */
    uint64_t top_count;
    uint32_t array[HPROF_DANGLING_ARRAYS];  /* object arrays among the holders */
    uint64_t array_count[HPROF_DANGLING_ARRAYS];
    unsigned arrays;
    int arrays_overflow;                    /* more arrays than listed */
} hprof_dangling;
void hprof_dangling_init(hprof_dangling *d);
/* node (a record of this tag) has count dangling references. */
void hprof_dangling_note(hprof_dangling *d, uint32_t node, uint8_t tag, uint64_t count);
void hprof_dangling_merge(hprof_dangling *into, const hprof_dangling *from);
/* Into stats: the holders, the top one, and how many references come from
 * arrays that a JNI global names (jni_global[0..n): their nodes). */
void hprof_dangling_stats(const hprof_dangling *d, const uint32_t *jni_global, size_t n,
                          struct lf_snapshot_stats *stats);

#endif
