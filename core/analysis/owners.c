/* owners.c - signatures of dominator-tree nodes and their totals. */
#include "owners.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../base/bigmem.h"
#include "../model/root_text.h"
#include "collections.h"
#include "domview.h"
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

/* "frame 10: app.Leak.run (Leak.java:42)" -> "frame app.Leak.run": the same
 * local of the same function in another dump, whatever the stack's depth
 * there and the line the frame stopped at. Returns the new length. */
static size_t mask_frame(char *text, size_t len)
{
    for (size_t i = 0; i + 6 < len; i++) {
        if (memcmp(text + i, "frame ", 6) != 0 || (i > 0 && text[i - 1] != ' '))
            continue;
        size_t j = i + 6;
        while (j < len && text[j] >= '0' && text[j] <= '9')
            j++;
        if (j == i + 6 || j + 1 >= len || text[j] != ':' || text[j + 1] != ' ')
            continue;
        size_t fn = j + 2, end = fn;
        while (end < len && text[end] != ' ')
            end++;
        memmove(text + i + 6, text + fn, end - fn);
        return i + 6 + (end - fn);
    }
    return len;
}

/* "finaliser 51" -> "finaliser" (and its "finaliser 51: value to
 * finalise", and "memprof tracker 3"; lf_root_text names them without
 * their kind twice): the OCaml agent
 * numbers these roots in the order the runtime keeps them, so a number
 * names no particular registration from one dump to the next, as an array
 * index does not. Returns the new length. */
static size_t mask_ordinal(char *text, size_t len)
{
    static const char *const numbered[] = {"finaliser ", "memprof tracker "};
    for (size_t k = 0; k < sizeof numbered / sizeof *numbered; k++) {
        size_t p = strlen(numbered[k]), j = p;
        if (len < p || memcmp(text, numbered[k], p) != 0)
            continue;
        while (j < len && text[j] >= '0' && text[j] <= '9')
            j++;
        if (j == p)
            return len;
        memmove(text + p - 1, text + j, len - j); /* the space goes with the digits */
        return len - (j - p + 1);
    }
    return len;
}

/* The field h by which the dominator holds an object, indices and frame numbers
 * masked (and every key, when `keyed`: the dominator is a dictionary); for
 * a top owner its first root's kind and name. */
static lf_str holder(lf_holders *holders, lf_holder h, int keyed, char *buf, size_t size)
{
    const lf_snapshot *s = holders->s;
    lf_str out = {"", 0};
    if (h.kind == LF_HOLDER_ROOT) {
        out.ptr = buf;
        out.len = mask_ordinal(buf, mask_frame(buf, lf_root_text(s, h.label, buf, size)));
        return out;
    }
    if (h.kind == LF_EDGE_KIND_ELEMENT || (keyed && h.kind == LF_EDGE_KIND_FIELD)) {
        out.ptr = "[]";
        out.len = 2;
        return out;
    }
    out.ptr = buf;
    out.len = mask_frame(buf, lf_snapshot_label_text(s, h.kind, h.label, buf, size));
    /* a slot number (a V8 Map's or Set's table holds its entries by internal
     * edges named "3131") is an index too: every entry is "[]" */
    if (lf_label_is_slot(buf, out.len)) {
        out.ptr = "[]";
        out.len = 2;
    }
    return out;
}

int lf_label_is_slot(const char *text, size_t len)
{
    size_t digits = 0;
    while (digits < len && text[digits] >= '0' && text[digits] <= '9')
        digits++;
    return len > 0 && digits == len;
}

/* A class as owner signatures see it: an OCaml block's label without its
 * size ("block(tag 0, 1024 fields)" -> "block(tag 0)"), so an array or a
 * Hashtbl's bucket array that was reallocated bigger is the same owner. */
static lf_str signature_class(const lf_snapshot *s, uint32_t cls)
{
    lf_str name = lf_snapshot_class_name(s, cls);
    static const char head[] = "block(tag ", tail[] = " fields)";
    const size_t hl = sizeof head - 1, tl = sizeof tail - 1;
    if (name.len <= hl + tl || memcmp(name.ptr, head, hl) != 0 || memcmp(name.ptr + name.len - tl, tail, tl) != 0)
        return name;
    const char *comma = memchr(name.ptr + hl, ',', name.len - hl - tl);
    return comma ? (lf_str){name.ptr, (size_t)(comma - name.ptr)} : name;
}

/* A dominator on the walk's path from the super-root with children left to
 * visit: what they need of it (so that none reads its idom, its class or
 * its signature again) and the next one. */
