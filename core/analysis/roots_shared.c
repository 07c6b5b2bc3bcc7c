/* roots_shared.c - see roots_shared.h. */
#include "roots_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Judy.h>
#include <xxhash.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "../model/root_text.h"
#include "owner_holders.h"

/* Levels of holders looked through, as the dominators listing's root
 * column does (cmd/cli/dom_roots.c); roots told apart per row, at most. */
enum { LEVELS = 8, TEXTS_MAX = 1 << 16 };

size_t lf_root_row_text(const lf_snapshot *s, const lf_root_row *row, char *buf, size_t size)
{
    char name_buf[512];
    return lf_root_kind_name_text(lf_root_row_kind(s, row), lf_root_row_name(s, row, name_buf, sizeof name_buf), buf,
                                  size);
}

size_t lf_shared_roots_text(const lf_snapshot *s, const lf_root_row *rows, const lf_shared_roots *r, char *buf,
                            size_t size)
{
    if (!size)
        return 0;
    buf[0] = 0;
    if (r->count == 0)
        return 0;
    if (r->count == 1 && !r->partial)
        return lf_root_row_text(s, &rows[r->listed[0]], buf, size);
    size_t n = (size_t)snprintf(buf, size, "%llu%s roots: ", (unsigned long long)r->count, r->partial ? "+" : "");
    for (uint32_t i = 0; i < r->listed_count && n + 8 < size; i++) {
        if (i)
            n += (size_t)snprintf(buf + n, size - n, ", ");
        n += lf_root_row_text(s, &rows[r->listed[i]], buf + n, size - n - 6);
    }
    if ((r->count > r->listed_count || r->partial) && n + 6 < size)
        n += (size_t)snprintf(buf + n, size - n, ", ...");
    return n < size ? n : size - 1;
}

/* The rows that name an object, by object: row indices sorted by node. */
typedef struct row_index {
    uint32_t *row;
    size_t len;
} row_index;

static const lf_root_row *sorting_rows;

static int by_node(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    if (sorting_rows[a].node != sorting_rows[b].node)
        return sorting_rows[a].node < sorting_rows[b].node ? -1 : 1;
    return a < b ? -1 : a > b;
}

static int index_make(row_index *x, const lf_root_row *rows, uint64_t count)
{
    x->len = 0;
    x->row = malloc(((size_t)count + 1) * sizeof *x->row);
    if (!x->row)
        return -1;
    for (uint64_t r = 0; r < count; r++)
        if (rows[r].kind != LF_ROOT_KIND_SHARED)
            x->row[x->len++] = (uint32_t)r;
    sorting_rows = rows;
    qsort(x->row, x->len, sizeof *x->row, by_node);
    return 0;
}

/* The first position of node's rows in x (x->len when none). */
static size_t index_find(const row_index *x, const lf_root_row *rows, uint32_t node)
{
    size_t lo = 0, hi = x->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rows[x->row[mid]].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < x->len && rows[x->row[lo]].node == node ? lo : x->len;
}

/* One asked row's search: the holders to look through next, those seen. */
typedef struct search {
    uint32_t *front, *next;
    size_t front_len, front_cap, next_len, next_cap;
    Pvoid_t visited; /* Judy1: nodes */
    Pvoid_t texts;   /* Judy1: hashes of the roots' texts counted */
} search;

static void search_free(search *w)
{
    Word_t freed;
    J1FA(freed, w->visited);
    J1FA(freed, w->texts);
    (void)freed;
    lf_big_free(w->front); /* lf_vec_reserve's */
    lf_big_free(w->next);
}

/* Counts row r among out's roots, once per text. 0 or -1 (memory). */
static int add_root(const lf_snapshot *s, const lf_root_row *rows, uint32_t r, search *w, lf_shared_roots *out)
{
    char text[2600];
    size_t len = lf_root_row_text(s, &rows[r], text, sizeof text);
    int fresh;
    if (out->count >= TEXTS_MAX) {
        out->partial = 1;
        return 0;
    }
    J1S(fresh, w->texts, (Word_t)XXH3_64bits(text, len));
    if (fresh == JERR)
        return -1;
    if (fresh) {
        out->count++;
        if (out->listed_count < LF_SHARED_LISTED)
            out->listed[out->listed_count++] = r;
    }
    return 0;
}

/* Every front node of every search whose holders are not known yet, looked
 * for in one pass. 0 or -1 (memory). */
