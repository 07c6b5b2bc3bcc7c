/* dup_strings.c - see dup_strings.h. Each string object gets a key for its
 * text; sorted by key, runs of two or more are the duplicates. */
#include "dup_strings.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "../../graph/halves.h"
#include "../hprof/hprof_values.h"
#include "../v8/v8_values.h"
#include "v8_string_text.h"

int lf_strings_readable(const lf_snapshot *s)
{
    return lf_hprof_lazy(s) != NULL || lf_v8_lazy(s) != NULL || s->text_count > 0;
}

static int is_class(const lf_snapshot *s, uint32_t cls, const char *name)
{
    lf_str n = lf_snapshot_class_name(s, cls);
    return n.len == strlen(name) && memcmp(n.ptr, name, n.len) == 0;
}

/* Whether objects of class c are strings: java.lang.String, or V8's
 * "(string)" and "(concatenated string)". */
static int is_string_class(const lf_snapshot *s, uint32_t c)
{
    if (lf_v8_lazy(s))
        return lf_v8_string_kind(s, c) != 0;
    return s->text_count ? is_class(s, c, "System.String") : is_class(s, c, "java.lang.String");
}

/* A kept text's key (a .NET core's, lf_object_text): a hash of the text
 * kept, its first 1,024 characters, with its full length beside. */
static void kept_keys(const lf_snapshot *s, lf_string_set *set)
{
    for (uint64_t i = 0; i < set->count; i++) {
        const lf_object_text *t = lf_snapshot_object_text(s, set->str[i].node);
        lf_str text = t ? lf_snapshot_string(s, t->text) : (lf_str){"", 0};
        set->str[i].chars = t ? t->chars : 0;
        set->str[i].key = t ? XXH3_64bits(text.ptr, text.len) : 0;
    }
}

/* Up to max_chars characters of a kept text into buf (whole UTF-8
 * sequences only). */
static size_t kept_text(const lf_snapshot *s, uint32_t node, uint64_t max_chars, char *buf, size_t size,
                        uint64_t *chars)
{
    const lf_object_text *t = lf_snapshot_object_text(s, node);
    if (!t || size == 0)
        return 0;
    lf_str text = lf_snapshot_string(s, t->text);
    size_t len = 0;
    uint64_t shown = 0;
    while (len < text.len && shown < max_chars) {
        size_t next = len + 1;
        while (next < text.len && ((unsigned char)text.ptr[next] & 0xc0) == 0x80)
            next++;
        if (next >= size)
            break;
        len = next;
        shown++;
    }
    memcpy(buf, text.ptr, len);
    buf[len] = 0;
    *chars = t->chars;
    return len;
}

/* The keys of JVM strings [from, to): a hash of each whole text, read in
 * one buffer of this range's that grows to the longest text. 0 or -1 with
 * err set. */