typedef struct sig_frame {
    uint32_t node, cls, depth;
    uint32_t next, end;         /* its children: domtree_child[next..end) */
    uint64_t sig;
} sig_frame;

/* Recent signature steps, so that the objects one holder holds alike (an
 * array's elements, a bucket's keys) hash nothing: keyed by the parent's
 * signature, the class, the holder edge (its label, but an element's
 * index and a dictionary's key are one "[]") and whether the dominator is
 * a dictionary, which decide the step. */
typedef struct sig_memo {
    struct sig_memo_slot { uint64_t parent, sig; uint32_t cls, label; uint8_t kind, keyed, used; } slot[4096];
} sig_memo;

/* The signature of v, of class cls, below a parent of signature `parent`
 * (0: v is a top owner) whose dictionary-ness is keyed. */
static uint64_t signature_step(lf_holders *holders, sig_memo *memo, uint64_t parent, uint32_t v, uint32_t cls,
                               int keyed)
{
    lf_holder h = lf_holders_get(holders, v);
    uint32_t label = h.kind == LF_EDGE_KIND_ELEMENT || (keyed && h.kind == LF_EDGE_KIND_FIELD) ? 0 : h.label;
    uint64_t at = (parent ^ ((uint64_t)cls << 32) ^ ((uint64_t)h.kind << 24) ^ label) * 0x9e3779b97f4a7c15ull;
    struct sig_memo_slot *m = &memo->slot[at >> 52]; /* 4096 slots */
    /* keyed too: two dominators of one signature, one a dictionary */
    if (m->used && m->parent == parent && m->cls == cls && m->kind == h.kind && m->label == label &&
        m->keyed == (keyed != 0))
        return m->sig;
    char buf[1200];
    uint64_t sig = hash_step(parent, signature_class(holders->s, cls), holder(holders, h, keyed, buf, sizeof buf));
    *m = (struct sig_memo_slot){parent, sig, cls, label, h.kind, keyed != 0, 1};
    return sig;
}

/* The frame of node v (signature sig, class cls) at the top of *frames,
 * grown as needed. 0 or -1 (memory). */
static int push_frame(const lf_snapshot *s, sig_frame **frames, size_t *top, size_t *cap, uint32_t v, uint32_t cls,
                      uint32_t depth, uint64_t sig)
{
    if (lf_vec_reserve((void **)frames, cap, *top + 1, sizeof **frames))
        return -1;
    (*frames)[(*top)++] = (sig_frame){v, cls, depth, s->domtree_offset[v], s->domtree_offset[v + 1], sig};
    return 0;
}

/* Signature g into the chains' set, when one is asked for; *last: the
 * last one set (a chain's links ask one after the other). 0 or -1 (memory). */
static int add_chain(Pvoid_t *chains, uint64_t *last, uint64_t g)
{
    int set = 0;
    if (chains && g != *last) {
        J1S(set, *chains, (Word_t)g);
        *last = g;
    }
    return set == JERR ? -1 : 0;
}

