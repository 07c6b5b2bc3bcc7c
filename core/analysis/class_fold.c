/* class_fold.c - see class_fold.h. Rows get a key, are sorted by it, and
 * each run of equal keys is added into its first row. */
#include "class_fold.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef struct fold_key {
    uint64_t a, b;    /* equal keys fold; a name's key also compares the name */
    uint32_t row;
} fold_key;

static const lf_snapshot *key_snapshot;
static int keys_are_names;

static int cmp_key(const void *pa, const void *pb)
{
    const fold_key *x = pa, *y = pb;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    if (keys_are_names) { /* equal hashes: the names decide */
        lf_str m = lf_snapshot_class_name(key_snapshot, x->row), n = lf_snapshot_class_name(key_snapshot, y->row);
        int c = m.len != n.len ? (m.len < n.len ? -1 : 1) : memcmp(m.ptr, n.ptr, m.len);
        if (c)
            return c;
    }
    return x->row < y->row ? -1 : x->row > y->row;
}

static int same_key(const fold_key *x, const fold_key *y)
{
    if (x->a != y->a || x->b != y->b)
        return 0;
    if (!keys_are_names)
        return 1;
    lf_str m = lf_snapshot_class_name(key_snapshot, x->row), n = lf_snapshot_class_name(key_snapshot, y->row);
    return m.len == n.len && memcmp(m.ptr, n.ptr, m.len) == 0;
}

static void add_row(lf_class_totals *t, uint32_t into, uint32_t from)
{
    t->count[into] += t->count[from];
    t->shallow[into] += t->shallow[from];
    t->retained[into] += t->retained[from];
    t->unreachable_count[into] += t->unreachable_count[from];
    t->unreachable_shallow[into] += t->unreachable_shallow[from];
    t->count[from] = t->shallow[from] = t->retained[from] = 0;
    t->unreachable_count[from] = t->unreachable_shallow[from] = 0;
}

/* Sorts keys[0 .. n) and folds each run; rows not in keys stand alone. */
static void fold_runs(fold_key *keys, size_t n, lf_class_totals *t, lf_fold *f)
{
    qsort(keys, n, sizeof *keys, cmp_key);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_key(&keys[i], &keys[j]))
            j++;
        for (size_t k = i + 1; k < j; k++) { /* keys[i] has the lowest row of its run */
            add_row(t, keys[i].row, keys[k].row);
            f->members[keys[k].row] = 0;
        }
        f->members[keys[i].row] = (uint32_t)(j - i);
        i = j;
    }
}

static int fold_start(lf_fold *f, uint32_t rows, fold_key **keys, lf_error *err)
{
    f->members = malloc(((size_t)rows + 1) * sizeof *f->members);
    *keys = malloc(((size_t)rows + 1) * sizeof **keys);
    if (!f->members || !*keys) {
        free(*keys);
        lf_fold_free(f);
        return lf_fail_nomem(err, "folding classes");
    }
    for (uint32_t r = 0; r < rows; r++)
        f->members[r] = 1;
    return 0;
}

int lf_fold_same_name(const lf_snapshot *s, lf_class_totals *t, lf_fold *f, lf_error *err)
{
    fold_key *keys;
    if (fold_start(f, s->class_count, &keys, err))
        return -1;
    size_t n = 0;
    for (uint32_t c = 0; c < s->class_count; c++)
        if (t->count[c]) {
            lf_str name = lf_snapshot_class_name(s, c);
            keys[n++] = (fold_key){XXH3_64bits(name.ptr, name.len), name.len, c};
        }
    key_snapshot = s;
    keys_are_names = 1;
    fold_runs(keys, n, t, f);
    free(keys);
    return 0;
}

static const lf_loader_groups *sort_groups;

static int by_loader_node(const void *pa, const void *pb)
{
    uint32_t x = sort_groups->loader[*(const uint32_t *)pa], y = sort_groups->loader[*(const uint32_t *)pb];
    return x < y ? -1 : x > y;
}

/* The group of loader node `loader`, or UINT32_MAX. */
static uint32_t group_of(const lf_loader_groups *g, const uint32_t *by_loader, uint32_t loader)
{
    uint32_t lo = 0, hi = g->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->loader[by_loader[mid]] < loader)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->count && g->loader[by_loader[lo]] == loader ? by_loader[lo] : UINT32_MAX;
}

/* Per group, a key of the names of the classes its loader defined: their
 * hashes added (any order) and their count. */
static int class_set_keys(const lf_snapshot *s, const lf_loader_groups *g, fold_key *keys, lf_error *err)
{
    uint32_t *by_loader = malloc(((size_t)g->count + 1) * sizeof *by_loader);
    if (!by_loader)
        return lf_fail_nomem(err, "folding loaders");
    for (uint32_t i = 0; i < g->count; i++) {
        keys[i] = (fold_key){0, 0, i};
        by_loader[i] = i;
    }
    sort_groups = g;
    qsort(by_loader, g->count, sizeof *by_loader, by_loader_node);
    for (uint32_t c = 0; c < s->class_count; c++) {
        uint32_t i = group_of(g, by_loader, s->class_loader[c]);
        if (i == UINT32_MAX)
            continue;
        lf_str name = lf_snapshot_class_name(s, c);
        keys[i].a += XXH3_64bits(name.ptr, name.len);
        keys[i].b++;
    }
    free(by_loader);
    return 0;
}

int lf_fold_same_classes(const lf_snapshot *s, const lf_loader_groups *g, lf_class_totals *t, lf_fold *f,
                         lf_error *err)
{
    fold_key *keys;
    if (fold_start(f, g->count, &keys, err))
        return -1;
    if (class_set_keys(s, g, keys, err)) {
        free(keys);
        lf_fold_free(f);
        return -1;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < g->count; i++) {
        if (g->loader[i] == LF_NODE_NONE)
            continue; /* the bootstrap loader stands alone */
        fold_key k = keys[i];
        /* the loader's own class joins the key: 500 URLClassLoaders, not
         * every loader defining one Plugin */
        k.b |= (uint64_t)s->object_class[g->loader[i]] << 32;
        keys[n++] = k;
    }
    key_snapshot = s;
    keys_are_names = 0;
    fold_runs(keys, n, t, f);
    free(keys);
    return 0;
}

void lf_fold_free(lf_fold *f)
{
    free(f->members);
    f->members = NULL;
}
