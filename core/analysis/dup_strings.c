/* dup_strings.c - see dup_strings.h. Each string object gets a key for its
 * text; sorted by key, runs of two or more are the duplicates. */
#include "dup_strings.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "../hprof/hprof_values.h"
#include "../v8/v8_values.h"

int lf_strings_readable(const lf_snapshot *s)
{
    return lf_hprof_lazy(s) != NULL || lf_v8_lazy(s) != NULL;
}

static int is_class(const lf_snapshot *s, uint32_t cls, const char *name)
{
    lf_str n = lf_snapshot_class_name(s, cls);
    return n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0;
}

/* The class strings are of: java.lang.String, or V8's "(string)". */
static uint32_t string_class(const lf_snapshot *s)
{
    const char *want = lf_v8_lazy(s) ? "(string)" : "java.lang.String";
    for (uint32_t c = 0; c < s->class_count; c++)
        if (is_class(s, c, want))
            return c;
    return UINT32_MAX;
}

/* A JVM String's key: a hash of its whole text, read in one buffer that
 * grows to the longest text. */
static int jvm_keys(const lf_snapshot *s, lf_string_set *set, lf_error *err)
{
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    char *buf = NULL;
    size_t cap = 0;
    uint64_t want = 256;
    for (uint64_t i = 0; i < set->count; i++) {
        lf_string_obj *o = &set->str[i];
        for (;;) {
            if (lf_vec_reserve((void **)&buf, &cap, 4 * want + 1, 1))
                return lf_fail_nomem(err, "reading strings");
            lf_jtext t = {buf, cap, 0, 0, 0};
            int is = lf_jtext_read(l, s, o->node, want, &t, err);
            if (is < 0) {
                lf_big_free(buf);
                return -1;
            }
            if (is == 1 && t.shown < t.chars) {
                want = t.chars;
                continue;
            }
            o->chars = is == 1 ? t.chars : 0;
            o->key = is == 1 ? XXH3_64bits(t.buf, t.len) : 0;
            break;
        }
    }
    lf_big_free(buf);
    return 0;
}

/* A V8 string's key: its name's string index (V8 writes each text once). */
static int v8_keys(const lf_snapshot *s, lf_string_set *set, lf_error *err)
{
    const uint64_t n = set->count;
    uint32_t *node = lf_big_malloc((n + 1) * sizeof *node), *name = lf_big_malloc((n + 1) * sizeof *name);
    uint8_t *type = lf_big_malloc(n + 1);
    int rc = node && name && type ? 0 : lf_fail_nomem(err, "reading strings");
    for (uint64_t i = 0; rc == 0 && i < n; i++)
        node[i] = set->str[i].node;
    if (rc == 0)
        rc = lf_v8_node_names(lf_v8_lazy(s), s, node, n, name, type, err);
    for (uint64_t i = 0; rc == 0 && i < n; i++) {
        lf_str text = lf_snapshot_string(s, name[i]);
        set->str[i].key = name[i];
        set->str[i].chars = text.len; /* bytes of UTF-8; the same for equal texts */
    }
    lf_big_free(node);
    lf_big_free(name);
    lf_big_free(type);
    return rc;
}

static int by_key_then_node(const void *pa, const void *pb)
{
    const lf_string_obj *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->chars != b->chars)
        return a->chars < b->chars ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

static int by_wasted(const void *pa, const void *pb)
{
    const lf_dup_group *a = pa, *b = pb;
    if (a->wasted != b->wasted)
        return a->wasted > b->wasted ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

static int by_owner_class(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* The class of the dominators of most copies [from, to). */
static void find_owner(const lf_snapshot *s, const lf_string_obj *str, uint64_t from, uint64_t to,
                       uint32_t *scratch, lf_dup_group *g)
{
    size_t n = 0;
    for (uint64_t i = from; i < to; i++) {
        uint32_t d = s->idom ? s->idom[str[i].node] : LF_NODE_NONE;
        scratch[n++] = d < s->object_count ? s->object_class[d] : UINT32_MAX;
    }
    qsort(scratch, n, sizeof *scratch, by_owner_class);
    g->owner_class = UINT32_MAX;
    g->owner_copies = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && scratch[j] == scratch[i])
            j++;
        if (j - i > g->owner_copies) { /* UINT32_MAX: held by the roots alone */
            g->owner_class = scratch[i];
            g->owner_copies = (uint32_t)(j - i);
        }
        i = j;
    }
}

