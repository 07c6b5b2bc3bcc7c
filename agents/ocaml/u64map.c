/* u64map.c - an open-addressing map from nonzero 64-bit keys to 64-bit
 * values, in malloc memory: the agent must not allocate in the OCaml heap. */
#include "agent.h"

#include <stdlib.h>


static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

int64_t *agent_map_slot(agent_map *m, uint64_t key, int insert)
{
    if (insert && (m->count + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 1024;
        uint64_t *nk = calloc(ncap, sizeof *nk);
        int64_t *nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return NULL;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->key[i])
                continue;
            size_t j = mix(m->key[i]) & (ncap - 1);
            while (nk[j])
                j = (j + 1) & (ncap - 1);
            nk[j] = m->key[i];
            nv[j] = m->val[i];
        }
        free(m->key);
        free(m->val);
        m->key = nk;
        m->val = nv;
        m->cap = ncap;
    }
    if (!m->cap)
        return NULL;
    size_t j = mix(key) & (m->cap - 1);
    while (m->key[j] && m->key[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->key[j]) {
        if (!insert)
            return NULL;
        m->key[j] = key;
        m->count++;
    }
    return &m->val[j];
}

void agent_map_free(agent_map *m)
{
    free(m->key);
    free(m->val);
}

