/* hprof.c - the HPROF read as a list of steps, three passes over the mapped
 * file and what comes between them (each step's file holds its why):
 *
 *  1. hprof_scan.c: the header and top-level records (strings, classes,
 *     frames, traces), then the heap's roots, classes and every object's id;
 *     class layouts are resolved once all CLASS DUMPs are read (ART writes
 *     instances before their class; hprof_classes.c, hprof_vm_model.c), and
 *     node number = rank of the id (a rank bitmap resolves ids, idrank.h).
 *  2. hprof_objects.c: per node its class, shallow size and number of
 *     references, so the CSR offsets are known before any edge is written.
 *  3. hprof_edges.c: every object's edges into its CSR slot, resolving ids.
 *
 * The passes share the sub-record walk (hprof_records.c), run it on several
 * threads (hprof_parallel.c), and meet in hprof_passes.h; the roots are
 * hprof_roots.c's, and hprof_snapshot.c hands the arrays over.
 *
 * Graph semantics (DESIGN section 2): an instance references its class; a
 * class its superclass, its loader and its static fields' values; the
 * referent of a java.lang.ref.Reference is a weak edge (unless told
 * otherwise); thread-local roots (Java frame, JNI local, native stack, thread
 * block, JNI monitor) become edges from their Thread object named after the
 * frame, and only the thread itself is a root. */
#include "hprof.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "hprof_passes.h"

int lf_hprof_detect(const uint8_t *data, uint64_t size)
{
    return size >= 12 && memcmp(data, "JAVA PROFILE", 12) == 0;
}

lf_clock lf_hprof_header_clock(const uint8_t *head, uint64_t len)
{
    lf_clock none = {LF_CLOCK_NONE, 0};
    const uint8_t *nul = lf_hprof_detect(head, len) ? memchr(head, 0, len < 64 ? len : 64) : NULL;
    uint64_t at = nul ? (uint64_t)(nul - head) + 1 + 4 : len; /* past the id size */
    if (at + 8 > len)
        return none;
    uint64_t ms = 0;
    for (int i = 0; i < 8; i++) /* two big-endian u4: high, then low */
        ms = ms << 8 | head[at + i];
    return ms ? (lf_clock){LF_CLOCK_WALL_MS, ms} : none;
}

static void reader_free(hprof_reader *r)
{
    Word_t freed;
    JLFA(freed, r->string_at);
    JLFA(freed, r->class_name_sid);
    JLFA(freed, r->class_by_serial);
    JLFA(freed, r->frame_at);
    JLFA(freed, r->trace_at);
    JLFA(freed, r->thread_object);
    JLFA(freed, r->thread_trace);
    JLFA(freed, r->thread_name_sid);
    JLFA(freed, r->class_index);
    (void)freed;
    lf_strtab_free(&r->strings);
    lf_big_free(r->segment);
    lf_big_free(r->classes);
    lf_big_free(r->ref_fields);
    lf_big_free(r->roots);
    lf_idset_free(&r->ids);
    lf_big_free(r->sorted_ids);
    lf_big_free(r->class_hash_id);
    lf_big_free(r->class_hash_index);
}

int lf_hprof_parse(const uint8_t *data, uint64_t size, unsigned flags, unsigned threads,
                   lf_snapshot *out, lf_error *err)
{
    return lf_hprof_parse_reporting(data, size, flags, threads, NULL, out, err);
}

static void read_free(hprof_read *h)
{
    node_tables *t = &h->t;
    lf_idrank_free(&t->rank);
    lf_big_free(t->class_of);
    lf_big_free(t->shallow);
    lf_size_table_free(&t->shallow_big);
    if (t->big_lock_made)
        pthread_mutex_destroy(&t->big_lock);
    t->big_lock_made = 0;
    lf_edge_offsets_free(&t->edge_offset);
    lf_big_free(t->seen);
    lf_big_free(t->record_low);
    lf_big_free(t->record_high);
    free(t->class_node);
    lf_big_free(t->object_site);
    lf_site_table_free(&h->sites);
    lf_big_free(h->s.target);
    lf_big_free(h->roots);
    lf_big_free(h->thread_label);
    lf_big_free(h->frame_thread);
    lf_big_free(h->frame_edge);
    lf_big_free(h->frame_label);
    free(h->static_start);
    lf_big_free(h->static_name);
    free(h->class_name);
    free(h->lazy);
    reader_free(&h->r);
}

/* The three passes (see the top of this file) and what comes between them. */
int lf_hprof_parse_reporting(const uint8_t *data, uint64_t size, unsigned flags, unsigned threads,
                             const lf_progress *progress, lf_snapshot *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    hprof_read h;
    memset(&h, 0, sizeof h);
    h.r = (hprof_reader){.progress_to = progress, .data = data, .size = size, .flags = flags,
                         .err = err};
    h.threads = threads ? threads : 1;
    h.out = out;
    h.err = err;
    if (hprof_read_header(&h))
        return -1;
    uint64_t edge_count = 0;
    int rc = -1;
    if (hprof_collect_pass(&h) == 0 && hprof_describe_classes(&h.r) == 0 && hprof_number_objects(&h) == 0 &&
        hprof_measure_pass(&h) == 0 && hprof_name_class_objects(&h) == 0 && hprof_gather_roots(&h) == 0 &&
        hprof_allocate_edges(&h) == 0 && hprof_intern_edge_labels(&h) == 0 && hprof_edge_pass(&h) == 0 &&
        hprof_place_thread_local_roots(&h) == 0) {
        edge_count = hprof_close_edge_gaps(&h);
        hprof_number_frame_edges(&h);
        if (hprof_finish_classes(&h) == 0 && hprof_hand_over(&h, edge_count) == 0 && hprof_hand_over_sites(&h) == 0) {
            out->stats.dangling_edges = h.s.dangling;
            out->stats.warnings = h.r.warnings;
            out->clock = lf_hprof_header_clock(data, size);
            rc = 0;
        }
    }
    read_free(&h);
    if (rc)
        lf_snapshot_free(out);
    return rc;
}
