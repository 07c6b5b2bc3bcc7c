/* nettrace_table.c - the trace's types, stacks, sites and methods, interned
 * so that what is kept grows with what is distinct, not with the events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_internal.h"

/* MurmurHash3's finaliser: every bit of h reaches the low bits the tables use */
static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return mix(h);
}

static int grow(void **p, uint32_t *cap, size_t each)
{
    if (*cap >= UINT32_MAX / 2)
        return -1;
    uint32_t n = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, (size_t)n * each);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* A table of index + 1 (0 = empty), twice as big as its entries at least. */
typedef uint64_t (*nt_hash_of)(const lf_nettrace *t, uint32_t index);

static int rehash(const lf_nettrace *t, uint32_t **slot, uint32_t *mask, uint32_t count,
                  nt_hash_of hash)
{
    uint32_t size = *mask ? (*mask + 1) * 2 : 256;
    uint32_t *s = calloc(size, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t h = (uint32_t)hash(t, i) & (size - 1);
        while (s[h])
            h = (h + 1) & (size - 1);
        s[h] = i + 1;
    }
    free(*slot);
    *slot = s;
    *mask = size - 1;
    return 0;
}

static uint64_t type_hash(const lf_nettrace *t, uint32_t i)
{
    const char *n = t->names + t->type_name[i];
    return hash_bytes(n, strlen(n));
}

static uint64_t stack_hash(const lf_nettrace *t, uint32_t i)
{
    uint64_t len = t->stack_start[i + 1] - t->stack_start[i];
    return len ? hash_bytes(t->ip + t->stack_start[i], len * 8) : mix(0); /* stack 0: no IPs yet */
}

static uint64_t site_hash(const lf_nettrace *t, uint32_t i)
{
    return mix((uint64_t)t->site[i].type << 32 | t->site[i].stack);
}

int nt_tables_init(lf_nettrace *t)
{
    /* stack 0: the empty one, for events without a stack */
    if (grow((void **)&t->stack_start, &t->stack_cap, sizeof *t->stack_start))
        return -1;
    t->stack_start[0] = 0;
    t->stack_start[1] = 0;
    t->stack_count = 1;
    return rehash(t, &t->stack_slot, &t->stack_mask, 1, stack_hash);
}

int64_t nt_intern_type(lf_nettrace *t, uint32_t name)
{
    const char *n = t->names + name;
    if ((uint64_t)t->type_count * 2 >= t->type_mask &&
        rehash(t, &t->type_slot, &t->type_mask, t->type_count, type_hash))
        return -1;
    uint32_t h = (uint32_t)hash_bytes(n, strlen(n)) & t->type_mask;
    for (; t->type_slot[h]; h = (h + 1) & t->type_mask)
        if (!strcmp(t->names + t->type_name[t->type_slot[h] - 1], n)) {
            t->names_len = name; /* the copy just read is not needed */
            return t->type_slot[h] - 1;
        }
    if (t->type_count == t->type_cap && grow((void **)&t->type_name, &t->type_cap, sizeof *t->type_name))
        return -1;
    t->type_name[t->type_count] = name;
    t->type_slot[h] = t->type_count + 1;
    return t->type_count++;
}

int64_t nt_intern_stack(lf_nettrace *t, const uint8_t *ips, uint32_t count)
{
    if (!count)
        return 0;
    if ((uint64_t)t->stack_count * 2 >= t->stack_mask &&
        rehash(t, &t->stack_slot, &t->stack_mask, t->stack_count, stack_hash))
        return -1;
    /* the IPs are appended first (8 bytes each whatever the pointer size),
     * then taken back when the stack was known */
    if (t->ip_count + count > t->ip_cap) {
        uint64_t cap = t->ip_cap ? t->ip_cap : 1024;
        while (cap < t->ip_count + count)
            cap *= 2;
        uint64_t *p = realloc(t->ip, cap * sizeof *p);
        if (!p)
            return -1;
        t->ip = p;
        t->ip_cap = cap;
    }
    uint64_t *dst = t->ip + t->ip_count;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t v = 0;
        for (unsigned b = t->pointer_size; b-- > 0;)
            v = v << 8 | ips[(size_t)i * t->pointer_size + b];
        dst[i] = v;
    }
    uint32_t h = (uint32_t)hash_bytes(dst, (size_t)count * 8) & t->stack_mask;
    for (; t->stack_slot[h]; h = (h + 1) & t->stack_mask) {
        uint32_t k = t->stack_slot[h] - 1;
        uint64_t len = t->stack_start[k + 1] - t->stack_start[k];
        if (len == count && !memcmp(t->ip + t->stack_start[k], dst, (size_t)count * 8))
            return k;
    }
    if (t->stack_count + 1 >= t->stack_cap &&
        grow((void **)&t->stack_start, &t->stack_cap, sizeof *t->stack_start))
        return -1;
    t->ip_count += count;
    t->stack_start[t->stack_count + 1] = t->ip_count;
    t->stack_slot[h] = t->stack_count + 1;
    return t->stack_count++;
}