int lf_owner_signatures(lf_holders *holders, uint64_t *sig, uint32_t *order, uint32_t *depth,
                        size_t *count_out, void **chains_out, lf_error *err)
{
    const lf_snapshot *s = holders->s;
    /* V8's collections go by their classes (collections.h) */
    Pvoid_t chains = NULL, *chains_at = chains_out && s->source_format != LF_FORMAT_V8 ? &chains : NULL;
    const uint32_t n = s->object_count;
    /* preorder of the dominator tree: frames of the dominators on the path
     * from the super-root (node n) that have children left to visit, each
     * child visited in the order of its dominator's list */
    sig_frame *frames = NULL;
    size_t top = 0, cap = 0, count = 0;
    uint64_t last_chain = 0; /* no signature is 0 */
    sig_memo *memo = calloc(1, sizeof *memo);
    /* per dominator: 0 not asked yet, 1 no dictionary, 2 a dictionary */
    uint8_t *dictionary = s->source_format == LF_FORMAT_V8 ? lf_big_calloc((size_t)n + 1, 1) : NULL;
    int rc = !memo || (s->source_format == LF_FORMAT_V8 && !dictionary) ||
             push_frame(s, &frames, &top, &cap, n, UINT32_MAX, 0, 0);
    /* every object but a chain's link asks for its holder: the table at
     * once, not first one question at a time up to a pass's worth of work,
     * and without the links (holders.h) */
    lf_holders_expect_signatures(holders);
    while (top > 0 && rc == 0) {
        sig_frame *f = &frames[top - 1];
        if (f->next == f->end) {
            top--;
            continue;
        }
        uint32_t v = s->domtree_child[f->next++], d = f->node == n ? LF_NODE_SUPER : f->node;
        /* the next sibling's class and children, wanted once v's subtree
         * is done: two cache misses a node were 88% of this walk (looking
         * two siblings ahead, for the child list too, measured slower) */
        if (f->next < f->end) {
            uint32_t sibling = s->domtree_child[f->next];
            __builtin_prefetch(&s->object_class[sibling]);
            __builtin_prefetch(&s->domtree_offset[sibling]);
            __builtin_prefetch(&sig[sibling], 1);
            lf_holders_prefetch(holders, sibling);
        }
        uint32_t cls = s->object_class[v], dcls = f->cls, dv = d == LF_NODE_SUPER ? 0 : f->depth + 1;
        uint64_t dsig = f->sig;
        /* its last child taken, a frame is done: a chain keeps one frame,
         * not one per link */
        if (f->next == f->end)
            top--;
        order[count++] = v;
        if (depth)
            depth[v] = dv;
        /* the links of a chain or a tree share its head's signature: one
         * bucket's entries, whatever their depth in it (collections.h) */
        if (d != LF_NODE_SUPER && lf_same_class(s, cls, dcls)) {
            sig[v] = dsig;
            rc = add_chain(chains_at, &last_chain, dsig);
        } else {
            if (dictionary && d != LF_NODE_SUPER && !dictionary[d])
                dictionary[d] = lf_is_v8_dictionary(s, d) ? 2 : 1;
            int keyed = dictionary && d != LF_NODE_SUPER && dictionary[d] == 2;
            sig[v] = signature_step(holders, memo, d == LF_NODE_SUPER ? 0 : dsig, v, cls, keyed);
            /* another class hashed to its dominator's signature */
            if (d != LF_NODE_SUPER && sig[v] == dsig)
                rc = add_chain(chains_at, &last_chain, dsig);
        }
        if (rc == 0 && s->domtree_offset[v] != s->domtree_offset[v + 1])
            rc = push_frame(s, &frames, &top, &cap, v, cls, dv, sig[v]);
    }
    lf_big_free(frames);
    free(memo);
    lf_big_free(dictionary);
    *count_out = count;
    if (rc || lf_holders_failed(holders)) {
        Word_t freed;
        J1FA(freed, chains);
        (void)freed;
        return lf_fail_nomem(err, "matching owners");
    }
    if (chains_out)
        *chains_out = chains;
    return 0;
}

int lf_owners_add(lf_owner_table *t, const lf_snapshot *s, int side, lf_error *err)
{
    const uint32_t n = s->object_count;
    uint32_t *order = lf_big_malloc(((size_t)s->reachable_count + 1) * sizeof *order);
    uint64_t *sig = lf_big_malloc(((size_t)n + 1) * sizeof *sig);
    uint64_t *objects = lf_big_malloc(((size_t)n + 1) * sizeof *objects);
    uint32_t *depth = lf_big_malloc(((size_t)n + 1) * sizeof *depth);
    lf_collections coll = {NULL, NULL};
    int rc = 0;
    size_t count = 0;
    if (!order || !sig || !objects || !depth) {
        rc = lf_fail_nomem(err, "matching owners");
        goto out;
    }
    lf_holders holders;
    lf_holders_init(&holders, s);
    void *chains = NULL;
    rc = lf_owner_signatures(&holders, sig, order, depth, &count, &chains, err);
    lf_holders_free(&holders);
    if (rc)
        goto out;
    if (lf_collections_build(&coll, s, order, count, sig, chains)) {
        rc = lf_fail_nomem(err, "matching owners");
        goto out;
    }
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
        if (s->idom[v] != LF_NODE_SUPER && sig[s->idom[v]] == sig[v]) {
            continue; /* a chain's link: in its head's totals already */
        }
        o->inside |= (coll.flags[v] & LF_COLL_INSIDE) != 0;
        o->retained[side] += lf_snapshot_retained(s, v);
        o->objects[side] += objects[v];
        if (o->node[side] == LF_NODE_NONE)
            o->node[side] = v;
    }
out:
    lf_collections_free(&coll);
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

/* Whether text is one parenthesized whole: its first '(' closes at its
 * last character ("(compiled code)", not OCaml's "(string, t) Hashtbl.t"). */
static int wrapped_in_parentheses(const char *text, size_t len)
{
    if (len < 2 || text[0] != '(' || text[len - 1] != ')')
        return 0;
    size_t depth = 0;
    for (size_t i = 0; i < len; i++) {
        depth += text[i] == '(';
        if (text[i] == ')' && --depth == 0)
            return i == len - 1;
    }
    return 0;
}

