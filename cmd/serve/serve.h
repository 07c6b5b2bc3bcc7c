/* serve.h - `leakfind serve` (DESIGN 16, docs/SERVE.md): the analysed
 * snapshots behind HTTP on the loopback. serve_handle is the whole of what
 * a request can reach: the HTTP library (serve_http.c) hands it the method,
 * path, Host header and arguments it parsed, and sends back the reply; the
 * fuzz target drives serve_handle the same way, without sockets. */
#ifndef LF_SERVE_H
#define LF_SERVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../core/analysis/analysis.h"
#include "../../core/analysis/dup_strings.h"
#include "../../core/analysis/collections.h"
#include "../../core/model/snapshot.h"
#include "../../graph/paths.h"
#include "../cli/dom_roots.h"

/* Limits on what one request may ask: rows of a page, bytes of an argument
 * (a query text is the longest), arguments. */
enum {
    SERVE_PAGE_MAX = 1000,
    SERVE_PAGE_DEFAULT = 100,
    SERVE_ARG_MAX = 4096,
    SERVE_ARGS_MAX = 32,
    SERVE_HOSTS_MAX = 3,
    /* collections' members kept between requests (serve_members.c), per snapshot */
    SERVE_MEMBERS_KEPT = 16,
    SERVE_MEMBERS_BYTES = 256 << 20,
};

typedef struct serve_kept_members {
    uint32_t node;
    lf_collection_members members;
} serve_kept_members;

/* One dump, analysed, with what the views compute once and keep. */
typedef struct serve_snapshot {
    const char *path;
    lf_snapshot s;
    lf_class_totals totals;            /* class space */
    uint64_t *root_index;              /* node << 32 | root, ascending (path_rows.h) */
    /* the top level of the tree as `dominators` shows it: V8's synthetic
     * nodes skipped, each entry with the one it hangs under (or
     * LF_NODE_NONE), in the tree's order (node space) */
    uint32_t *top, *top_via;
    uint32_t top_count;
    dom_roots top_roots;               /* what holds a top-level entry, as `dominators` says; under lock */
    /* its text for top entry i once looked for (serve_top.c): written
     * under lock, read without it (atomic loads) */
    const char **top_text;
    /* one path search at a time (ps's work arrays are shared), under a lock
     * of its own: a tree page does not wait for a search */
    pthread_mutex_t path_lock;
    pthread_mutex_t lock;              /* guards the lazily built indexes below */
    /* held while the reverse index or the instances are built (seconds on
     * a big dump, on the warm thread at start), so that lock, which views
     * take for short work (the top level's roots), does not
     * wait for a build */
    pthread_mutex_t build_lock;
    /* who points at whom (node space), built at the first referrers or path request */
    lf_reverse rev;
    int rev_built;
    uint8_t *is_root;                  /* bitmap over nodes, with rev */
    lf_path_search ps;                 /* with rev; one search at a time, under path_lock */
    /* instances by class, largest retained first (node space), built at the
     * first instances request: class c's are instance[instance_first[c] ..
     * instance_first[c + 1]) */
    uint32_t *instance_first;          /* class_count + 1 */
    uint32_t *instance;
    /* the string objects and their duplicate groups, found at the first
     * strings request (only where the dump keeps texts) */
    lf_string_set strings;
    int strings_built;
    /* the allocation call tree (site space), built at the first sites
     * request: site v's callees are site_child[site_child_first[v] ..
     * site_child_first[v + 1]); site_total[v] counts the objects allocated
     * at v or below it (its callees, theirs...) */
    uint32_t *site_child_first;        /* site_count + 1 */
    uint32_t *site_child;
    struct serve_site_total *site_total;
    /* collections' members, added under lock, then read unlocked: never
     * changed or freed while the site runs (serve_members.c) */
    /* id << 32 | node, by id, when the ids are not in node order (V8's),
     * built at the first id asked for (serve_ids.c), under ids_lock */
    pthread_mutex_t ids_lock;
    uint64_t *id_key;
    int ids_built;
    /* kept_lock: locks of their own, held only for these, so that neither
     * waits for the long builds and searches under lock */
    pthread_mutex_t kept_lock;
    serve_kept_members kept[SERVE_MEMBERS_KEPT];
    uint32_t kept_count;
    size_t kept_bytes;
} serve_snapshot;

/* The objects allocated at a site or below it in the call tree: retained
 * counts each object not below another of them in the dominator tree, as
 * `leakfind sites` counts a site's. */
typedef struct serve_site_total {
    uint64_t count, shallow, retained;
} serve_site_total;

typedef struct serve_site {
    serve_snapshot *snap;              /* oldest first */
    uint32_t count;
    const double *workload;            /* count entries */
    char token[33];                    /* 128 bits, hex */
    char host[SERVE_HOSTS_MAX][300];   /* accepted Host headers */
    unsigned hosts;
    char *overview;                    /* the overview's JSON, made at start */
    size_t overview_len;
    pthread_mutex_t serial;            /* views that call non-reentrant code (query) */
    pthread_t warmer;                  /* builds the lazy indexes ahead of the first request */
    int warming;
    unsigned threads;                  /* --threads: for the strings' texts */
} serve_site;

typedef struct serve_arg {
    const char *key, *value;
} serve_arg;

typedef struct serve_request {
    const char *method;
    const char *path;                  /* without the query string */
    const char *host;                  /* the Host header, NULL when absent */
    const serve_arg *arg;
    size_t nargs;
    int args_dropped;                  /* more than SERVE_ARGS_MAX, or one too long */
} serve_request;

