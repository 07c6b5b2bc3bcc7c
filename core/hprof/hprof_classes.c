/* hprof_classes.c - class layouts, shallow sizes and reference semantics.
 *
 * Shallow sizes follow the VM (DESIGN section 2), so per-class bytes match the
 * JVM's own class histogram:
 *  - HotSpot (1.0.1, 1.0.2): header 12 bytes with compressed class pointers
 *    (16 without), references 4 bytes with compressed oops (8 without), sizes
 *    aligned to 8. Since JDK 15 fields fill the gaps the header and the
 *    superclasses leave, so an instance is align8(header + the sum of its field
 *    sizes over the superclass chain). The dump does not say which model the
 *    VM used; hprof_detect_vm_model votes on the gaps between consecutive
 *    array addresses (objects are written in address order).
 *  - The dump lacks fields the VM injects and @Contended padding: a table
 *    (vm_injected_fields) adds them for the JDK 17 classes that have them.
 *  - A class object (mirror) is a java.lang.Class instance with the class's
 *    static fields after it, laid out as the VM does (hprof_mirror_shallow).
 *  - ART (1.0.3): the CLASS DUMP's instance size is the object's real size.
 */
#include <stdlib.h>
#include <string.h>

#include "hprof.h"
#include "hprof_internal.h"
#include "../base/vec.h"

uint64_t hprof_array_shallow(const hprof_reader *r, uint64_t length, unsigned elem_size)
{
    uint64_t a = r->alignment;
    uint64_t size = r->array_header_size + length * elem_size;
    return (size + a - 1) / a * a;
}

/* Fields HotSpot injects into JDK classes (javaClasses.hpp, the
 * *_INJECTED_FIELDS macros): the VM lays them out with the declared fields,
 * but the heap dump's field lists leave them out. Each entry counts the
 * class's own injected references (4 or 8 bytes) and primitive bytes
 * (intptr_t is 8 on 64-bit). The set is JDK 17's; see docs/HPROF.md for
 * JDK 11 and 21. Classes that exist only in later JDKs (StackChunk, 19+)
 * can only match there. */
typedef struct vm_injected {
    const char *class_name;
    unsigned refs;
    unsigned prim_bytes;
} vm_injected;

static const vm_injected vm_injected_fields[] = {
    {"java.lang.String", 0, 1},                    /* flags (byte) */
    {"java.lang.Class", 3, 8 + 8 + 4 + 4},         /* protection_domain, signers, source_file;
                                                    * klass, array_klass, oop_size,
                                                    * static_oop_field_count */
    {"java.lang.ClassLoader", 0, 8},               /* loader_data */
    {"java.lang.Module", 0, 8},                    /* module_entry */
    {"java.lang.invoke.ResolvedMethodName", 1, 8}, /* vmholder; vmtarget */
    {"java.lang.invoke.MemberName", 0, 8},         /* vmindex */
    {"java.lang.invoke.MethodHandleNatives$CallSiteContext", 0, 8 + 8}, /* vmdependencies,
                                                                          * last_cleanup */
    {"java.lang.StackFrameInfo", 0, 2},            /* version (short) */
    {"java.lang.InternalError", 0, 1},             /* during_unsafe_access */
    {"jdk.internal.vm.StackChunk", 1, 1 + 8 + 4},  /* cont; flags, pc, maxThawingSize */
};

/* Not a field: @Contended("tlr") on Thread's ThreadLocalRandom fields puts
 * 128 bytes of padding on each side of them (JDK 17). */
static const char contended_class[] = "java.lang.Thread";
static const unsigned contended_padding = 256;

static int name_is(const hprof_reader *r, uint32_t class_index, const char *name);

/* Bytes the dump's field lists miss for an instance of class_index: the
 * injected fields of every class on its superclass chain, and padding. */
static uint64_t extra_bytes_for(const hprof_reader *r, uint32_t class_index)
{
    if (r->version_minor == 3)
        return 0;
    uint64_t bytes = 0;
    for (uint32_t c = class_index, depth = 0; c != HPROF_NONE && depth < r->class_count;
         c = r->classes[c].super_index, depth++) {
        for (size_t i = 0; i < sizeof vm_injected_fields / sizeof vm_injected_fields[0]; i++)
            if (name_is(r, c, vm_injected_fields[i].class_name))
                bytes += vm_injected_fields[i].prim_bytes +
                         (uint64_t)vm_injected_fields[i].refs * r->ref_size;
        if (name_is(r, c, contended_class))
            bytes += contended_padding;
    }
    return bytes;
}

