/* serve_page.h - the one page `leakfind serve` sends: serve/serve.html.in
 * with serve/serve.css and serve/serve.js pasted in (embedded at build
 * time as the report's are), made once at start. */
#ifndef LF_SERVE_PAGE_H
#define LF_SERVE_PAGE_H

#include <stddef.h>

extern const char *serve_page;
extern size_t serve_page_len;

/* 0 or -1 (memory). */
int serve_page_make(void);
void serve_page_free(void);

#endif
