/* serve_page.c - the page: the template with its style and script. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_assets.h"
#include "serve_page.h"

const char *serve_page;
size_t serve_page_len;
static char *page;

/* The template with @STYLE@ and @SCRIPT@ replaced. */
int serve_page_make(void)
{
    static const char *const marker[] = {"@STYLE@", "@SCRIPT@"};
    const unsigned char *text[] = {serve_css, serve_js};
    const size_t text_len[] = {serve_css_len, serve_js_len};
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    if (!f)
        return -1;
    const char *t = (const char *)serve_html_in, *end = t + serve_html_in_len;
    while (t < end) {
        int which = -1;
        const char *at = end;
        for (int m = 0; m < 2; m++) {
            const char *p = memmem(t, (size_t)(end - t), marker[m], strlen(marker[m]));
            if (p && p < at)
                at = p, which = m;
        }
        fwrite(t, 1, (size_t)(at - t), f);
        if (which < 0)
            break;
        fwrite(text[which], 1, text_len[which], f);
        t = at + strlen(marker[which]);
    }
    if (fclose(f)) {
        free(page);
        page = NULL;
        return -1;
    }
    serve_page = page;
    serve_page_len = len;
    return 0;
}

void serve_page_free(void)
{
    free(page);
    page = NULL;
    serve_page = NULL;
}