static int is_subclass_of(const hprof_reader *r, uint32_t c, uint32_t ancestor)
{
    for (uint32_t depth = 0; c != HPROF_NONE && depth <= r->class_count; depth++) {
        if (c == ancestor)
            return 1;
        c = r->classes[c].super_index;
    }
    return 0;
}

static uint32_t class_named(const hprof_reader *r, const char *name)
{
    int64_t s = lf_strtab_find(&r->strings, name, strlen(name));
    if (s < 0)
        return HPROF_NONE;
    for (size_t c = 0; c < r->class_count; c++)
        if (r->classes[c].name == (uint32_t)s)
            return (uint32_t)c;
    return HPROF_NONE;
}

/* Reads a class's own instance fields: appends its reference fields (offsets
 * within its own part) and returns the own part's data and primitive bytes. */
static int own_fields(hprof_reader *r, hprof_class *k, uint32_t *data_size, uint32_t *prim_bytes,
                      uint32_t *ref_begin)
{
    hprof_cursor c = {r->data, k->fields_at, r->size};
    uint16_t n = hprof_u2(&c); /* bounds were checked when the record was read */
    uint32_t at = 0, prim = 0;
    *ref_begin = (uint32_t)r->ref_field_count;
    int64_t referent = lf_strtab_intern(&r->strings, "referent", 8);
    for (uint16_t i = 0; i < n; i++) {
        uint64_t name_sid = hprof_id(&c, r->id_size);
        uint8_t type = hprof_u1(&c);
        unsigned size = hprof_type_size(type, r->id_size);
        if (hprof_type_is_ref(type)) {
            if (lf_vec_reserve((void **)&r->ref_fields, &r->ref_field_cap, r->ref_field_count + 1,
                               sizeof *r->ref_fields))
                return lf_fail_nomem(r->err, "reading classes");
            int64_t name = hprof_intern_sid(r, name_sid);
            if (name < 0)
                return lf_fail_nomem(r->err, "reading classes");
            hprof_ref_field *f = &r->ref_fields[r->ref_field_count++];
            f->offset = at;
            f->name = (uint32_t)name;
            f->weak = referent >= 0 && name == referent; /* refined per class below */
        } else {
            prim += size;
        }
        at += size;
    }
    *data_size = at;
    *prim_bytes = prim;
    return 0;
}

static int name_is(const hprof_reader *r, uint32_t class_index, const char *name)
{
    uint64_t off = r->strings.offset[r->classes[class_index].name];
    uint64_t len = r->strings.offset[r->classes[class_index].name + 1] - off;
    return strlen(name) == len && memcmp(name, r->strings.bytes + off, len) == 0;
}

static uint64_t fields_bytes(const hprof_reader *r, const hprof_class *k)
{
    return k->prim_bytes + (uint64_t)k->ref_count * r->ref_size;
}

void hprof_class_sizes(hprof_reader *r)
{
    const uint64_t a = r->alignment;
    for (size_t i = 0; i < r->class_count; i++) {
        hprof_class *k = &r->classes[i];
        if (r->version_minor == 3) {
            k->shallow = k->instance_size;
            continue;
        }
        uint64_t size = r->header_size + fields_bytes(r, k) + extra_bytes_for(r, (uint32_t)i);
        /* Below a @Contended ancestor S, whose padding the VM does not let
         * subclass fields fill: S's aligned size, then the fields added since. */
        uint32_t c = k->super_index;
        for (uint32_t depth = 0; c != HPROF_NONE && depth < r->class_count; depth++) {
            if (name_is(r, c, contended_class)) {
                const hprof_class *sk = &r->classes[c];
                uint64_t sealed_size = r->header_size + fields_bytes(r, sk) + extra_bytes_for(r, c);
                sealed_size = (sealed_size + a - 1) / a * a;
                size = sealed_size + fields_bytes(r, k) - fields_bytes(r, sk);
                break;
            }
            c = r->classes[c].super_index;
        }
        k->shallow = (size + a - 1) / a * a;
    }
}

