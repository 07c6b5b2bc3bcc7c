/* sites.c - where the blocks Gc.Memprof sampled were allocated.
 *
 * The agent's tracker (sampling.c, or Leakfind.sample_allocations) keeps
 * each sampled block's callstack as Memprof's user data, through promotion.
 * Memprof's callbacks never see the block itself, but the runtime keeps it
 * beside the user data, in an entry whose layout is private (the runtime's
 * memprof.c reads it: agent_memprof_entries). So an entry is taken only
 * when all of it agrees: the block is one the walk reached (so
 * it is alive and a real block), its header's size is the entry's, the
 * samples fit in the block, and the user data is a callstack (a tag-0
 * block of immediate slots). A dead or freed block never passes: the walk
 * did not reach it. A callstack slot is decoded once per dump (slots
 * repeat across samples) into frames, inlined functions included. */
#define CAML_INTERNALS
#include "agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <caml/backtrace_prim.h>

#include "../../core/base/vec.h"

static double sampling_rate;

void agent_sampling_started(double samples_per_word)
{
    sampling_rate = samples_per_word;
}

typedef struct sampled_block {
    value block;
    uint32_t samples;
    value callstack;
} sampled_block;

static struct {
    agent_walk *walk;
    sampled_block *v;
    size_t len, cap;
    int failed;
} found;

static int is_callstack(agent_walk *walk, value v)
{
    if (Is_long(v) || !agent_walk_marked(walk, v) || Tag_val(v) != 0)
        return 0;
    for (mlsize_t i = 0; i < Wosize_val(v); i++)
        if (!Is_long(Field(v, i)))
            return 0;
    return 1;
}

static void take_entry(value block, uintnat samples, uintnat wosize, value user_data)
{
    if (found.failed)
        return;
    if (Is_long(block) || block == 0 || !agent_walk_marked(found.walk, block) ||
        Wosize_val(block) != wosize || samples == 0 || samples > Whsize_val(block) ||
        !is_callstack(found.walk, user_data))
        return;
    if (lf_vec_reserve((void **)&found.v, &found.cap, found.len + 1, sizeof *found.v)) {
        found.failed = 1;
        return;
    }
    found.v[found.len++] = (sampled_block){block, (uint32_t)samples, user_data};
}

/* ---- frames of a callstack slot */

typedef struct frame_cache {
    agent_map by_slot;  /* slot value -> (first << 8 | count) + 1 in frame */
    int64_t *frame;     /* writer frame indices, innermost first per slot */
    size_t len, cap;
} frame_cache;

static int64_t frame_without_debuginfo(lfs_writer *w, backtrace_slot s)
{
    char name[256] = "(no debug info)";
    /* A slot is a frame descriptor unless bit 1 tags a debuginfo. */
    if (!((uintptr_t)s & 2)) {
        uintptr_t retaddr;
        memcpy(&retaddr, s, sizeof retaddr); /* a frame descriptor's first field */
        const agent_symbol *sym = agent_symbol_holding(agent_symbols_get(), retaddr);
        if (sym)
            agent_demangle(sym->name, name, sizeof name);
    }
    return lfs_writer_frame(w, name, "", 0, 0);
}

static int push_frame(frame_cache *c, int64_t f)
{
    if (f < 0 || lf_vec_reserve((void **)&c->frame, &c->cap, c->len + 1, sizeof *c->frame))
        return -1;
    c->frame[c->len++] = f;
    return 0;
}

/* The frames of one slot, innermost (inlined) first; -1 on no memory. */
static int64_t slot_frames(frame_cache *c, lfs_writer *w, value slot_value)
{
    int64_t *known = agent_map_slot(&c->by_slot, (uint64_t)slot_value, 1);
    if (!known)
        return -1;
    if (*known)
        return *known - 1;
    size_t first = c->len;
    backtrace_slot s = Backtrace_slot_val(slot_value);
    debuginfo dbg = caml_debuginfo_extract(s);
    if (!dbg && push_frame(c, frame_without_debuginfo(w, s)))
        return -1;
    for (; dbg && c->len - first < 255; dbg = caml_debuginfo_next(dbg)) {
        struct caml_loc_info li;
        caml_debuginfo_location(dbg, &li);
        char fn[256];
        if (li.loc_valid)
            lf_ocaml_name(li.loc_defname, strlen(li.loc_defname), fn, sizeof fn);
        int64_t f = li.loc_valid ? lfs_writer_frame(w, fn, li.loc_filename,
                                                    (uint32_t)AGENT_LOC_LINE(li),
                                                    (uint32_t)AGENT_LOC_COLUMN(li) + 1)
                                 : frame_without_debuginfo(w, s);
        if (push_frame(c, f))
            return -1;
    }
    *known = (int64_t)(first << 8 | (c->len - first)) + 1;
    return *known - 1;
}

