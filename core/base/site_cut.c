/* site_cut.c - see site_cut.h. Sites are short: each form is built whole
 * and measured. */
#include "site_cut.h"

#include <stdlib.h>
#include <string.h>

#include "name_cut.h"
#include "text_buf.h"

#define FRAME_SEP " < "
#define ELLIPSIS "\xe2\x80\xa6"

/* One frame of a site, by byte offsets into the site's text. */
typedef struct site_frame {
    size_t at, len;           /* the whole frame */
    size_t name_len;          /* its function: before " (" (the whole frame when it has no place) */
    size_t file_at, file_len; /* the place's file, directories and all */
    size_t base_at;           /* the file's name, after its last '/' (file_at when none) */
    size_t line_at, line_len; /* ":22" */
    size_t tail_at, tail_len; /* ":18", what follows the line: a column */
    int has_place;
} site_frame;

static int is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-';
}

/* The ":line[:column...]" at the end of a place p[0..len): where it starts
 * (len when there is none) and where its second group starts (*second). */
static size_t numbers_start(const char *p, size_t len, size_t *second)
{
    size_t k = len, groups[2] = {len, len};
    unsigned n = 0;
    for (;;) {
        size_t j = k;
        while (j > 0 && is_number_char(p[j - 1]))
            j--;
        if (j == k || j == 0 || p[j - 1] != ':')
            break;
        k = j - 1;
        groups[1] = groups[0];
        groups[0] = k;
        n++;
    }
    *second = n >= 2 ? groups[1] : len;
    return k;
}

/* Frame f's place, when it ends "(file:line...)" after a space. */
static void parse_frame(const char *text, site_frame *f)
{
    const char *s = text + f->at;
    f->name_len = f->len;
    f->has_place = 0;
    if (f->len < 2 || s[f->len - 1] != ')')
        return;
    size_t open = f->len, depth = 0;
    for (size_t j = f->len; j > 0; j--) {
        depth += s[j - 1] == ')';
        if (s[j - 1] == '(' && --depth == 0) {
            open = j - 1;
            break;
        }
    }
    if (open == f->len || open < 2 || s[open - 1] != ' ')
        return;
    const char *p = s + open + 1;
    size_t plen = f->len - open - 2, second;
    size_t numbers = numbers_start(p, plen, &second);
    if (numbers == plen || numbers == 0)
        return; /* "(native)", "(anonymous)": no line to keep */
    size_t slash = numbers;
    while (slash > 0 && p[slash - 1] != '/')
        slash--;
    f->has_place = 1;
    f->name_len = open - 1;
    f->file_at = f->at + open + 1;
    f->file_len = numbers;
    f->base_at = f->file_at + slash;
    f->line_at = f->file_at + numbers;
    f->line_len = second - numbers;
    f->tail_at = f->file_at + second;
    f->tail_len = plen - second;
}

/* How much of each file a form keeps. */
enum { FILE_WHOLE, FILE_NAME, FILE_NONE };

/* The site's first `keep` frames (" < …" for the rest) into b: each file
 * as `file` says (FILE_NAME: without its directories; FILE_NONE: "…");
 * lines_only, without its columns. */
static void build(lf_text_buf *b, const char *text, const site_frame *f, size_t n, size_t keep, int file,
                  int lines_only)
{
    b->len = 0;
    for (size_t i = 0; i < keep; i++) {
        if (i > 0)
            lf_text_put(b, FRAME_SEP, strlen(FRAME_SEP));
        if (!f[i].has_place) {
            lf_text_put(b, text + f[i].at, f[i].len);
            continue;
        }
        lf_text_put(b, text + f[i].at, f[i].name_len);
        lf_text_put(b, " (", 2);
        if (file == FILE_NONE) {
            lf_text_put(b, ELLIPSIS, strlen(ELLIPSIS));
        } else if (file == FILE_NAME && f[i].base_at > f[i].file_at) {
            lf_text_put(b, ELLIPSIS "/", strlen(ELLIPSIS "/"));
            lf_text_put(b, text + f[i].base_at, f[i].file_at + f[i].file_len - f[i].base_at);
        } else {
            lf_text_put(b, text + f[i].file_at, f[i].file_len);
        }
        lf_text_put(b, text + f[i].line_at, f[i].line_len);
        if (!lines_only)
            lf_text_put(b, text + f[i].tail_at, f[i].tail_len);
        lf_text_put(b, ")", 1);
    }
    if (keep < n)
        lf_text_put(b, FRAME_SEP ELLIPSIS, strlen(FRAME_SEP ELLIPSIS));
}

/* The frames of text (len bytes) into *frames (malloc'd): their count, or
 * 0 when out of memory. */
static size_t split_frames(const char *text, size_t len, site_frame **frames)
{
    size_t n = 1, sep = strlen(FRAME_SEP);
    for (const char *p = text; (p = memmem(p, (size_t)(text + len - p), FRAME_SEP, sep)) != NULL; p += sep)
        n++;
    site_frame *f = calloc(n, sizeof *f);
    if (!(*frames = f))
        return 0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const char *next = memmem(text + at, len - at, FRAME_SEP, sep);
        size_t end = next ? (size_t)(next - text) : len;
        f[i].at = at;
        f[i].len = end - at;
        parse_frame(text, &f[i]);
        at = end + sep;
    }
    return n;
}

int lf_site_shorten(const char *text, size_t len, size_t width, char **out, size_t *out_len)
{
    site_frame *f;
    lf_text_buf b = {0};
    size_t n = split_frames(text, len, &f);
    *out = NULL;
    if (n == 0)
        return -1;
    /* the forms, least lost first: directories, then columns, then outer
     * frames, then the file of the one left (its line stays: "(…:22)") */
    int fitted = 0;
    for (int form = 0; form < 2 && !fitted; form++) {
        build(&b, text, f, n, n, FILE_NAME, form == 1);
        fitted = lf_text_width(b.p ? b.p : "", b.len) <= width;
    }
    for (size_t keep = n - 1; keep >= 1 && !fitted; keep--) {
        build(&b, text, f, n, keep, FILE_NAME, 1);
        fitted = lf_text_width(b.p ? b.p : "", b.len) <= width;
    }
    if (!fitted && f[0].has_place)
        build(&b, text, f, n, 1, FILE_NONE, 1);
    free(f);
    if (b.failed || !b.p) {
        lf_text_buf_free(&b);
        return -1;
    }
    *out = b.p;
    *out_len = b.len;
    return 0;
}
