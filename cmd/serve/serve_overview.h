/* serve_overview.h - what the overview is made from (view_overview.c). */
#ifndef LF_SERVE_OVERVIEW_H
#define LF_SERVE_OVERVIEW_H

#include "../report/report.h"
#include "serve.h"

struct lf_suspect_list;
typedef struct serve_overview_inputs {
    const report_series *series;         /* every snapshot, oldest first */
    const struct lf_suspect_list *suspects;
    const lf_trend_rule *rule;
    double threshold;
    unsigned threads;
} serve_overview_inputs;

/* The overview's JSON into site->overview; 0 or -1 with err. */
int serve_site_overview(serve_site *site, const serve_overview_inputs *in, lf_error *err);

#endif
