/* owners.c - signatures of dominator-tree nodes and their totals. */
#include "owners.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../base/bigmem.h"
#include "holders.h"
#include "../base/vec.h"

static uint64_t hash_step(uint64_t parent, lf_str a, lf_str b)
{
    char buf[2600];
    size_t la = a.len < 1200 ? a.len : 1200, lb = b.len < 1200 ? b.len : 1200;
    memcpy(buf, &parent, sizeof parent);
    memcpy(buf + 8, a.ptr, la);
    buf[8 + la] = '\t';
    memcpy(buf + 9 + la, b.ptr, lb);
    uint64_t h = XXH3_64bits(buf, 9 + la + lb);
    return h ? h : 1; /* 0 means "no parent" */
}

/* The field by which the dominator holds v, indices masked; for a top owner
 * its first root's kind and name. */
static lf_str holder(lf_holders *holders, uint32_t v, char *buf, size_t size)
{
    const lf_snapshot *s = holders->s;
    lf_str out = {"", 0};
    lf_holder h = lf_holders_get(holders, v);
    if (h.kind == LF_HOLDER_ROOT) {
        lf_str kind = lf_snapshot_string(s, s->root[h.label].kind), name = lf_snapshot_string(s, s->root[h.label].name);
        int n = snprintf(buf, size, "%.*s%s%.*s", (int)(kind.len > 200 ? 200 : kind.len), kind.ptr,
                         name.len ? " " : "", (int)(name.len > 800 ? 800 : name.len), name.ptr);
        out.ptr = buf;
        out.len = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
        return out;
    }
    if (h.kind == LF_EDGE_KIND_ELEMENT) {
        out.ptr = "[]";
        out.len = 2;
        return out;
    }
    out.ptr = buf;
    out.len = lf_snapshot_label_text(s, h.kind, h.label, buf, size);
    /* a slot number (a V8 Map's or Set's table holds its entries by internal
     * edges named "3131") is an index too: every entry is "[]" */
    size_t digits = 0;
    while (digits < out.len && buf[digits] >= '0' && buf[digits] <= '9')
        digits++;
    if (out.len && digits == out.len) {
        out.ptr = "[]";
        out.len = 2;
    }
    return out;
}

int lf_owner_signatures(lf_holders *holders, uint64_t *sig, uint32_t *order, uint32_t *depth,
                        size_t *count_out, lf_error *err)
{
    const lf_snapshot *s = holders->s;
    const uint32_t n = s->object_count;
    const uint32_t *off = s->domtree_offset, *child = s->domtree_child;
    /* preorder of the dominator tree (explicit stack), signatures on the way */
    uint32_t *stack = lf_big_malloc(((size_t)s->reachable_count + 1) * sizeof *stack);
    if (!stack)
        return lf_fail_nomem(err, "matching owners");
    size_t top = 0, count = 0;
    for (uint32_t i = off[n + 1]; i > off[n]; i--)
        stack[top++] = child[i - 1];
    char buf[1200];
    /* every object asks for its holder: see holders.h */
    while (top > 0) {
        uint32_t v = stack[--top];
        order[count++] = v;
        uint32_t d = s->idom[v];
        uint64_t parent = d == LF_NODE_SUPER ? 0 : sig[d];
        if (depth)
            depth[v] = d == LF_NODE_SUPER ? 0 : depth[d] + 1;
        sig[v] = hash_step(parent, lf_snapshot_class_name(s, s->object_class[v]), holder(holders, v, buf, sizeof buf));
        for (uint32_t i = off[v + 1]; i > off[v]; i--)
            stack[top++] = child[i - 1];
    }
    lf_big_free(stack);
    *count_out = count;
    return lf_holders_failed(holders) ? lf_fail_nomem(err, "matching owners") : 0;
}

