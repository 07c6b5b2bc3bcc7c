/* hprof_roots.c - the dump's roots as the graph has them: thread-local ones
 * counted as edges of their thread, the others named, and the static fields
 * of classes the VM never unloads. */
#include <stdio.h>
#include <string.h>

#include "../base/bigmem.h"
#include "../base/vec.h"
#include "hprof_passes.h"

static int is_thread_local(uint8_t tag)
{
    return tag == HPROF_ROOT_JAVA_FRAME || tag == HPROF_ROOT_JNI_LOCAL ||
           tag == HPROF_ROOT_NATIVE_STACK || tag == HPROF_ROOT_THREAD_BLOCK ||
           tag == HPROF_ROOT_JNI_MONITOR;
}

static int64_t thread_local_label(hprof_reader *r, const hprof_root *root)
{
    const char *prefix = root->tag == HPROF_ROOT_JAVA_FRAME ? ""
                         : root->tag == HPROF_ROOT_JNI_LOCAL ? "JNI local"
                         : root->tag == HPROF_ROOT_JNI_MONITOR ? "JNI monitor"
                         : root->tag == HPROF_ROOT_NATIVE_STACK ? "native stack"
                                                                : "thread block";
    return hprof_frame_label(r, root->thread_serial, root->frame, prefix);
}

/* Loaders whose classes the VM never unloads (JDK 9+, JDK 8, Android). */
static const char *const system_loaders[] = {
    "jdk.internal.loader.ClassLoaders$AppClassLoader",
    "jdk.internal.loader.ClassLoaders$PlatformClassLoader",
    "jdk.internal.loader.ClassLoaders$BootClassLoader",
    "sun.misc.Launcher$AppClassLoader",
    "sun.misc.Launcher$ExtClassLoader",
    "dalvik.system.PathClassLoader",
    "java.lang.BootClassLoader",
};

static int is_system_loader(const hprof_reader *r, const node_tables *t, uint64_t loader_id)
{
    if (loader_id == 0)
        return 1; /* the bootstrap loader */
    uint32_t node = node_of(t, loader_id);
    if (node == LF_NODE_NONE || t->class_of[node] >= r->class_count)
        return 0;
    uint32_t name = r->classes[t->class_of[node]].name;
    uint64_t off = r->strings.offset[name], len = r->strings.offset[name + 1] - off;
    for (size_t i = 0; i < sizeof system_loaders / sizeof system_loaders[0]; i++)
        if (strlen(system_loaders[i]) == len && memcmp(system_loaders[i], r->strings.bytes + off, len) == 0)
            return 1;
    return 0;
}

/* The static fields of classes from those loaders are roots named "static
 * field com.acme.Registry.listeners", as leak finders name them: what such a
 * field holds stays until the field changes. Statics of classes from other
 * loaders are not roots, so a leaked class loader still owns its classes and
 * what their statics hold. */
static int add_static_roots(hprof_reader *r, node_tables *t, lf_root **roots, size_t *count,
                            size_t *cap)
{
    int64_t kind = lf_strtab_intern(&r->strings, "static field", 12);
    if (kind < 0)
        return lf_fail_nomem(r->err, "reading roots");
    char name[1200];
    for (size_t k = 0; k < r->class_count; k++) {
        if (t->class_node[k] == LF_NODE_NONE || !is_system_loader(r, t, r->classes[k].loader_id))
            continue;
        uint64_t coff = r->strings.offset[r->classes[k].name];
        uint64_t clen = r->strings.offset[r->classes[k].name + 1] - coff;
        hprof_cursor c = {r->data, r->classes[k].statics_at, r->size};
        uint16_t n = hprof_u2(&c); /* checked in pass 1 */
        for (uint16_t i = 0; i < n; i++) {
            uint64_t sid = hprof_id(&c, r->id_size);
            uint8_t type = hprof_u1(&c);
            if (!hprof_type_is_ref(type)) {
                c.pos += hprof_type_size(type, r->id_size);
                continue;
            }
            uint32_t node = node_of(t, hprof_id(&c, r->id_size));
            if (node == LF_NODE_NONE)
                continue; /* null, or dangling (counted with the class's edges) */
            uint32_t flen = 0;
            const uint8_t *field = hprof_string(r, sid, &flen);
            int m = snprintf(name, sizeof name, "%.*s.%.*s", (int)(clen > 800 ? 800 : clen),
                             r->strings.bytes + coff, field ? (int)(flen > 300 ? 300 : flen) : 1,
                             field ? (const char *)field : "?");
            int64_t str = lf_strtab_intern(&r->strings, name, (size_t)m);
            if (str < 0 || lf_vec_reserve((void **)roots, cap, *count + 1, sizeof **roots))
                return lf_fail_nomem(r->err, "reading roots");
            (*roots)[(*count)++] = (lf_root){node, (uint32_t)kind, (uint32_t)str, 0};
        }
    }
    return 0;
}