/* Each class's superclass by index, and the classes the graph treats apart. */
static void link_superclasses(hprof_reader *r)
{
    for (size_t i = 0; i < r->class_count; i++) {
        hprof_class *k = &r->classes[i];
        PWord_t slot;
        JLG(slot, r->class_index, (Word_t)k->super_id);
        k->super_index = k->super_id && slot ? (uint32_t)(*slot - 1) : HPROF_NONE;
    }
    r->class_class = class_named(r, "java.lang.Class");
    r->reference_class = class_named(r, "java.lang.ref.Reference");
    r->soft_reference_class = class_named(r, "java.lang.ref.SoftReference");
}

/* One class's layout, its superclass's being known: own fields first, then
 * the superclass's shifted past them (the order of instance data). */
static int lay_out_class(hprof_reader *r, hprof_class *k)
{
    uint32_t own_size = 0, own_prim = 0, own_begin = 0;
    if (own_fields(r, k, &own_size, &own_prim, &own_begin))
        return -1;
    uint32_t own_refs = (uint32_t)r->ref_field_count - own_begin;
    const hprof_class *super = k->super_index != HPROF_NONE ? &r->classes[k->super_index] : NULL;
    if (super) {
        if (lf_vec_reserve((void **)&r->ref_fields, &r->ref_field_cap,
                           r->ref_field_count + super->ref_count, sizeof *r->ref_fields))
            return lf_fail_nomem(r->err, "reading classes");
        for (uint32_t f = 0; f < super->ref_count; f++) {
            hprof_ref_field copy = r->ref_fields[super->ref_start + f];
            copy.offset += own_size;
            r->ref_fields[r->ref_field_count++] = copy;
        }
    }
    k->ref_start = own_begin;
    k->ref_count = own_refs + (super ? super->ref_count : 0);
    k->data_size = own_size + (super ? super->data_size : 0);
    k->prim_bytes = own_prim + (super ? super->prim_bytes : 0);
    k->resolved = 1;
    return 0;
}

/* Flattens each class's reference fields over its superclass chain. A
 * chain is walked up with an explicit stack, never recursively; a cycle in
 * a corrupt dump is cut at the class count. */
static int lay_out_classes(hprof_reader *r)
{
    uint32_t *stack = malloc((r->class_count + 1) * sizeof *stack);
    if (!stack)
        return lf_fail_nomem(r->err, "reading classes");
    for (size_t i = 0; i < r->class_count; i++) {
        size_t top = 0;
        uint32_t c = (uint32_t)i;
        while (c != HPROF_NONE && !r->classes[c].resolved && top <= r->class_count) {
            stack[top++] = c;
            r->classes[c].resolved = 2; /* on the stack: a cycle stops here */
            c = r->classes[c].super_index;
        }
        if (c != HPROF_NONE && r->classes[c].resolved == 2) {
            r->warnings++; /* superclass cycle: break it */
            r->classes[stack[top - 1]].super_index = HPROF_NONE;
        }
        while (top > 0)
            if (lay_out_class(r, &r->classes[stack[--top]])) {
                free(stack);
                return -1;
            }
    }
    free(stack);
    return 0;
}

/* Which referent fields are weak: only Reference's own, and only under the
 * chosen semantics (soft or all references may count as strong). */
static void mark_weak_referents(hprof_reader *r)
{
    for (size_t i = 0; i < r->class_count; i++) {
        hprof_class *k = &r->classes[i];
        int is_ref = r->reference_class != HPROF_NONE && is_subclass_of(r, (uint32_t)i, r->reference_class);
        int strong = !is_ref || (r->flags & LF_HPROF_ALL_STRONG) ||
                     ((r->flags & LF_HPROF_SOFT_STRONG) && r->soft_reference_class != HPROF_NONE &&
                      is_subclass_of(r, (uint32_t)i, r->soft_reference_class));
        uint32_t reference_own_start = 0;
        if (is_ref) { /* Reference's own fields are the last part of the data */
            const hprof_class *ref = &r->classes[r->reference_class];
            reference_own_start = k->data_size - ref->data_size;
        }
        for (uint32_t f = 0; f < k->ref_count; f++) {
            hprof_ref_field *field = &r->ref_fields[k->ref_start + f];
            field->weak = field->weak && !strong && field->offset >= reference_own_start;
        }
    }
}

