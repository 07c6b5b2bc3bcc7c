/* idset.c - object ids into per-4-MiB bitmaps, or a list when they do not fit. */
#include "idset.h"

#include <Judy.h>
#include <stdlib.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"

#define CHUNK_SLOTS ((uint64_t)LF_IDSET_CHUNK_WORDS * 64)
/* Bitmaps allowed before the ids must pay for them: 64 (4 MiB) free, then
 * one more per 8192 ids (8 bytes per id, what a list would cost). */
#define FREE_CHUNKS 64
#define IDS_PER_CHUNK 8192

/* hot_key never equals id >> LF_IDSET_CHUNK_SHIFT: lf_idset_add's test fails. */
#define NO_KEY UINT64_MAX

void lf_idset_init(lf_idset *s)
{
    memset(s, 0, sizeof *s);
    s->hot_key = NO_KEY;
}

static uint64_t chunk_id(uint64_t key, uint64_t slot, uint64_t residue)
{
    return key << LF_IDSET_CHUNK_SHIFT | slot << 3 | residue;
}

static int list_push(lf_idset *s, uint64_t id)
{
    if (lf_vec_reserve((void **)&s->list, &s->list_cap, s->list_count + 1, sizeof *s->list))
        return -1;
    s->list[s->list_count++] = id;
    return 0;
}

static void free_chunks(lf_idset *s)
{
    Word_t key = 0;
    PWord_t value;
    JLF(value, s->chunks, key);
    while (value) {
        free((void *)*value);
        JLN(value, s->chunks, key);
    }
    Word_t freed;
    JLFA(freed, s->chunks);
    (void)freed;
    s->chunk_count = 0;
    s->hot_bits = NULL;
    s->hot_key = NO_KEY;
}

/* Bitmaps to list: the ids come out ascending and unique. */
static int unpack_to_list(lf_idset *s)
{
    Word_t key = 0;
    PWord_t value;
    JLF(value, s->chunks, key);
    while (value) {
        const uint64_t *bits = (const uint64_t *)*value;
        for (uint64_t w = 0; w < LF_IDSET_CHUNK_WORDS; w++)
            for (uint64_t b = bits[w]; b; b &= b - 1)
                if (list_push(s, chunk_id(key, w * 64 + (uint64_t)__builtin_ctzll(b), s->residue)))
                    return -1;
        JLN(value, s->chunks, key);
    }
    free_chunks(s);
    s->listing = 1;
    return 0;
}

int lf_idset_add_slow(lf_idset *s, uint64_t id)
{
    if (!s->listing) {
        if (s->chunk_count == 0)
            s->residue = id & 7;
        if ((id & 7) == s->residue) {
            Word_t key = id >> LF_IDSET_CHUNK_SHIFT;
            PWord_t value;
            JLG(value, s->chunks, key);
            if (!value && s->chunk_count < FREE_CHUNKS + s->count / IDS_PER_CHUNK) {
                uint64_t *bits = calloc(LF_IDSET_CHUNK_WORDS, sizeof *bits);
                if (!bits)
                    return -1;
                JLI(value, s->chunks, key);
                if (value == PJERR) {
                    free(bits);
                    return -1;
                }
                *value = (Word_t)bits;
                s->chunk_count++;
            }
            if (value) {
                s->hot_bits = (uint64_t *)*value;
                s->hot_key = key;
                return lf_idset_add(s, id);
            }
        }
        if (unpack_to_list(s)) /* another residue, or too spread out */
            return -1;
    }
    if (list_push(s, id))
        return -1;
    s->count++;
    return 0;
}

int lf_idset_merge(lf_idset *into, lf_idset *from)
{
    if (!into->listing && into->chunk_count == 0) { /* nothing to merge with: take it whole */
        uint64_t count = into->count;
        lf_idset_free(into);
        *into = *from;
        into->count += count;
        lf_idset_init(from);
        return 0;
    }
    if (!from->listing && from->chunk_count == 0) { /* nothing to take */
        into->count += from->count;
        lf_idset_free(from);
        return 0;
    }
    if (!into->listing && !from->listing && from->residue == into->residue) {
        Word_t key = 0;
        PWord_t value;
        JLF(value, from->chunks, key);
        while (value) {
            uint64_t *bits = (uint64_t *)*value;
            PWord_t slot;
            JLI(slot, into->chunks, key);
            if (slot == PJERR)
                return -1;
            if (*slot) {
                uint64_t *mine = (uint64_t *)*slot;
                for (uint64_t w = 0; w < LF_IDSET_CHUNK_WORDS; w++)
                    mine[w] |= bits[w];
                free(bits);
            } else {
                *slot = (Word_t)bits;
                into->chunk_count++;
            }
            *value = 0; /* moved or freed: from must not free it again */
            JLN(value, from->chunks, key);
        }
        into->count += from->count;
        lf_idset_free(from);
        return 0;
    }
    if ((!into->listing && unpack_to_list(into)) || (!from->listing && unpack_to_list(from)))
        return -1;
    if (from->list_count &&
        lf_vec_reserve((void **)&into->list, &into->list_cap, into->list_count + from->list_count,
                       sizeof *into->list))
        return -1;
    if (from->list_count)
        memcpy(into->list + into->list_count, from->list, from->list_count * sizeof *from->list);
    into->list_count += from->list_count;
    into->count += from->count;
    lf_idset_free(from);
    return 0;
}