static int find_level(lf_owner_holders *h, const lf_snapshot *s, search *w, size_t n)
{
    uint32_t *ask = NULL;
    size_t len = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        for (size_t j = 0; j < w[i].front_len && !rc; j++)
            if (!lf_owner_holders_known(h, w[i].front[j])) {
                rc = lf_vec_reserve((void **)&ask, &cap, len + 1, sizeof *ask);
                if (!rc)
                    ask[len++] = w[i].front[j];
            }
    if (!rc && len)
        rc = lf_owner_holders_find(h, s, ask, len);
    lf_big_free(ask);
    return rc;
}

/* One level of search w: the holders of its front either name roots (rows
 * of their own), counted, or are looked through next. 0 or -1 (memory). */
static int step(const lf_owner_holders *h, const lf_snapshot *s, const lf_root_row *rows, const row_index *x,
                search *w, lf_shared_roots *out)
{
    w->next_len = 0;
    for (size_t j = 0; j < w->front_len; j++) {
        const uint32_t *holder;
        size_t count = lf_owner_holders_get(h, w->front[j], &holder);
        for (size_t k = 0; k < count; k++) {
            uint32_t y = holder[k];
            int fresh;
            J1S(fresh, w->visited, (Word_t)y);
            if (fresh == JERR)
                return -1;
            if (!fresh || (s->named_count && lf_snapshot_named_index(s, y) != UINT32_MAX))
                continue; /* seen; or a V8 synthetic level, no object */
            size_t at = index_find(x, rows, y);
            if (at == x->len) { /* no root of its own: its holders' */
                if (lf_vec_reserve((void **)&w->next, &w->next_cap, w->next_len + 1, sizeof *w->next))
                    return -1;
                w->next[w->next_len++] = y;
            }
            for (; at < x->len && rows[x->row[at]].node == y; at++)
                if (add_root(s, rows, x->row[at], w, out))
                    return -1;
        }
    }
    uint32_t *t = w->front;
    size_t tc = w->front_cap;
    w->front = w->next, w->front_cap = w->next_cap, w->front_len = w->next_len;
    w->next = t, w->next_cap = tc, w->next_len = 0;
    return 0;
}

static int search_all(const lf_snapshot *s, const lf_root_row *rows, const row_index *x, lf_owner_holders *h,
                      search *w, size_t n, lf_shared_roots *out)
{
    for (int level = 0; level < LEVELS; level++) {
        if (find_level(h, s, w, n))
            return -1;
        size_t left = 0;
        for (size_t i = 0; i < n; i++) {
            if (step(h, s, rows, x, &w[i], &out[i]))
                return -1;
            left += w[i].front_len;
        }
        if (!left)
            return 0;
    }
    for (size_t i = 0; i < n; i++)
        out[i].partial |= w[i].front_len > 0; /* holders past LEVELS */
    return 0;
}

int lf_roots_shared_holders(const lf_snapshot *s, const lf_root_row *rows, uint64_t count, size_t n,
                            lf_shared_roots *out, lf_error *err)
{
    memset(out, 0, n * sizeof *out);
    row_index x = {NULL, 0};
    search *w = calloc(n + 1, sizeof *w);
    lf_owner_holders h;
    if (s->source_format == LF_FORMAT_V8 && s->named_count)
        lf_owner_holders_init_levels(&h);
    else
        lf_owner_holders_init(&h); /* the rows are the snapshot's roots */
    int rc = !w || index_make(&x, rows, count) ? -1 : 0;
    for (size_t i = 0; i < n && !rc; i++) {
        if (i >= count || rows[i].kind != LF_ROOT_KIND_SHARED)
            continue;
        int fresh;
        J1S(fresh, w[i].visited, (Word_t)rows[i].node);
        rc = fresh == JERR || lf_vec_reserve((void **)&w[i].front, &w[i].front_cap, 1, sizeof *w[i].front);
        if (!rc)
            w[i].front[w[i].front_len++] = rows[i].node;
    }
    if (!rc)
        rc = search_all(s, rows, &x, &h, w, n, out);
    for (size_t i = 0; w && i < n; i++)
        search_free(&w[i]);
    free(w);
    free(x.row);
    lf_owner_holders_free(&h);
    return rc ? lf_fail_nomem(err, "the roots of several-roots rows") : 0;
}