static int make_groups(const lf_snapshot *s, lf_string_set *set, lf_error *err)
{
    uint32_t *scratch = lf_big_malloc((set->count + 1) * sizeof *scratch);
    size_t cap = 0;
    if (!scratch)
        return lf_fail_nomem(err, "grouping strings");
    for (uint64_t i = 0; i < set->count;) {
        uint64_t j = i + 1, bytes = 0, largest = 0;
        while (j < set->count && set->str[j].key == set->str[i].key && set->str[j].chars == set->str[i].chars)
            j++;
        if (j - i >= 2 && set->str[i].chars > 0) {
            for (uint64_t k = i; k < j; k++) {
                uint64_t r = lf_snapshot_retained(s, set->str[k].node);
                bytes += r;
                largest = r > largest ? r : largest;
            }
            if (lf_vec_reserve((void **)&set->group, &cap, set->group_count + 1, sizeof *set->group)) {
                lf_big_free(scratch);
                return lf_fail_nomem(err, "grouping strings");
            }
            lf_dup_group *g = &set->group[set->group_count++];
            *g = (lf_dup_group){(uint32_t)i, (uint32_t)(j - i), bytes, bytes - largest, UINT32_MAX, 0};
            find_owner(s, set->str, i, j, scratch, g);
        }
        i = j;
    }
    lf_big_free(scratch);
    if (set->group_count > 1) /* none: no array at all */
        qsort(set->group, set->group_count, sizeof *set->group, by_wasted);
    return 0;
}

int lf_strings_find(const lf_snapshot *s, lf_string_set *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t cls = string_class(s);
    uint64_t n = 0;
    for (uint32_t v = 0; cls != UINT32_MAX && v < s->object_count; v++)
        n += s->object_class[v] == cls && (!s->idom || s->idom[v] != LF_NODE_NONE);
    out->str = lf_big_malloc((n + 1) * sizeof *out->str);
    if (!out->str)
        return lf_fail_nomem(err, "reading strings");
    for (uint32_t v = 0; cls != UINT32_MAX && v < s->object_count; v++)
        if (s->object_class[v] == cls && (!s->idom || s->idom[v] != LF_NODE_NONE))
            out->str[out->count++] = (lf_string_obj){v, 0, 0};
    int rc = lf_v8_lazy(s) ? v8_keys(s, out, err) : jvm_keys(s, out, err);
    if (rc == 0) {
        qsort(out->str, out->count, sizeof *out->str, by_key_then_node);
        rc = make_groups(s, out, err);
    }
    if (rc)
        lf_strings_free(out);
    return rc;
}

void lf_strings_free(lf_string_set *set)
{
    lf_big_free(set->str);
    lf_big_free(set->group);
    memset(set, 0, sizeof *set);
}

size_t lf_string_text(const lf_snapshot *s, uint32_t node, uint64_t max_chars, char *buf, size_t size,
                      uint64_t *chars)
{
    *chars = 0;
    if (lf_v8_lazy(s)) {
        uint32_t name;
        uint8_t type;
        lf_error err;
        if (lf_v8_node_names(lf_v8_lazy(s), s, &node, 1, &name, &type, &err))
            return 0;
        lf_str text = lf_snapshot_string(s, name);
        size_t len = text.len < size - 1 ? text.len : size - 1;
        len = len < 4 * max_chars ? len : 4 * max_chars;
        while (len > 0 && len < text.len && ((unsigned char)text.ptr[len] & 0xc0) == 0x80)
            len--; /* not inside a character */
        memcpy(buf, text.ptr, len);
        buf[len] = '\0';
        *chars = text.len;
        return len;
    }
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    lf_jtext t = {buf, size, 0, 0, 0};
    lf_error err;
    if (!l || lf_jtext_read(l, s, node, max_chars, &t, &err) != 1)
        return 0;
    *chars = t.chars;
    return t.len;
}