/* A V8 synthetic level's step, as a suspect's path reads it (suspects.c,
 * put_hop): the snapshot's own root entry none, the others their name
 * alone ("(GC roots) / (Stack roots) / ...", not "(root) / [] (GC roots) /
 * [] (Stack roots)"). */
static size_t synthetic_step(const lf_snapshot *s, uint32_t node, char *buf, size_t size)
{
    lf_str name = s->idom[node] == LF_NODE_SUPER ? (lf_str){"", 0} : lf_snapshot_object_label(s, node);
    int n = size ? snprintf(buf, size, "%.*s", (int)(name.len > 600 ? 600 : name.len), name.ptr) : 0;
    return n < 0 || size == 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t lf_owner_step(lf_holders *holders, uint32_t node, char *buf, size_t size)
{
    char field[1200];
    const lf_snapshot *s = holders->s;
    if (lf_is_synthetic(s, node))
        return synthetic_step(s, node, buf, size);
    uint32_t d = s->idom[node];
    /* below a synthetic level its edge is a list slot ("[]"): no field */
    lf_str h = d < s->object_count && lf_is_synthetic(s, d)
                   ? (lf_str){"", 0}
                   : holder(holders, lf_holders_get(holders, node), d < s->object_count && lf_is_v8_dictionary(s, d),
                            field, sizeof field);
    lf_str cls = lf_snapshot_object_label(holders->s, node);
    /* V8's "(compiled code)" is in parentheses already: "code (compiled
     * code)", never "code ((compiled code))" */
    const int bracketed = cls.len > 400 || !wrapped_in_parentheses(cls.ptr, cls.len);
    const char *open = bracketed ? "(" : "", *close = bracketed ? ")" : "";
    /* a synthetic V8 root has no class name: "(root)", never "(root)  ()" */
    int n = cls.len ? snprintf(buf, size, "%.*s%s%s%.*s%s", (int)(h.len > 600 ? 600 : h.len), h.ptr,
                               h.len ? " " : "", open, (int)(cls.len > 400 ? 400 : cls.len), cls.ptr, close)
                    : snprintf(buf, size, "%.*s", (int)(h.len > 600 ? 600 : h.len), h.ptr);
    return n < 0 || size == 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t lf_path_from_static(char *buf, size_t len, size_t size)
{
    static const char step_class[] = " / (class ";
    const size_t mark = sizeof step_class - 1;
    char *at = NULL;
    for (char *p = buf; (p = memmem(p, len - (size_t)(p - buf), step_class, mark)) != NULL; p += mark)
        at = p; /* the last class object reached by no field */
    if (!at && len > 7 && memcmp(buf, "(class ", 7) == 0)
        at = buf - 3; /* the path's first step */
    if (!at)
        return len;
    const char *name = at + mark, *end = buf + len;
    const char *close = memchr(name, ')', (size_t)(end - name));
    if (!close || (size_t)(end - close) < 4 || memcmp(close + 1, " / ", 3) != 0)
        return len;
    const char *field = close + 4;
    char *out = malloc(len + 32);
    if (!out)
        return len;
    int n = snprintf(out, len + 32, "static field %.*s.%.*s", (int)(close - name), name, (int)(end - field), field);
    size_t m = n < 0 ? 0 : (size_t)n < len + 32 ? (size_t)n : len + 31;
    if (m + 1 <= size) {
        memcpy(buf, out, m + 1);
        len = m;
    }
    free(out);
    return len;
}

size_t lf_owner_path(lf_holders *holders, uint32_t node, char *buf, size_t size)
{
    const lf_snapshot *s = holders->s;
    enum { HOPS = 12 };
    uint32_t chain[HOPS];
    unsigned hops = 0;
    int cut = 0;
    for (uint32_t v = node; v != LF_NODE_SUPER && v != LF_NODE_NONE; v = s->idom[v]) {
        if (lf_same_class_as_dominator(s, v, s->idom[v]))
            continue; /* a chain's link: its head names it */
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
    const size_t first = o;
    for (unsigned i = hops; i > 0 && o + 1 < size; i--) {
        size_t len = lf_owner_step(holders, chain[i - 1], step, sizeof step);
        if (len == 0)
            continue; /* V8's root entry */
        int n = snprintf(buf + o, size - o, "%s%.*s", o == first ? "" : " / ", (int)len, step);
        if (n < 0)
            break;
        o += (size_t)n < size - o ? (size_t)n : size - o - 1;
    }
    if (size)
        buf[o < size ? o : size - 1] = '\0';
    return size ? lf_path_from_static(buf, o < size ? o : size - 1, size) : 0;
}
