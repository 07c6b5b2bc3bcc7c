/* serve_http.h - `leakfind serve`'s HTTP server: libmicrohttpd, a thread
 * per connection, every request handed to serve_handle (serve.h). */
#ifndef LF_SERVE_HTTP_H
#define LF_SERVE_HTTP_H

#include <stddef.h>

#include "serve.h"

typedef struct serve_http serve_http;

/* Listens on addr (an IPv4 address) at port (0: a free one), and sets the
 * Host headers site accepts to that address (and localhost for the
 * loopback). NULL with why filled when it cannot. */
serve_http *serve_http_start(serve_site *site, const char *addr, unsigned port, char *why, size_t why_size);
unsigned serve_http_port(const serve_http *h);
/* Stops listening and waits for the requests under way. */
void serve_http_stop(serve_http *h);

#endif