/* What a root is called: a thread by its name, a thread-local root by its
 * frame, a sticky class by its class; 0 ("") otherwise, -1 out of memory. */
static int64_t root_name(hprof_read *h, const hprof_root *root)
{
    hprof_reader *r = &h->r;
    if (root->tag == HPROF_ROOT_THREAD_OBJECT) {
        char buf[THREAD_NAME_BYTES];
        size_t len = hprof_thread_name(r, &h->t, root->id, buf, sizeof buf);
        PWord_t sid;
        JLG(sid, r->thread_name_sid, (Word_t)root->thread_serial);
        uint32_t sid_len = 0;
        const uint8_t *s_name = sid ? hprof_string(r, *sid, &sid_len) : NULL;
        if (len == 0 && s_name) /* no readable name field: START THREAD's */
            len = (size_t)snprintf(buf, sizeof buf, "%.*s", (int)(sid_len > 500 ? 500 : sid_len),
                                   (const char *)s_name);
        return lf_strtab_intern(&r->strings, buf, len);
    }
    if (is_thread_local(root->tag)) {
        char prefix[64];
        snprintf(prefix, sizeof prefix, "thread serial %u", root->thread_serial);
        return hprof_frame_label(r, root->thread_serial, root->frame, prefix);
    }
    if (root->tag == HPROF_ROOT_STICKY_CLASS) {
        uint32_t k = hprof_class_of_id(r, root->id);
        return k != HPROF_NONE ? r->classes[k].name : 0;
    }
    return 0;
}

/* Roots: thread-local ones hang under their thread when it is known (one
 * more edge for the thread, labelled by the frame); the others are roots,
 * then the static fields that count as roots. */
int hprof_gather_roots(hprof_read *h)
{
    hprof_reader *r = &h->r;
    h->roots = lf_big_malloc((r->root_count + 1) * sizeof *h->roots);
    h->thread_label = lf_big_malloc((r->root_count + 1) * sizeof *h->thread_label);
    if (!h->roots || !h->thread_label)
        return lf_fail_nomem(h->err, "reading roots");
    for (size_t i = 0; i < r->root_count; i++) {
        const hprof_root *root = &r->roots[i];
        h->thread_label[i] = -1;
        uint32_t obj = node_of(&h->t, root->id);
        if (obj == LF_NODE_NONE) {
            h->out->stats.dangling_roots++;
            continue;
        }
        if (is_thread_local(root->tag)) {
            uint32_t thread = thread_node(r, &h->t, root->thread_serial);
            if (thread != LF_NODE_NONE) {
                h->thread_label[i] = thread_local_label(r, root);
                if (h->thread_label[i] < 0)
                    return lf_fail_nomem(h->err, "reading roots");
                lf_edge_offsets_mut *counts = &h->t.edge_offset;
                uint64_t count = lf_edge_offsets_get(counts, thread);
                if (counts->narrow && count == UINT32_MAX && lf_edge_offsets_widen(counts, (uint32_t)r->id_count))
                    return lf_fail_nomem(h->err, "reading roots");
                lf_edge_offsets_set(counts, thread, count + 1);
                continue;
            }
        }
        const char *kind_name = hprof_root_kind_name(root->tag);
        int64_t kind = lf_strtab_intern(&r->strings, kind_name, strlen(kind_name));
        int64_t name = root_name(h, root);
        if (kind < 0 || name < 0)
            return lf_fail_nomem(h->err, "reading roots");
        h->roots[h->root_count++] = (lf_root){obj, (uint32_t)kind, (uint32_t)name, 0};
    }
    h->root_cap = r->root_count + 1;
    return add_static_roots(r, &h->t, &h->roots, &h->root_count, &h->root_cap);
}
