/* serve_assets.h - serve/serve.html.in, serve.css and serve.js, made into
 * byte arrays at build time (report/embed.sh). */
#ifndef LF_SERVE_ASSETS_H
#define LF_SERVE_ASSETS_H

#include <stddef.h>

extern const unsigned char serve_html_in[], serve_css[], serve_js[];
extern const size_t serve_html_in_len, serve_css_len, serve_js_len;

#endif