static int jvm_keys_range(const lf_snapshot *s, lf_string_set *set, uint64_t from, uint64_t to, lf_error *err)
{
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    char *buf = NULL;
    size_t cap = 0;
    uint64_t want = 256;
    for (uint64_t i = from; i < to; i++) {
        lf_string_obj *o = &set->str[i];
        for (;;) {
            if (lf_vec_reserve((void **)&buf, &cap, 4 * want + 1, 1)) {
                lf_big_free(buf);
                return lf_fail_nomem(err, "reading strings");
            }
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

/* Two halves of the strings, each reading the mapped dump on its own (the
 * reads change nothing shared): on a 30M-object dump the 2.9M texts took
 * about a second of one core. */
typedef struct jvm_key_halves {
    const lf_snapshot *s;
    lf_string_set *set;
    int rc[2];
    lf_error err[2];
} jvm_key_halves;

static void jvm_keys_half(void *ctx, unsigned half)
{
    jvm_key_halves *k = ctx;
    uint64_t mid = k->set->count / 2;
    k->rc[half] = jvm_keys_range(k->s, k->set, half ? mid : 0, half ? k->set->count : mid, &k->err[half]);
}

static int jvm_keys(const lf_snapshot *s, unsigned threads, lf_string_set *set, lf_error *err)
{
    jvm_key_halves k = {s, set, {0, 0}, {{0}, {0}}};
    lf_run_halves(jvm_keys_half, &k, threads > 1 && set->count >= LF_THREADED_MIN_NODES);
    for (unsigned half = 0; half < 2; half++)
        if (k.rc[half]) {
            *err = k.err[half];
            return -1;
        }
    return 0;
}

/* A V8 string's key: a hash of its text, a concatenation's parts joined,
 * so that "ab" + "c" and "abc" are two copies of one text. */
enum { TEXT_MAX = 64 * 1024 };

/* Whether string i is a plain one ("(string)"), by its class's kind. */
static int is_plain(const lf_snapshot *s, const lf_string_set *set, const uint8_t *kind, uint64_t i)
{
    return kind[s->object_class[set->str[i].node]] == 1;
}

/* The keys of V8's plain strings, their texts read in one pass (most of a
 * heap's strings; the concatenations' parts are looked up one by one):
 * what lf_v8_string_text would give them, hashed alike. kind: each class's
 * lf_v8_string_kind. 0 or -1. */
static int v8_plain_keys(const lf_snapshot *s, lf_string_set *set, const uint8_t *kind, lf_error *err)
{
    uint64_t plain = 0;
    for (uint64_t i = 0; i < set->count; i++)
        plain += is_plain(s, set, kind, i);
    uint32_t *node = lf_big_malloc((plain + 1) * sizeof *node);
    lf_str *text = lf_big_malloc((plain + 1) * sizeof *text);
    int rc = node && text ? 0 : lf_fail_nomem(err, "reading strings");
    for (uint64_t i = 0, k = 0; rc == 0 && i < set->count; i++)
        if (is_plain(s, set, kind, i))
            node[k++] = set->str[i].node;
    rc = rc ? rc : lf_v8_plain_texts(s, node, plain, text, err);
    for (uint64_t i = 0, k = 0; rc == 0 && i < set->count; i++) {
        if (!is_plain(s, set, kind, i))
            continue;
        lf_str t = text[k++];
        set->str[i].chars = t.len;
        set->str[i].key = t.len ? XXH3_64bits(t.ptr, lf_v8_text_prefix(t, TEXT_MAX - 1)) : 0;
    }
    lf_big_free(node);
    lf_big_free(text);
    return rc;
}

static int v8_keys(const lf_snapshot *s, lf_string_set *set, lf_error *err)
{
    uint8_t *kind = malloc((size_t)s->class_count + 1);
    char *buf = lf_big_malloc(TEXT_MAX);
    if (!kind || !buf) {
        free(kind);
        lf_big_free(buf);
        return lf_fail_nomem(err, "reading strings");
    }
    for (uint32_t c = 0; c < s->class_count; c++)
        kind[c] = (uint8_t)lf_v8_string_kind(s, c);
    int rc = v8_plain_keys(s, set, kind, err);
    for (uint64_t i = 0; rc == 0 && i < set->count; i++) {
        if (is_plain(s, set, kind, i))
            continue; /* keyed above */
        uint64_t full;
        size_t len = lf_v8_string_text(s, set->str[i].node, buf, TEXT_MAX, &full);
        set->str[i].chars = full; /* bytes of UTF-8; the same for equal texts; 0: not known */
        set->str[i].key = full ? XXH3_64bits(buf, len) : 0;
    }
    free(kind);
    lf_big_free(buf);
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

/* Below this many strings one comparison sort is as quick as the buckets. */
enum { BUCKET_MIN_STRINGS = 1 << 16, BUCKET_BITS = 16 };

/* The bucket of a key: the top BUCKET_BITS of the bits that vary among the
 * keys (hashes spread over all 64; few distinct keys, or many zeros for
 * texts not known, over fewer). */
static size_t bucket_of(uint64_t key, uint64_t lowest, unsigned shift)
{
    return (size_t)((key - lowest) >> shift);
}

/* str in the order of by_key_then_node: spread in place into buckets by
 * the key's top bits (American flag sort: no second array, which for a
 * dump with 100M strings would be 2.4 GB), then each bucket, a few dozen
 * strings or one text's copies, by comparison. One comparison sort of a
 * 30M-object dump's 2.9M strings was 0.45 s. 0 or -1 (memory). */
static int sort_by_key_then_node(lf_string_obj *str, uint64_t count)
{
    if (count < BUCKET_MIN_STRINGS) {
        qsort(str, count, sizeof *str, by_key_then_node);
        return 0;
    }
    uint64_t lowest = UINT64_MAX, highest = 0;
    for (uint64_t i = 0; i < count; i++) {
        lowest = str[i].key < lowest ? str[i].key : lowest;
        highest = str[i].key > highest ? str[i].key : highest;
    }
    unsigned bits = 0;
    for (uint64_t span = highest - lowest; span; span >>= 1)
        bits++;
    const unsigned shift = bits > BUCKET_BITS ? bits - BUCKET_BITS : 0;
    const size_t buckets = (size_t)1 << BUCKET_BITS;
    uint64_t *start = calloc(buckets + 1, sizeof *start), *next = malloc(buckets * sizeof *next);
    if (!start || !next) {
        free(start);
        free(next);
        return -1;
    }
    for (uint64_t i = 0; i < count; i++)
        start[bucket_of(str[i].key, lowest, shift) + 1]++;
    for (size_t b = 0; b < buckets; b++) {
        start[b + 1] += start[b];
        next[b] = start[b];
    }
    /* each string taken from bucket b's region goes round the cycle of the
     * places it displaces until one belongs to b */
    for (size_t b = 0; b < buckets; b++)
        while (next[b] < start[b + 1]) {
            lf_string_obj x = str[next[b]];
            for (size_t d = bucket_of(x.key, lowest, shift); d != b; d = bucket_of(x.key, lowest, shift)) {
                lf_string_obj displaced = str[next[d]];
                str[next[d]++] = x;
                x = displaced;
            }
            str[next[b]++] = x;
        }
    for (size_t b = 0; b < buckets; b++)
        if (start[b + 1] - start[b] > 1)
            qsort(str + start[b], start[b + 1] - start[b], sizeof *str, by_key_then_node);
    free(start);
    free(next);
    return 0;
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

int lf_strings_find(const lf_snapshot *s, unsigned threads, lf_string_set *out, lf_error *err)
{
    memset(out, 0, sizeof *out);
    uint8_t *is_string = lf_big_calloc((size_t)s->class_count + 1, 1);
    if (!is_string)
        return lf_fail_nomem(err, "reading strings");
    for (uint32_t c = 0; c < s->class_count; c++)
        is_string[c] = (uint8_t)is_string_class(s, c);
    uint64_t n = 0;
    for (uint32_t v = 0; v < s->object_count; v++)
        n += is_string[s->object_class[v]] && (!s->idom || s->idom[v] != LF_NODE_NONE);
    out->str = lf_big_malloc((n + 1) * sizeof *out->str);
    if (!out->str) {
        lf_big_free(is_string);
        return lf_fail_nomem(err, "reading strings");
    }
    for (uint32_t v = 0; v < s->object_count; v++)
        if (is_string[s->object_class[v]] && (!s->idom || s->idom[v] != LF_NODE_NONE))
            out->str[out->count++] = (lf_string_obj){v, 0, 0};
    lf_big_free(is_string);
    int rc = 0;
    if (lf_v8_lazy(s))
        rc = v8_keys(s, out, err);
    else if (s->text_count)
        kept_keys(s, out);
    else
        rc = jvm_keys(s, threads, out, err);
    if (rc == 0) {
        rc = sort_by_key_then_node(out->str, out->count) ? lf_fail_nomem(err, "sorting strings") : 0;
        rc = rc ? rc : make_groups(s, out, err);
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

int lf_string_preview(const lf_snapshot *s, uint32_t node, uint64_t max_chars, char *buf, size_t size,
                      size_t *len, uint64_t *chars)
{
    *len = 0;
    *chars = 0;
    if (!lf_strings_readable(s) || node >= s->object_count ||
        !is_string_class(s, s->object_class[node]))
        return 0;
    *len = lf_string_text(s, node, max_chars, buf, size, chars);
    /* a concatenation whose parts are not all known has no text */
    return *len > 0 || lf_v8_lazy(s) == NULL ||
           lf_v8_string_kind(s, s->object_class[node]) == 1;
}

size_t lf_string_text(const lf_snapshot *s, uint32_t node, uint64_t max_chars, char *buf, size_t size,
                      uint64_t *chars)
{
    *chars = 0;
    if (s->text_count)
        return kept_text(s, node, max_chars, buf, size, chars);
    if (lf_v8_lazy(s)) {
        size_t cap = size < 4 * max_chars + 1 ? size : 4 * max_chars + 1;
        return lf_v8_string_text(s, node, buf, cap, chars);
    }
    const struct hprof_lazy *l = lf_hprof_lazy(s);
    lf_jtext t = {buf, size, 0, 0, 0};
    lf_error err;
    if (!l || lf_jtext_read(l, s, node, max_chars, &t, &err) != 1)
        return 0;
    *chars = t.chars;
    return t.len;
}
