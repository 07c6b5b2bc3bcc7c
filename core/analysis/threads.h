/* threads.h - threads and their stacks, frame by frame, with what each
 * frame's locals keep alive (`leakfind threads`, issue 37; MAT's thread
 * overview).
 *
 * Where a dump keeps them:
 *  - JVM (HPROF, and .lfs files converted from one): a thread is a root of
 *    kind "thread", named by the thread's name; the reader turns each
 *    JAVA FRAME root into an edge from the thread's object labelled
 *    "frame N: Class.method (File.java:LINE)".
 *  - OCaml (the agent's snapshots): a thread's frames are roots of kind
 *    "stack" named "WHO frame N: Module.fn (file.ml:LINE)", WHO being
 *    "thread T", "domain D" or "domain D thread T".
 *  - V8 and .NET dumps keep no stacks: no threads (lf_threads_find says so
 *    with an empty set).
 * A frame's retained bytes are its locals' retained bytes, each local
 * counted once per thread (at its innermost frame); on the JVM only the
 * locals the thread alone keeps (whose immediate dominator is the thread's
 * object), so that a thread's frames add up to at most its own. */
#ifndef LF_THREADS_H
#define LF_THREADS_H

#include "../model/snapshot.h"

typedef struct lf_stack_frame {
    uint64_t from;         /* where its label is: an edge (JVM), a root (OCaml) */
    uint32_t from_root;    /* 1: from is a root */
    uint32_t number;       /* N, 0 innermost */
    uint64_t retained;     /* its locals' retained bytes (threads.h, above) */
    uint32_t first_local;  /* index into the set's locals, sorted largest retained first */
    uint32_t local_count;
} lf_stack_frame;

typedef struct lf_thread {
    uint32_t node;         /* the thread's object (JVM), LF_NODE_NONE (OCaml) */
    uint32_t name;         /* string: the root's name; OCaml: its first name_len bytes (WHO) */
    uint32_t name_len;
    uint64_t retained;     /* the thread object's retained bytes (JVM), else its frames' sum */
    uint32_t first_frame;  /* index into the set's frames, innermost first */
    uint32_t frame_count;
} lf_thread;

typedef struct lf_thread_set {
    lf_thread *thread;         /* largest retained first */
    uint32_t count;
    lf_stack_frame *frame;
    uint32_t frame_count;
    uint32_t *local;           /* nodes */
    uint32_t local_count;
} lf_thread_set;

/* The threads of an analysed snapshot. 0 (an empty set when the dump keeps
 * none), or -1 with err set (memory). */
int lf_threads_find(const lf_snapshot *s, lf_thread_set *out, lf_error *err);
void lf_threads_free(lf_thread_set *set);
/* A frame's label, "frame N: Class.method (File.java:LINE)", into buf. */
size_t lf_thread_frame_label(const lf_snapshot *s, const lf_stack_frame *f, char *buf, size_t size);

#endif
