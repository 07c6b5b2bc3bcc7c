/* fuzz_common.c - what every reader's fuzz target does after a successful open:
 * analyse, aggregate, walk the dominator tree, write and re-read the file. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../core/base/bigmem.h"
#include "../../core/base/name_cut.h"
#include "../../core/analysis/analysis.h"
#include "../../core/analysis/collections.h"
#include "../../core/analysis/dup_strings.h"
#include "../../core/analysis/roots.h"
#include "../../core/analysis/roots_shared.h"
#include "../../core/lfs/lfs.h"
#include "../../core/analysis/site_groups.h"
#include "../../core/analysis/suspects.h"
#include "fuzz.h"

/* Source places (V8's locations, .lfs PLAC): each names an object, in
 * strictly increasing order (lf_snapshot_place finds it), and its strings
 * read. A broken invariant aborts, which the fuzzer reports. */
static void fuzz_exercise_places(const struct lf_snapshot *s)
{
    for (uint32_t i = 0; i < s->place_count; i++) {
        const lf_place *p = &s->place[i];
        if (p->node >= s->object_count || lf_snapshot_place(s, p->node) != p)
            abort();
        lf_snapshot_string(s, p->name);
        lf_snapshot_string(s, p->script);
    }
}

/* The duplicate groups of every dump with texts (a mapped HPROF or V8
 * snapshot, an .lfs's STXT; in halves, as `strings` reads them) and each
 * kept text's preview, cut at whole UTF-8 sequences whatever the bytes. */
static void fuzz_exercise_texts(const struct lf_snapshot *s)
{
    lf_error err;
    lf_string_set set;
    if (!lf_strings_readable(s))
        return;
    if (lf_strings_find(s, 2, &set, &err) == 0)
        lf_strings_free(&set);
    char buf[4 * 40 + 8];
    uint64_t chars;
    for (uint32_t i = 0; i < s->text_count && i < 256; i++)
        lf_string_text(s, s->text[i].node, 40, buf, sizeof buf, &chars);
}

/* `roots`' rows (V8's synthetic levels expanded, what several roots hold
 * together added, repeats folded) with their names, and the tree's view of
 * the first objects that hold members (arrays, dictionaries, chain heads). */
static void fuzz_exercise_roots_and_members(const struct lf_snapshot *s)
{
    lf_error err;
    lf_root_row *rows = NULL;
    uint32_t *repeats = NULL;
    int64_t count = lf_root_rows(s, &rows, &err);
    if (count >= 0)
        count = lf_roots_add_shared(s, &rows, (uint64_t)count, 1, &err);
    if (count >= 0)
        count = lf_roots_folded(s, rows, (uint64_t)count, &repeats, &err);
    char buf[256];
    for (int64_t i = 0; i < count; i++) {
        lf_root_row_kind(s, &rows[i]);
        lf_root_row_name(s, &rows[i], buf, sizeof buf);
    }
    /* the first rows' names as `roots` shows them, several roots' included */
    size_t named = count > 64 ? 64 : count > 0 ? (size_t)count : 0;
    lf_shared_roots shared[64];
    if (named && lf_roots_shared_holders(s, rows, (uint64_t)count, named, shared, &err) == 0)
        for (size_t i = 0; i < named; i++)
            lf_shared_roots_text(s, rows, &shared[i], buf, sizeof buf);
    free(rows);
    free(repeats);
    for (uint32_t v = 0, asked = 0; v < s->object_count && asked < 64; v++) {
        if (s->idom[v] == LF_NODE_NONE || !lf_holds_members(s, v))
            continue;
        asked++;
        lf_collection_members m;
        if (lf_collection_members_of(s, v, &m) == 0) {
            /* as the tree shows them: the ones alone first, the rest by class */
            size_t shown = lf_collection_shown(s, &m, asked % 2 ? 10 : 0, asked % 3);
            if (shown > m.payload_count)
                abort();
            lf_group_payload(s, &m, shown);
            lf_collection_members_free(&m);
        }
    }
}

