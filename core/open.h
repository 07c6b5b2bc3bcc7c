/* open.h - opens any supported input, detected from its first bytes. */
#ifndef LF_OPEN_H
#define LF_OPEN_H

#include "snapshot.h"

lf_source_format lf_detect_format(const uint8_t *head, size_t len);
const char *lf_format_name(lf_source_format f);
/* flags: LF_HPROF_* reference semantics for Java dumps. */
int lf_open(const char *path, unsigned flags, lf_snapshot *out, lf_error *err);

#endif