int lf_owners_add(lf_owner_table *t, const lf_snapshot *s, int side, lf_error *err)
{
    const uint32_t n = s->object_count;
    uint32_t *order = lf_big_malloc(((size_t)s->reachable_count + 1) * sizeof *order);
    uint64_t *sig = lf_big_malloc(((size_t)n + 1) * sizeof *sig);
    uint64_t *objects = lf_big_malloc(((size_t)n + 1) * sizeof *objects);
    uint32_t *depth = lf_big_malloc(((size_t)n + 1) * sizeof *depth);
    int rc = 0;
    size_t count = 0;
    if (!order || !sig || !objects || !depth) {
        rc = lf_fail_nomem(err, "matching owners");
        goto out;
    }
    lf_holders holders;
    lf_holders_init(&holders, s);
    rc = lf_owner_signatures(&holders, sig, order, depth, &count, err);
    lf_holders_free(&holders);
    if (rc)
        goto out;
    for (size_t i = 0; i < count; i++)
        objects[order[i]] = 1;
    /* objects retained: children before parents in reverse preorder */
    for (size_t i = count; i > 0; i--) {
        uint32_t v = order[i - 1];
        if (s->idom[v] != LF_NODE_SUPER)
            objects[s->idom[v]] += objects[v];
    }
    for (size_t i = 0; i < count && rc == 0; i++) {
        uint32_t v = order[i];
        PWord_t slot;
        JLI(slot, t->index, (Word_t)sig[v]);
        if (slot == PJERR) {
            rc = lf_fail_nomem(err, "matching owners");
            break;
        }
        if (!*slot) {
            if (lf_vec_reserve((void **)&t->owner, &t->cap, t->count + 1, sizeof *t->owner)) {
                rc = lf_fail_nomem(err, "matching owners");
                break;
            }
            lf_owner *o = &t->owner[t->count++];
            memset(o, 0, sizeof *o);
            o->signature = sig[v];
            o->parent = s->idom[v] == LF_NODE_SUPER ? 0 : sig[s->idom[v]];
            o->node[0] = o->node[1] = LF_NODE_NONE;
            o->depth = depth[v];
            *slot = t->count;
        }
        lf_owner *o = &t->owner[*slot - 1];
        o->retained[side] += lf_snapshot_retained(s, v);
        o->objects[side] += objects[v];
        if (o->node[side] == LF_NODE_NONE)
            o->node[side] = v;
    }
out:
    lf_big_free(order);
    lf_big_free(sig);
    lf_big_free(objects);
    lf_big_free(depth);
    return rc;
}

const lf_owner *lf_owners_find(const lf_owner_table *t, uint64_t signature)
{
    PWord_t slot;
    JLG(slot, t->index, (Word_t)signature);
    return slot ? &t->owner[*slot - 1] : NULL;
}

void lf_owners_free(lf_owner_table *t)
{
    Word_t freed;
    JLFA(freed, t->index);
    (void)freed;
    lf_big_free(t->owner);
    memset(t, 0, sizeof *t);
}

size_t lf_owner_step(lf_holders *holders, uint32_t node, char *buf, size_t size)
{
    char field[1200];
    lf_str h = holder(holders, node, field, sizeof field);
    lf_str cls = lf_snapshot_object_label(holders->s, node);
    /* a synthetic V8 root has no class name: "(root)", never "(root)  ()" */
    int n = cls.len ? snprintf(buf, size, "%.*s%s(%.*s)", (int)(h.len > 600 ? 600 : h.len), h.ptr,
                               h.len ? " " : "", (int)(cls.len > 400 ? 400 : cls.len), cls.ptr)
                    : snprintf(buf, size, "%.*s", (int)(h.len > 600 ? 600 : h.len), h.ptr);
    return n < 0 || size == 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t lf_owner_path(lf_holders *holders, uint32_t node, char *buf, size_t size)
{
    const lf_snapshot *s = holders->s;
    enum { HOPS = 12 };
    uint32_t chain[HOPS];
    unsigned hops = 0;
    int cut = 0;
    for (uint32_t v = node; v != LF_NODE_SUPER && v != LF_NODE_NONE; v = s->idom[v]) {
        if (hops == HOPS) {
            cut = 1;
            break;
        }
        chain[hops++] = v;
    }
    size_t o = 0;
    char step[1200];
    if (cut && size > 8)
        o += (size_t)snprintf(buf, size, "... / ");
    for (unsigned i = hops; i > 0 && o + 1 < size; i--) {
        size_t len = lf_owner_step(holders, chain[i - 1], step, sizeof step);
        int n = snprintf(buf + o, size - o, "%s%.*s", i == hops ? "" : " / ", (int)len, step);
        if (n < 0)
            break;
        o += (size_t)n < size - o ? (size_t)n : size - o - 1;
    }
    if (size)
        buf[o < size ? o : size - 1] = '\0';
    return o;
}
