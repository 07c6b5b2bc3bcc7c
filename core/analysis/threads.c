/* threads.c - threads, their frames and the locals each frame holds
 * (threads.h). Every local is first gathered as one entry, then the entries
 * are sorted twice: by thread and node (to count a local once per thread),
 * then by thread rank, frame and retained bytes (the listing's order). */
#include "threads.h"

#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"

typedef struct local_entry {
    uint32_t thread;   /* index into the threads found */
    uint32_t number;   /* the frame's N */
    uint64_t from;     /* the frame's label: edge or root */
    uint32_t node;
    uint32_t counted;  /* 1 at the local's innermost frame in its thread */
    uint64_t retained;
} local_entry;

typedef struct gather {
    const lf_snapshot *s;
    lf_thread *thread;
    size_t thread_count, thread_cap;
    local_entry *entry;
    size_t entry_count, entry_cap;
} gather;

static int is_string(const lf_snapshot *s, uint32_t index, const char *text)
{
    lf_str v = lf_snapshot_string(s, index);
    return v.len == strlen(text) && memcmp(v.ptr, text, v.len) == 0;
}

/* Where "frame N: ..." starts in an OCaml stack root's name "WHO frame
 * N: ...", or NULL. */
static const char *frame_in_name(lf_str name)
{
    for (size_t i = 0; i + 7 <= name.len; i++)
        if (memcmp(name.ptr + i, " frame ", 7) == 0)
            return name.ptr + i + 1;
    return NULL;
}

/* "frame N: ..." at text: N, or -1. */
static long frame_number(const char *text, size_t len)
{
    if (len < 8 || memcmp(text, "frame ", 6) != 0)
        return -1;
    long n = 0;
    size_t i = 6;
    for (; i < len && text[i] >= '0' && text[i] <= '9' && n < 100000000; i++)
        n = n * 10 + (text[i] - '0');
    return i > 6 && i < len && text[i] == ':' ? n : -1;
}

static int add_thread(gather *g, lf_thread t)
{
    if (lf_vec_reserve((void **)&g->thread, &g->thread_cap, g->thread_count + 1, sizeof *g->thread))
        return -1;
    g->thread[g->thread_count++] = t;
    return 0;
}

static int add_local(gather *g, uint32_t thread, long number, uint64_t from, uint32_t node)
{
    if (lf_vec_reserve((void **)&g->entry, &g->entry_cap, g->entry_count + 1, sizeof *g->entry))
        return -1;
    g->entry[g->entry_count++] = (local_entry){thread, (uint32_t)number, from, node, 0,
                                               lf_snapshot_retained(g->s, node)};
    return 0;
}

/* JVM: a "thread" root's object and its "frame N: ..." edges. */
static int jvm_thread(gather *g, const lf_root *r)
{
    const lf_snapshot *s = g->s;
    uint32_t t = (uint32_t)g->thread_count;
    lf_str name = lf_snapshot_string(s, r->name);
    for (uint32_t i = 0; i < g->thread_count; i++)
        if (g->thread[i].node == r->node)
            return 0; /* one object, several roots */
    if (add_thread(g, (lf_thread){r->node, r->name, (uint32_t)name.len, lf_snapshot_retained(s, r->node), 0, 0}))
        return -1;
    for (uint64_t e = lf_snapshot_edges_begin(s, r->node); e < lf_snapshot_edges_end(s, r->node); e++) {
        uint32_t to = s->edge_target[e];
        if (to & LF_EDGE_WEAK)
            continue;
        char label[64];
        size_t len = lf_snapshot_edge_label(s, e, label, sizeof label);
        long n = frame_number(label, len < sizeof label ? len : sizeof label - 1);
        if (n >= 0 && add_local(g, t, n, e, to))
            return -1;
    }
    return 0;
}

/* OCaml: a "stack" root named "WHO frame N: ...", its thread WHO. */
static int ocaml_frame_root(gather *g, uint32_t root)
{
    const lf_snapshot *s = g->s;
    const lf_root *r = &s->root[root];
    lf_str name = lf_snapshot_string(s, r->name);
    const char *at = frame_in_name(name);
    long n = at ? frame_number(at, name.len - (size_t)(at - name.ptr)) : -1;
    if (n < 0)
        return 0; /* a fiber's handler, no frame */
    uint32_t who = (uint32_t)(at - 1 - name.ptr), t = 0;
    for (; t < g->thread_count; t++) {
        lf_str other = lf_snapshot_string(s, g->thread[t].name);
        if (g->thread[t].name_len == who && memcmp(other.ptr, name.ptr, who) == 0)
            break;
    }
    if (t == g->thread_count && add_thread(g, (lf_thread){LF_NODE_NONE, r->name, who, 0, 0, 0}))
        return -1;
    return add_local(g, t, n, root, r->node);
}

static int by_thread_node(const void *pa, const void *pb)
{
    const local_entry *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    return (a->number > b->number) - (a->number < b->number);
}

/* entries whose thread is already its rank */
static int by_listing(const void *pa, const void *pb)
{
    const local_entry *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->number != b->number)
        return a->number < b->number ? -1 : 1;
    if (a->retained != b->retained)
        return a->retained > b->retained ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

static int by_retained(const void *pa, const void *pb)
{
    const lf_thread *a = pa, *b = pb;
    if (a->retained != b->retained)
        return a->retained > b->retained ? -1 : 1;
    return (a->name > b->name) - (a->name < b->name);
}