int nt_add_tick(lf_nettrace *t, uint32_t type, uint32_t stack, uint64_t bytes)
{
    if ((uint64_t)t->site_count * 2 >= t->site_mask &&
        rehash(t, &t->site_slot, &t->site_mask, t->site_count, site_hash))
        return -1;
    uint32_t h = (uint32_t)mix((uint64_t)type << 32 | stack) & t->site_mask;
    for (; t->site_slot[h]; h = (h + 1) & t->site_mask) {
        lf_nettrace_site *s = &t->site[t->site_slot[h] - 1];
        if (s->type == type && s->stack == stack) {
            s->ticks++;
            s->bytes += bytes;
            return 0;
        }
    }
    if (t->site_count == t->site_cap && grow((void **)&t->site, &t->site_cap, sizeof *t->site))
        return -1;
    t->site[t->site_count] = (lf_nettrace_site){type, stack, 1, bytes};
    t->site_slot[h] = t->site_count + 1;
    t->site_count++;
    return 0;
}

int nt_add_method(lf_nettrace *t, uint64_t start, uint64_t size, uint32_t name)
{
    if (t->method_count == t->method_cap && grow((void **)&t->method, &t->method_cap, sizeof *t->method))
        return -1;
    t->method[t->method_count++] = (lf_nettrace_method){start, size, name};
    return 0;
}

static int by_start(const void *pa, const void *pb)
{
    const lf_nettrace_method *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    return a->name < b->name ? -1 : a->name > b->name;
}

void nt_methods_sort(lf_nettrace *t)
{
    if (t->method_count)
        qsort(t->method, t->method_count, sizeof *t->method, by_start);
}

/* The method whose code holds ip: the last starting at or before it. */
static const lf_nettrace_method *method_at(const lf_nettrace *t, uint64_t ip)
{
    uint32_t lo = 0, hi = t->method_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->method[mid].start <= ip)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* a method listed twice (its load and its rundown) is one range; look
     * back past ranges that end before ip */
    for (uint32_t k = lo; k-- > 0 && lo - k <= 4;)
        if (ip - t->method[k].start < t->method[k].size)
            return &t->method[k];
    return NULL;
}

static size_t put(char *buf, size_t size, size_t at, const char *s)
{
    size_t n = strlen(s);
    if (at < size) {
        size_t room = size - at - 1;
        memcpy(buf + at, s, n < room ? n : room);
        buf[at + (n < room ? n : room)] = 0;
    }
    return at + n;
}

size_t lf_nettrace_frame_label(const lf_nettrace *t, uint64_t ip, char *buf, size_t size)
{
    const lf_nettrace_method *m = method_at(t, ip);
    if (m)
        return put(buf, size, 0, t->names + m->name);
    char hex[24];
    snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)ip);
    return put(buf, size, 0, hex);
}

size_t lf_nettrace_stack_label(const lf_nettrace *t, uint32_t stack, uint32_t depth, char *buf,
                               size_t size)
{
    if (size)
        buf[0] = 0;
    if (stack == 0 || stack >= t->stack_count)
        return put(buf, size, 0, "(no stack)");
    uint64_t first = t->stack_start[stack], n = t->stack_start[stack + 1] - first;
    if (depth && depth < n)
        n = depth;
    size_t at = 0;
    char frame[1024];
    for (uint64_t i = 0; i < n; i++) {
        if (i)
            at = put(buf, size, at, " < ");
        lf_nettrace_frame_label(t, t->ip[first + i], frame, sizeof frame);
        at = put(buf, size, at, frame);
    }
    return at;
}
