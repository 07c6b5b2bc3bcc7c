/* report_json.c - JSON for a page: strings that cannot end the <script>
 * block they sit in, and the page put together from its template. */
#include <math.h>
#include <string.h>

#include "../cli/output.h"
#include "report.h"
#include "report_assets.h"

void report_json_str(FILE *f, const char *s, size_t len)
{
    out_write_json_string_html(f, s, len);
}

void report_json_label(FILE *f, lf_str label)
{
    report_json_cut(f, label, REPORT_LABEL_MAX);
}

void report_json_cut(FILE *f, lf_str label, size_t max)
{
    size_t len = label.len;
    if (len > max) {
        len = max;
        /* not inside a UTF-8 sequence: back off its continuation bytes */
        while (len > 0 && ((unsigned char)label.ptr[len] & 0xc0) == 0x80)
            len--;
    }
    report_json_str(f, label.ptr, len);
}

void report_json_real(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

void report_json_id(FILE *f, const lf_snapshot *s, uint32_t node)
{
    if (node >= s->object_count) {
        fputs("null", f);
        return;
    }
    unsigned long long id = lf_snapshot_object_id(s, node);
    if (s->flags & LF_SNAP_IDS_AT)
        fprintf(f, "\"@%llu\"", id);
    else
        fprintf(f, "\"0x%llx\"", id);
}

/* Writes template[0..len) with each marker replaced by its text. */
static void fill(FILE *f, const char *t, size_t len, const char *const *marker,
                 const char *const *text, const size_t *text_len, int markers)
{
    size_t at = 0;
    while (at < len) {
        const char *next = memchr(t + at, '@', len - at);
        size_t stop = next ? (size_t)(next - t) : len;
        fwrite(t + at, 1, stop - at, f);
        at = stop;
        if (!next)
            break;
        int m = 0;
        while (m < markers && (len - at < strlen(marker[m]) || memcmp(t + at, marker[m], strlen(marker[m]))))
            m++;
        if (m == markers) {
            putc('@', f);
            at++;
            continue;
        }
        fwrite(text[m], 1, text_len[m], f);
        at += strlen(marker[m]);
    }
}

int report_write_page(FILE *f, const char *data, size_t len)
{
    static const char *const marker[] = {"@STYLE@", "@SCRIPT@", "@DATA@"};
    const char *text[] = {(const char *)report_css, (const char *)report_js, data};
    const size_t text_len[] = {report_css_len, report_js_len, len};
    fill(f, (const char *)report_html_in, report_html_in_len, marker, text, text_len, 3);
    return ferror(f) ? -1 : 0;
}