/* The site of a callstack (slot 0 innermost): built outermost first. */
static int64_t callstack_site(frame_cache *c, lfs_writer *w, value callstack)
{
    mlsize_t n = Wosize_val(callstack);
    for (mlsize_t i = 0; i < n; i++) /* decode first: the pool may move */
        if (slot_frames(c, w, Field(callstack, i)) < 0)
            return -1;
    int64_t site = 0;
    for (mlsize_t i = n; i-- > 0;) {
        int64_t packed = *agent_map_slot(&c->by_slot, (uint64_t)Field(callstack, i), 0) - 1;
        size_t first = (size_t)packed >> 8, count = (size_t)packed & 255;
        for (size_t j = count; j-- > 0 && site >= 0;)
            site = lfs_writer_site(w, site, c->frame[first + j]);
    }
    return site;
}

/* ---- whole callstacks: many samples share one, so its site is kept
 * under a hash of its slots, checked against the callstack it came from. */

typedef struct stack_cache {
    agent_map by_hash; /* hash -> index + 1 in known */
    struct known_stack {
        value callstack;
        int64_t site;
    } *known;
    size_t len, cap;
} stack_cache;

static uint64_t stack_hash(value callstack)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ Wosize_val(callstack);
    for (mlsize_t i = 0; i < Wosize_val(callstack); i++)
        h = (h ^ (uint64_t)Field(callstack, i)) * 0x100000001b3ULL;
    return h ? h : 1;
}

static int same_stack(value a, value b)
{
    if (Wosize_val(a) != Wosize_val(b))
        return 0;
    for (mlsize_t i = 0; i < Wosize_val(a); i++)
        if (Field(a, i) != Field(b, i))
            return 0;
    return 1;
}

static int64_t cached_site(stack_cache *sc, frame_cache *fc, lfs_writer *w, value callstack)
{
    int64_t *slot = agent_map_slot(&sc->by_hash, stack_hash(callstack), 1);
    if (!slot)
        return -1;
    if (*slot && same_stack(sc->known[*slot - 1].callstack, callstack))
        return sc->known[*slot - 1].site;
    int64_t site = callstack_site(fc, w, callstack);
    if (site < 0 || *slot) /* a collision keeps the first stack */
        return site;
    if (lf_vec_reserve((void **)&sc->known, &sc->cap, sc->len + 1, sizeof *sc->known))
        return -1;
    sc->known[sc->len++] = (struct known_stack){callstack, site};
    *slot = (int64_t)sc->len;
    return site;
}

static int write_sites(agent_walk *walk)
{
    lfs_writer *w = agent_walk_writer(walk);
    frame_cache frames = {0};
    stack_cache stacks = {0};
    int64_t callstack_class = lfs_writer_class(w, "memprof callstack");
    int rc = callstack_class < 0 ? -1 : 0;
    lfs_writer_sample_rate(w, sampling_rate);
    for (size_t i = 0; i < found.len && rc == 0; i++) {
        sampled_block *b = &found.v[i];
        int64_t site = cached_site(&stacks, &frames, w, b->callstack);
        rc = site < 0 || agent_walk_label_as(walk, b->callstack, callstack_class) ||
                     lfs_writer_allocated_at(w, agent_walk_rank(walk, b->block), site,
                                             b->samples)
                 ? -1
                 : 0;
    }
    agent_map_free(&frames.by_slot);
    free(frames.frame);
    agent_map_free(&stacks.by_hash);
    free(stacks.known);
    return rc;
}

int agent_sites_collect(agent_walk *walk)
{
    if (sampling_rate <= 0)
        return 0;
    found.walk = walk;
    found.len = 0;
    found.failed = 0;
    agent_memprof_entries(take_entry);
    int rc = found.failed ? -1 : write_sites(walk);
    free(found.v);
    found.v = NULL;
    found.cap = found.len = 0;
    return rc;
}
