/* report_assets.h - report/report.html.in, report.css and report.js, made
 * into byte arrays at build time (report/embed.sh). */
#ifndef LF_REPORT_ASSETS_H
#define LF_REPORT_ASSETS_H

#include <stddef.h>

extern const unsigned char report_html_in[], report_css[], report_js[];
extern const size_t report_html_in_len, report_css_len, report_js_len;

#endif
