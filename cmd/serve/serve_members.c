/* serve_members.c - collections' members, kept between requests: the
 * children view below a collection collects all its members (through its
 * entries and chains) and sorts them, largest first, for every page; a
 * V8 Array of 675,000 members took 110 ms a page, 2.4 s at the 95th
 * percentile under 32 clients. Kept, a page is a slice of them.
 *
 * An entry, once in, is never changed nor freed before the site: a request
 * on another thread may be reading it, unlocked. So the kept ones are
 * bounded (SERVE_MEMBERS_KEPT collections, SERVE_MEMBERS_BYTES in all, per
 * snapshot); past that a request collects its own copy, as before. */
#include <string.h>

#include "serve.h"

static size_t bytes_of(const lf_collection_members *m)
{
    return m->payload_cap * sizeof *m->payload + m->group_cap * sizeof *m->group;
}

static const lf_collection_members *find_kept(serve_snapshot *snap, uint32_t node)
{
    for (uint32_t i = 0; i < snap->kept_count; i++)
        if (snap->kept[i].node == node)
            return &snap->kept[i].members;
    return NULL;
}

int serve_members(serve_snapshot *snap, uint32_t node, lf_collection_members *own, const lf_collection_members **out)
{
    memset(own, 0, sizeof *own);
    pthread_mutex_lock(&snap->kept_lock);
    *out = find_kept(snap, node);
    pthread_mutex_unlock(&snap->kept_lock);
    if (*out)
        return 1;
    if (!lf_holds_members(&snap->s, node))
        return 0;
    /* collected unlocked: other requests go on meanwhile */
    if (lf_collection_members_of(&snap->s, node, own))
        return -1;
    *out = own;
    pthread_mutex_lock(&snap->kept_lock);
    const lf_collection_members *kept = find_kept(snap, node); /* another request's, made meanwhile */
    if (kept) {
        lf_collection_members_free(own);
        *out = kept;
    } else if (snap->kept_count < SERVE_MEMBERS_KEPT && snap->kept_bytes + bytes_of(own) <= SERVE_MEMBERS_BYTES) {
        serve_kept_members *k = &snap->kept[snap->kept_count++];
        k->node = node;
        k->members = *own;
        snap->kept_bytes += bytes_of(own);
        memset(own, 0, sizeof *own);
        *out = &k->members;
    }
    pthread_mutex_unlock(&snap->kept_lock);
    return 1;
}

void serve_members_free(serve_snapshot *snap)
{
    for (uint32_t i = 0; i < snap->kept_count; i++)
        lf_collection_members_free(&snap->kept[i].members);
    snap->kept_count = 0;
    snap->kept_bytes = 0;
}
