/* open.h - opens any supported input, detected from its first bytes. */
#ifndef LF_OPEN_H
#define LF_OPEN_H

#include "../base/progress.h"
#include "../model/snapshot.h"

lf_source_format lf_detect_format(const uint8_t *head, size_t len);
const char *lf_format_name(lf_source_format f);
typedef struct lf_open_options {
    unsigned hprof_flags;   /* LF_HPROF_*: reference semantics for Java dumps */
    unsigned threads;       /* reader threads; 0 = 1 */
    int partial;            /* read a cut-off dump up to the cut (HPROF, V8, gzip) */
    const lf_progress *progress; /* how far the read is (bytes); NULL: nobody asks */
} lf_open_options;

/* options may be NULL (defaults). A path that is not a regular file (a pipe,
 * /dev/stdin) is read once, through a temporary copy (file.h). */
int lf_open(const char *path, const lf_open_options *options, lf_snapshot *out, lf_error *err);

/* 1 when the regular file open on fd is a Memtrace trace (gzip or not),
 * which lf_open refuses: core/memtrace reads it (lf_mt_read_fd). */
int lf_open_is_trace(int fd);

/* The same for an input already open on fd (standard input: 0); fd stays open. */
int lf_open_fd(int fd, const lf_open_options *options, lf_snapshot *out, lf_error *err);

#endif