/* Which locals count in their frame's bytes: each once per thread, at its
 * innermost frame; on the JVM only those the thread alone keeps (its
 * object their immediate dominator: not the thread itself, `this` of its
 * run(), nor what other roots hold too). An OCaml thread's bytes are its
 * frames'. */
static void count_locals(gather *g)
{
    const lf_snapshot *s = g->s;
    if (g->entry_count > 1) /* qsort takes no NULL, even for nothing */
        qsort(g->entry, g->entry_count, sizeof *g->entry, by_thread_node);
    for (size_t i = 0; i < g->entry_count; i++) {
        local_entry *e = &g->entry[i];
        uint32_t owner = g->thread[e->thread].node;
        e->counted = i == 0 || e->thread != e[-1].thread || e->node != e[-1].node;
        if (owner != LF_NODE_NONE)
            e->counted = e->counted && s->idom && s->idom[e->node] == owner;
        else if (e->counted)
            g->thread[e->thread].retained += e->retained;
    }
}

/* The threads largest first, the entries in listing order, then frames. */
static int build(gather *g, lf_thread_set *out, lf_error *err)
{
    uint32_t *rank_of = malloc((g->thread_count + 1) * sizeof *rank_of);
    if (!rank_of)
        return lf_fail_nomem(err, "listing threads");
    for (uint32_t i = 0; i < g->thread_count; i++)
        g->thread[i].first_frame = i; /* the old index, through the sort */
    if (g->thread_count > 1)
        qsort(g->thread, g->thread_count, sizeof *g->thread, by_retained);
    for (uint32_t i = 0; i < g->thread_count; i++)
        rank_of[g->thread[i].first_frame] = i;
    for (size_t i = 0; i < g->entry_count; i++)
        g->entry[i].thread = rank_of[g->entry[i].thread];
    free(rank_of);
    if (g->entry_count > 1)
        qsort(g->entry, g->entry_count, sizeof *g->entry, by_listing);
    out->frame = calloc(g->entry_count + 1, sizeof *out->frame);
    out->local = malloc((g->entry_count + 1) * sizeof *out->local);
    if (!out->frame || !out->local)
        return lf_fail_nomem(err, "listing threads");
    for (uint32_t i = 0; i < g->thread_count; i++)
        g->thread[i].first_frame = 0, g->thread[i].frame_count = 0;
    size_t kept = 0;
    for (size_t i = 0; i < g->entry_count; i++) {
        const local_entry *e = &g->entry[i];
        lf_thread *t = &g->thread[e->thread];
        int new_frame = i == 0 || e->thread != e[-1].thread || e->number != e[-1].number;
        if (!new_frame && e->node == e[-1].node)
            continue; /* two slots of one frame hold it */
        if (new_frame) {
            if (t->frame_count == 0)
                t->first_frame = out->frame_count;
            t->frame_count++;
            out->frame[out->frame_count++] =
                (lf_stack_frame){e->from, t->node == LF_NODE_NONE, e->number, 0, (uint32_t)kept, 0};
        }
        lf_stack_frame *f = &out->frame[out->frame_count - 1];
        f->local_count++;
        f->retained += e->counted ? e->retained : 0;
        out->local[kept++] = e->node;
    }
    out->local_count = (uint32_t)kept;
    out->thread = g->thread;
    out->count = (uint32_t)g->thread_count;
    g->thread = NULL;
    return 0;
}

int lf_threads_find(const lf_snapshot *s, lf_thread_set *out, lf_error *err)
{
    gather g = {.s = s};
    memset(out, 0, sizeof *out);
    int failed = 0;
    for (uint32_t r = 0; r < s->root_count && !failed; r++) {
        if (s->root[r].node >= s->object_count)
            continue;
        if (is_string(s, s->root[r].kind, "thread"))
            failed = jvm_thread(&g, &s->root[r]);
        else if (is_string(s, s->root[r].kind, "stack"))
            failed = ocaml_frame_root(&g, r);
    }
    if (failed) {
        lf_big_free(g.thread), lf_big_free(g.entry);
        return lf_fail_nomem(err, "listing threads");
    }
    count_locals(&g);
    int rc = build(&g, out, err);
    lf_big_free(g.thread), lf_big_free(g.entry); /* grown by lf_vec_reserve */
    if (rc)
        lf_threads_free(out);
    return rc;
}

void lf_threads_free(lf_thread_set *set)
{
    lf_big_free(set->thread); /* the gathered threads, lf_vec_reserve's */
    free(set->frame), free(set->local);
    memset(set, 0, sizeof *set);
}

size_t lf_thread_frame_label(const lf_snapshot *s, const lf_stack_frame *f, char *buf, size_t size)
{
    if (size == 0)
        return 0;
    lf_str text;
    if (f->from_root) {
        lf_str name = lf_snapshot_string(s, s->root[f->from].name);
        const char *at = frame_in_name(name);
        text = at ? (lf_str){at, name.len - (size_t)(at - name.ptr)} : name;
    } else {
        size_t len = lf_snapshot_edge_label(s, f->from, buf, size);
        return len < size ? len : size - 1;
    }
    size_t len = text.len < size - 1 ? text.len : size - 1;
    memcpy(buf, text.ptr, len);
    buf[len] = 0;
    return len;
}
