/* serve_top.c - what holds each entry of the tree's top level, as
 * `dominators` says it, looked for once and kept: the lookups (the roots by
 * node, the holders of owners no root names) go through a dom_roots that
 * keeps state, so they run under the snapshot's lock, and under load every
 * page of the top level waited there (about 50 ms a page of 100 on the
 * 30M-object JVM dump, 0.5 ms an entry); a text found is read without it. */
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* The text of an entry held by nothing: kept, so "none" is known too. */
static const char nothing[] = "";

/* Entry i's text, or NULL when not looked for yet. */
static const char *known(const serve_snapshot *snap, uint32_t i)
{
    return __atomic_load_n(&snap->top_text[i], __ATOMIC_ACQUIRE);
}

/* Looks for the texts of [first, first + count) not known yet; under lock. */
static int look_up(serve_snapshot *snap, uint32_t first, uint32_t count)
{
    int rc = 0;
    pthread_mutex_lock(&snap->lock);
    for (uint32_t i = first; i < first + count; i++)
        if (!known(snap, i))
            dom_roots_expect(&snap->top_roots, snap->top[i]);
    for (uint32_t i = first; i < first + count && rc == 0; i++) {
        if (known(snap, i))
            continue;
        char buf[1024];
        size_t n = dom_roots_text(&snap->top_roots, snap->top[i], snap->top_via[i], buf, sizeof buf);
        const char *text = n ? strndup(buf, n) : nothing;
        if (!text)
            rc = -1;
        else
            __atomic_store_n(&snap->top_text[i], text, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&snap->lock);
    return rc;
}

int serve_top_texts(serve_snapshot *snap, uint32_t first, uint32_t count, const char **text)
{
    if (!snap->top_text)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        if (!(text[i] = known(snap, first + i))) {
            if (look_up(snap, first, count))
                return -1;
            for (uint32_t k = 0; k < count; k++)
                text[k] = known(snap, first + k);
            return 0;
        }
    return 0;
}

void serve_top_warm(serve_snapshot *snap)
{
    /* every owner expected first, so the holders' pass is made once for all;
     * then slices, so a page's request waits for one slice at most */
    pthread_mutex_lock(&snap->lock);
    for (uint32_t i = 0; i < snap->top_count; i++)
        dom_roots_expect(&snap->top_roots, snap->top[i]);
    pthread_mutex_unlock(&snap->lock);
    enum { SLICE = 256 };
    for (uint32_t first = 0; snap->top_text && first < snap->top_count; first += SLICE)
        if (look_up(snap, first, snap->top_count - first < SLICE ? snap->top_count - first : SLICE))
            return;
}

void serve_top_free(serve_snapshot *snap)
{
    for (uint32_t i = 0; snap->top_text && i < snap->top_count; i++)
        if (snap->top_text[i] != nothing)
            free((void *)snap->top_text[i]);
    free(snap->top_text);
    snap->top_text = NULL;
}