typedef struct serve_reply {
    unsigned status;
    const char *type;                  /* Content-Type */
    char *body;                        /* malloc'd unless body_static */
    size_t len;
    int body_static;
} serve_reply;

void serve_handle(serve_site *site, const serve_request *rq, serve_reply *out);
void serve_reply_free(serve_reply *r);

/* Why a view could not answer: an HTTP status (4xx the request's fault,
 * 5xx ours) and a sentence for the person who asked. */
typedef struct serve_fail {
    unsigned status;
    char message[512];
    long at;                           /* a byte offset in the argument at fault (a query's), -1: none */
} serve_fail;
int serve_failf(serve_fail *f, unsigned status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A view writes its JSON answer to out; 0, or -1 with fail set. */
typedef int (*serve_view_fn)(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);

/* Arguments (serve_args.c). Each returns 0, or -1 with a 400 in fail. */
const char *serve_arg_text(const serve_request *rq, const char *key);
/* "snap": an index into the series (default: the last, the newest). */
int serve_arg_snapshot(const serve_site *site, const serve_request *rq, const char *key, serve_snapshot **out,
                       serve_fail *fail);
/* An object id as the commands print it (0x1f, @12, 12); "root": the
 * super-root (LF_NODE_SUPER) when allow_root. A 404 when no object has it. */
int serve_arg_node(serve_snapshot *snap, const serve_request *rq, const char *key, int allow_root,
                   uint32_t *node, serve_fail *fail);
/* A count from 0 to max, def when absent. */
int serve_arg_count(const serve_request *rq, const char *key, uint64_t def, uint64_t max, uint64_t *out,
                    serve_fail *fail);
/* A page of rows: "from" (default 0) and "count" (default
 * SERVE_PAGE_DEFAULT, at most SERVE_PAGE_MAX). */
int serve_arg_page(const serve_request *rq, uint64_t *from, uint64_t *count, serve_fail *fail);
/* A class index (class space) of snap. */
int serve_arg_class(const serve_snapshot *snap, const serve_request *rq, const char *key, uint32_t *cls,
                    serve_fail *fail);

/* Builds every snapshot's lazy indexes on a thread of its own, so that the
 * first referrers, path or instances request finds them ready; a request
 * that comes first builds (or waits for) it as it would anyway.
 * serve_site_free waits for it. */
void serve_site_warm(serve_site *site);

/* Whether node is a collection whose members the children view shows
 * (lf_holds_members): 1 with *out its members, largest retained first,
 * kept for the next request when there is room, else in own (the caller
 * frees own); 0 when it is no collection; -1 (memory). */
int serve_members(serve_snapshot *snap, uint32_t node, lf_collection_members *own, const lf_collection_members **out);
void serve_members_free(serve_snapshot *snap);

/* The node of an object id, LF_NODE_NONE when none has it; a binary
 * search, on the index serve_need_ids builds when the ids are not in node
 * order (0, or -1: memory, and the search is a scan). */
uint32_t serve_find_id(serve_snapshot *snap, uint64_t id);
int serve_need_ids(serve_snapshot *snap);
void serve_ids_free(serve_snapshot *snap);

/* What holds top entries [first, first + count) (snap->top), as `dominators`
 * says it ("static field X.y", "3 roots: ...", V8's synthetic nodes above),
 * "" when nothing does, into text[0..count): looked for once each, then
 * kept. 0, or -1 (memory). */
int serve_top_texts(serve_snapshot *snap, uint32_t first, uint32_t count, const char **text);
/* All of them, a slice at a time (the warm thread): one pass over the
 * edges finds the holders of every owner no root names. */
void serve_top_warm(serve_snapshot *snap);
void serve_top_free(serve_snapshot *snap);

/* The lazily built indexes; 0, or -1 with a 500 in fail (memory). */
int serve_need_reverse(serve_snapshot *snap, serve_fail *fail);
int serve_need_instances(serve_snapshot *snap, serve_fail *fail);
/* 404 when the dump keeps no string texts or no allocation sites. */
int serve_need_strings(const serve_site *site, serve_snapshot *snap, serve_fail *fail);
int serve_need_sites(serve_snapshot *snap, serve_fail *fail);

/* JSON pieces every view writes (serve_json.c). */
void serve_json_str(FILE *f, const char *s, size_t len);
void serve_json_cstr(FILE *f, const char *s);
/* {"id":..,"node":..,"class":..,"cls":..,"shallow":..,"retained":..} of node */
void serve_json_object(FILE *f, const lf_snapshot *s, uint32_t node);
/* ,"root":"static field X.y" when a root names node, else nothing. */
void serve_json_root_of(FILE *f, const serve_snapshot *snap, uint32_t node);
/* A case-insensitive substring test: the filter box of the tables. */
int serve_matches(lf_str text, const char *filter);

/* The views. */
int serve_view_overview(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_children(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_classes(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_instances(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_object(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_referrers(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_paths(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
/* /api/paths with cls: the merged paths of a class's largest instances. */
int serve_paths_merged(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_compare(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_query(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_strings(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_threads(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);
int serve_view_sites(serve_site *site, const serve_request *rq, FILE *out, serve_fail *fail);

/* Setting up (serve_site.c): the snapshots are analysed by the caller. */
int serve_site_init(serve_site *site, serve_snapshot *snap, uint32_t count, const double *workload,
                    lf_error *err);
void serve_site_free(serve_site *site);

#endif
