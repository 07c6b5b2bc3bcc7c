/* suspects.h - the few findings worth a person's time (DESIGN 11): what
 * retains a large share of the heap and where that memory piles up, and,
 * over a series of snapshots, what grows with the workload.
 *
 * Size findings follow Eclipse MAT's leak suspects, with one change:
 *  - T = threshold x the reachable heap. The candidates are the top owners
 *    of the dominator tree (V8's synthetic root levels skipped, as the
 *    `dominators` view does) that retain at least T.
 *  - From a candidate, walk down while one dominator-tree child retains at
 *    least LF_SUSPECT_DESCEND of its parent: the node where that stops is
 *    the accumulation point, where memory spreads into many children. A
 *    chain of one class (a linked list) stops the walk at its head; its
 *    links are what accumulates there.
 *  - The change: a child of the accumulation point that alone retains at
 *    least T is a candidate of its own (a global object or a class loader
 *    holding several big things is not one finding); the parent stays a
 *    finding only when what is left without those children is still >= T.
 *  - V8's global object is no finding itself (lf_is_global_object): what
 *    it holds is (its accumulation point, else its big children).
 *  - The top owners that are no finding are grouped by class; a class whose
 *    top owners together retain at least T is a finding ("N instances").
 * What accumulates at the point: accumulation.h.
 *
 * Growth findings (a series): the classes trend.h flags (grow with the
 * workload under one holder, warm-up excluded), each named by its holder in
 * the last snapshot, with the holder's accumulation point and the rate.
 * They come before the size findings, of which an object that is a growth
 * finding's holder or point, or piles up at one, is left out: one leak,
 * one finding. */
#ifndef LF_SUSPECTS_H
#define LF_SUSPECTS_H

#include "../model/snapshot.h"
#include "trend.h"
#include "accumulation.h"


typedef enum lf_suspect_kind {
    LF_SUSPECT_GROWTH = 0,  /* grows with the workload (series only) */
    LF_SUSPECT_OBJECT = 1,  /* one object retains >= threshold */
    LF_SUSPECT_CLASS = 2,   /* the top owners of one class together do */
} lf_suspect_kind;


/* One class growing under a holder. */
typedef struct lf_suspect_growth {
    uint32_t name;      /* in the trend's names */
    double rate;        /* objects per unit of workload */
    double bytes_rate;  /* rate x the class's mean shallow size */
    uint64_t *counts;   /* its objects under the holder, per snapshot (owned) */
} lf_suspect_growth;

typedef struct lf_suspect {
    lf_suspect_kind kind;
    uint32_t node;      /* the object; class: its largest top owner; growth: the holder
                         * in the last snapshot (LF_NODE_NONE: the GC roots) */
    uint32_t cls;       /* class space of node; growth: the class that grows
                         * (LF_NODE_NONE when the last snapshot has none of it) */
    uint64_t instances; /* object 1; class: its top owners; growth: objects of cls
                         * under the holder in the last snapshot */
    uint64_t retained;  /* bytes; class: all its top owners together; growth: the holder's
                         * (a holder that is many objects, each held by a root of
                         * one name, as finaliser closures: all of them) */
    lf_accumulation acc;
    /* growth only: one finding per holder, for every class growing under it */
    double rate;        /* objects of `name` per unit of workload (least squares) */
    double bytes_rate;  /* the sum of each class's rate x its mean shallow size */
    int64_t gain;       /* objects of `name` under the holder, first snapshot to last */
    uint32_t name;      /* the class that leaks there (grows[0]), in the trend's names */
    int64_t holder_row; /* a growing class's row in the trend's holders */
    uint64_t *counts;   /* objects of `name` under the holder, per snapshot */
    /* each growing class: the one that leaks first (of the holder's
     * members, looking through its collection's structure, the class that
     * retains the most in the last snapshot), the others fastest (bytes)
     * first */
    lf_suspect_growth *grows;
    uint32_t grows_count;
    /* growth: the holder is held only through Gc.finalise registrations
     * (OCaml `finaliser` roots, no reference from any object) */
    uint8_t finaliser_held;
    /* growth: not worth a person's time (LF_SUSPECT_MINOR_RATE); listed
     * after every other finding, never counted in `top` */
    uint8_t minor;
    /* The shortest path from a GC root to acc.point (lf_suspect_paths):
     * path[0] is an object a root names; NULL when none was asked for or no
     * root reaches it. */
    uint32_t *path;
    uint32_t path_len;
} lf_suspect;

