/* site_cut.h - an allocation site shortened for a narrow column (name_cut.h,
 * LF_CUT_SITE). A site is frames joined by " < ", innermost first, each
 * "function (place)" with a place "file:line[:column]" (V8's
 * "makeLeak (/tmp/app/alloc_sites.js:26:18)", OCaml's "Requests.Session.open_
 * (requests.ml:22)"); a frame with no place is its function alone (.NET's).
 * What a reader needs to find the code goes last: a file's directories
 * first (…/alloc_sites.js), then the column numbers, then the outer frames
 * (" < …"), then the file of the innermost ("(…:22)"); the function and
 * its line stay longest. */
#ifndef LF_SITE_CUT_H
#define LF_SITE_CUT_H

#include <stddef.h>

/* text (len bytes) in the first of those forms no wider than width
 * columns, else the shortest, into *out (terminated, *out_len its bytes;
 * bigmem's: lf_big_free): the caller cuts its end when it is still too
 * wide. 0, or -1 when out of memory (*out NULL). */
int lf_site_shorten(const char *text, size_t len, size_t width, char **out, size_t *out_len);

#endif