static int first_nonzero(const uint64_t *bits)
{
    int w = 0;
    while (w + 1 < (int)LF_IDSET_CHUNK_WORDS && !bits[w])
        w++;
    return w;
}

static int last_nonzero(const uint64_t *bits)
{
    int w = LF_IDSET_CHUNK_WORDS - 1;
    while (w > 0 && !bits[w])
        w--;
    return w;
}

/* The bitmaps laid end to end as the rank index, from the first id's word
 * to the last id's; 0 when that is too spread out (idrank.h's bound: over
 * 32 bytes of index per id). */
static int chunks_to_rank(lf_idset *s, lf_idrank *rank)
{
    Word_t first = 0, last = (Word_t)-1;
    PWord_t value;
    JLF(value, s->chunks, first);
    uint64_t lo_word = (uint64_t)first_nonzero((const uint64_t *)*value);
    JLL(value, s->chunks, last);
    uint64_t hi_word = (uint64_t)last_nonzero((const uint64_t *)*value);
    uint64_t unique = 0;
    Word_t key = 0;
    JLF(value, s->chunks, key);
    while (value) {
        const uint64_t *bits = (const uint64_t *)*value;
        for (uint64_t w = 0; w < LF_IDSET_CHUNK_WORDS; w++)
            unique += lf_popcount64(bits[w]);
        JLN(value, s->chunks, key);
    }
    /* key differences stay below 2^42: no overflow */
    uint64_t words = ((uint64_t)(last - first) * LF_IDSET_CHUNK_WORDS + hi_word) - lo_word + 1;
    if (words - 1 >= unique / 2 + 1024)
        return 0;
    rank->words = lf_big_calloc(words, sizeof *rank->words);
    if (!rank->words)
        return -1;
    key = 0;
    JLF(value, s->chunks, key);
    while (value) {
        const uint64_t *bits = (const uint64_t *)*value;
        uint64_t at = (uint64_t)(key - first) * LF_IDSET_CHUNK_WORDS;
        for (uint64_t w = key == first ? lo_word : 0; w < LF_IDSET_CHUNK_WORDS && at + w - lo_word < words; w++)
            rank->words[at + w - lo_word].bits = bits[w];
        JLN(value, s->chunks, key);
    }
    uint64_t at = 0;
    for (uint64_t w = 0; w < words; w++) {
        rank->words[w].rank = at;
        at += lf_popcount64(rank->words[w].bits);
    }
    rank->base = chunk_id(first, lo_word * 64, s->residue);
    rank->shift = 3;
    rank->word_count = words;
    rank->count = unique;
    return 1;
}

int lf_idset_finish(lf_idset *s, lf_idrank *rank, uint64_t **sorted)
{
    memset(rank, 0, sizeof *rank);
    *sorted = NULL;
    if (!s->listing && s->chunk_count == 0) {
        lf_idset_free(s);
        return 0;
    }
    if (!s->listing) {
        int built = chunks_to_rank(s, rank);
        if (built != 0) {
            lf_idset_free(s);
            return built < 0 ? -1 : 0;
        }
        if (unpack_to_list(s)) /* sorted and unique already */
            return -1;
    } else {
        if (lf_sort_u64(s->list, s->list_count))
            return -1;
        size_t unique = 0;
        for (size_t i = 0; i < s->list_count; i++)
            if (unique == 0 || s->list[i] != s->list[unique - 1])
                s->list[unique++] = s->list[i];
        s->list_count = unique;
    }
    if (lf_idrank_build(rank, s->list, s->list_count))
        return -1;
    *sorted = s->list;
    s->list = NULL;
    lf_idset_free(s);
    return 0;
}

void lf_idset_free(lf_idset *s)
{
    free_chunks(s);
    lf_big_free(s->list);
    lf_idset_init(s);
}