typedef struct lf_suspect_list {
    lf_suspect *item;
    size_t count, cap;
} lf_suspect_list;

/* What the size findings set aside in s, for the note that says none
 * was found: "the global object, the script's scope" on a V8 snapshot
 * (examine_global in suspects.c), else NULL. */
const char *lf_suspects_set_aside(const lf_snapshot *s);

/* Appends the size findings of s (analysed), largest first. threshold: a
 * share of the reachable heap, 0 < threshold <= 1. memo (may be NULL):
 * what accumulates where, kept for the next question (accumulation_memo.h). */
int lf_suspects_by_size(const lf_snapshot *s, double threshold, lf_accumulation_memo *memo, lf_suspect_list *list,
                        lf_error *err);

/* Appends the growth findings of a series whose snapshots were all added to
 * t; last is the last of them (analysed, still open). Fastest growth in
 * bytes first. */
int lf_suspects_by_growth(const lf_trend *t, const lf_snapshot *last, const double *workload,
                          const lf_trend_rule *rule, lf_accumulation_memo *memo, lf_suspect_list *list,
                          lf_error *err);

/* A growth finding is minor, a growth nobody should chase (a few
 * keep-alive streams, locale data cached once in a while beside a leak of
 * a session per request), when its class's rate would print as 0.00 per
 * unit, or when its bytes per unit are below rule->minor_share of the
 * largest growth finding's. */
#define LF_SUSPECT_MINOR_RATE 0.005

/* All of it, as `suspects` and `report` show it: t's growth findings when
 * the series has more than one snapshot (t may be NULL), then the size
 * findings, the first `top` kept (0: all), each with its path; then the
 * minor growth findings (minor set). */
int lf_suspects_find(const lf_snapshot *s, const lf_trend *t, const double *workload, const lf_trend_rule *rule,
                     double threshold, size_t top, lf_suspect_list *list, lf_error *err);

/* lf_suspects_find in two steps. The size findings need only the last
 * snapshot: `suspects` finds them on a second thread while the trend still
 * counts that snapshot, and the growth findings then ask the memo what
 * accumulates at the points the size findings examined. */
typedef struct lf_suspects_work {
    lf_suspect_list by_size;     /* the size findings, when sized */
    lf_accumulation_memo memo;
    int sized;
    struct lf_suspect_path_index *paths; /* lf_suspects_paths_step's, or NULL */
} lf_suspects_work;

/* The size findings of s into w (lf_suspects_by_size). */
int lf_suspects_size_step(const lf_snapshot *s, double threshold, lf_suspects_work *w, lf_error *err);
/* What the findings' paths will need of s, made ahead into w while a core
 * is free (the last snapshot's count): the reverse index, when some top
 * owner is no root (lf_suspect_paths). 0, or -1 when out of memory (w then
 * has none: the paths make their own). */
int lf_suspects_paths_step(const lf_snapshot *s, lf_suspects_work *w);
/* The rest of lf_suspects_find (the size findings too, unless w holds
 * them); w's findings move to list. */
int lf_suspects_finish(const lf_snapshot *s, const lf_trend *t, const double *workload, const lf_trend_rule *rule,
                       double threshold, size_t top, lf_suspects_work *w, lf_suspect_list *list, lf_error *err);
void lf_suspects_work_free(lf_suspects_work *w);

/* Fills each finding's path (one reverse index for all: made here unless
 * made ahead). ahead may be NULL. */
int lf_suspect_paths(const lf_snapshot *s, lf_suspect_list *list, lf_error *err);
int lf_suspect_paths_using(const lf_snapshot *s, lf_suspect_list *list, struct lf_suspect_path_index *ahead,
                           lf_error *err);
struct lf_suspect_path_index *lf_suspect_path_index_make(const lf_snapshot *s);
void lf_suspect_path_index_free(struct lf_suspect_path_index *x);

/* A finding's path for people: "static field A.x (java.util.ArrayList) /
 * elementData (java.lang.Object[])", cut to size; "" without a path. */
size_t lf_suspect_path_text(const lf_snapshot *s, const lf_suspect *f, char *buf, size_t size);
/* Appends one finding; 0 or -1 (memory). */
int lf_suspect_add(lf_suspect_list *list, const lf_suspect *f);
/* Keeps the first count findings. */
void lf_suspect_list_truncate(lf_suspect_list *list, size_t count);
void lf_suspect_list_free(lf_suspect_list *list);

#endif