int hprof_resolve_classes(hprof_reader *r)
{
    link_superclasses(r);
    if (lay_out_classes(r))
        return -1;
    mark_weak_referents(r);
    hprof_class_sizes(r);
    return 0;
}

int hprof_link_array_classes(hprof_reader *r)
{
    Pvoid_t by_name = NULL; /* name string -> class index + 1 (first with that name) */
    int rc = 0;
    for (size_t i = 0; i < r->class_count; i++) {
        r->classes[i].array_class = HPROF_NONE;
        PWord_t slot;
        JLI(slot, by_name, (Word_t)r->classes[i].name);
        if (slot == PJERR) {
            rc = lf_fail_nomem(r->err, "reading classes");
            goto out;
        }
        if (!*slot)
            *slot = i + 1;
    }
    for (size_t i = 0; i < r->class_count; i++) {
        const hprof_class *k = &r->classes[i];
        uint64_t off = r->strings.offset[k->name], len = r->strings.offset[k->name + 1] - off;
        const char *name = r->strings.bytes + off;
        if (len < 3 || memcmp(name + len - 2, "[]", 2) != 0)
            continue;
        int64_t element = lf_strtab_find(&r->strings, name, len - 2);
        if (element < 0)
            continue;
        PWord_t slot;
        JLG(slot, by_name, (Word_t)element);
        if (!slot)
            continue;
        uint32_t e = (uint32_t)(*slot - 1);
        if (r->classes[e].loader_id != k->loader_id) { /* same name, other loaders: rare */
            e = HPROF_NONE;
            for (size_t j = 0; j < r->class_count; j++)
                if (r->classes[j].name == (uint32_t)element && r->classes[j].loader_id == k->loader_id) {
                    e = (uint32_t)j;
                    break;
                }
        }
        if (e != HPROF_NONE && e != i && r->classes[e].array_class == HPROF_NONE)
            r->classes[e].array_class = (uint32_t)i;
    }
out:;
    Word_t freed;
    JLFA(freed, by_name);
    (void)freed;
    return rc;
}

/* A class object's size in the VM: a java.lang.Class instance, then the
 * class's static fields. HotSpot puts the static references first, one after
 * the other, then appends the primitives from the largest to the smallest,
 * each aligned to its size (so a long after an odd number of compressed
 * references costs 4 bytes of padding). The dump also lists values that are
 * not static fields, named "<resolved_references>", "<init_lock>" and so on:
 * they live elsewhere (the constant pool, the mirror's own fields) and take no
 * space here. ART: the Class instance plus the static fields as listed. */
uint64_t hprof_mirror_shallow(const hprof_reader *r, const hprof_class *k)
{
    const int hotspot = r->version_minor != 3;
    uint64_t size = r->class_class != HPROF_NONE ? r->classes[r->class_class].shallow : 0;
    uint64_t refs = 0, prims_of_size[9] = {0};
    hprof_cursor c = {r->data, k->statics_at, r->size};
    uint16_t n = hprof_u2(&c); /* bounds were checked when the record was read */
    for (uint16_t i = 0; i < n; i++) {
        uint64_t name_sid = hprof_id(&c, r->id_size);
        uint8_t type = hprof_u1(&c);
        unsigned s = hprof_type_size(type, r->id_size);
        c.pos += s;
        uint32_t len = 0;
        const uint8_t *name = hotspot ? hprof_string(r, name_sid, &len) : NULL;
        if (name && len > 0 && name[0] == '<')
            continue; /* a pseudo-static */
        if (hprof_type_is_ref(type))
            refs++;
        else if (s <= 8)
            prims_of_size[s]++;
    }
    size += refs * r->ref_size;
    for (unsigned s = 8; s >= 1; s /= 2) {
        if (hotspot && prims_of_size[s])
            size = (size + s - 1) / s * s;
        size += prims_of_size[s] * s;
    }
    return (size + r->alignment - 1) / r->alignment * r->alignment;
}