void fuzz_exercise_snapshot(struct lf_snapshot *s)
{
    lf_error err;
    if (lf_analyze(s, 0, 2, &err))
        return;
    lf_class_totals t;
    if (lf_class_totals_compute(s, &t, &err) == 0)
        lf_class_totals_free(&t);
    char label[256];
    for (uint32_t v = 0; v < s->object_count; v++) {
        if (s->idom[v] != LF_NODE_NONE && s->idom[v] != LF_NODE_SUPER) {
            uint64_t e = lf_snapshot_find_edge(s, s->idom[v], v);
            if (e != UINT64_MAX)
                lf_snapshot_edge_label(s, e, label, sizeof label);
        }
        lf_snapshot_class_name(s, s->object_class[v]);
    }
    /* the first objects' labels at once, as query and path --exclude read them */
    for (uint32_t v = 0; v < s->object_count && v < 64; v++) {
        uint64_t n = lf_snapshot_edges_end(s, v) - lf_snapshot_edges_begin(s, v);
        uint8_t *kind = malloc(n + 1);
        uint32_t *labels = malloc((n + 1) * sizeof *labels);
        if (kind && labels)
            lf_snapshot_node_edge_infos(s, v, kind, labels);
        free(kind);
        free(labels);
    }
    for (uint32_t r = 0; r < s->root_count; r++) {
        lf_snapshot_string(s, s->root[r].kind);
        lf_snapshot_string(s, s->root[r].name);
    }
    fuzz_exercise_places(s);
    fuzz_exercise_roots_and_members(s);
    fuzz_exercise_texts(s);
    fuzz_exercise_sites(s);
    fuzz_exercise_suspects(s);
}

/* Leak suspects at a low threshold (more findings), their paths and texts. */
void fuzz_exercise_suspects(const struct lf_snapshot *s)
{
    lf_error err;
    lf_suspect_list list = {0};
    if (lf_suspects_by_size(s, 0.01, NULL, &list, &err) == 0 && lf_suspect_paths(s, &list, &err) == 0) {
        char text[1024];
        for (size_t k = 0; k < list.count; k++)
            lf_suspect_path_text(s, &list.item[k], text, sizeof text);
    }
    lf_suspect_list_free(&list);
}

/* Allocation sites: every group's label (and its cut for a narrow column),
 * totals and (sampled) estimates. */
void fuzz_exercise_sites(const struct lf_snapshot *s)
{
    lf_error err;
    lf_site_groups g;
    /* sites: every object's stack ends, through frames that exist */
    for (uint32_t v = 0; s->object_site && v < s->object_count; v++)
        for (uint32_t site = s->object_site[v]; site != LF_SITE_NONE; site = s->site[site].caller) {
            if (site >= s->site_count || s->site[site].caller >= site || s->site[site].frame >= s->frame_count)
                abort();
            lf_snapshot_string(s, s->frame[s->site[site].frame].function);
        }
    if (!s->object_site || lf_site_groups_make(s, 2, &g, &err))
        return;
    uint32_t *group = lf_site_groups_of_nodes(s, &g);
    double *est = group ? malloc(((size_t)g.count + 1) * 2 * sizeof *est) : NULL;
    if (est) {
        lf_site_estimates(s, group, g.count, est, est + g.count);
        lf_class_totals t;
        if (lf_group_totals_compute(s, group, g.count, &t, &err) == 0)
            lf_class_totals_free(&t);
        char label[512], cut[512];
        for (uint32_t k = 0; k < g.count; k++) {
            size_t len = lf_site_label(s, g.site_of[k], 0, label, sizeof label), shown;
            /* as a narrow column cuts it: never wider than asked */
            for (size_t width = 4; k < 64 && width <= 64; width += 12)
                if (lf_name_cut(label, len < sizeof label ? len : sizeof label - 1, width, LF_CUT_SITE, cut,
                                sizeof cut, &shown) >= sizeof cut ||
                    shown > width)
                    abort();
        }
    }
    free(est);
    lf_big_free(group);
    lf_site_groups_free(&g);
}

int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("fuzz-input", 0);
    if (fd < 0)
        return -1;
    if (size && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}

void fuzz_open_file(const uint8_t *data, size_t size, fuzz_file_opener open_file)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path, sizeof path);
    if (fd < 0)
        return;
    lf_snapshot s;
    lf_error err;
    if (open_file(path, &s, &err) == 0) {
        fuzz_exercise_snapshot(&s);
        lf_snapshot_free(&s);
    }
    close(fd);
}
