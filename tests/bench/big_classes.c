/* big_classes.c - the classes of gen_hprof_big's dumps and their sizes. */
#include "big_classes.h"

#include <string.h>

#define L BT_OBJECT
#define Z BT_BOOLEAN
#define F BT_FLOAT
#define B BT_BYTE
#define I BT_INT
#define J BT_LONG

/* Field lists as HotSpot 17 writes them (its order is the reverse of the
 * declarations); java.lang.Thread keeps a few of its fields only. */
const big_class big_classes[BC_COUNT] = {
    [BC_OBJECT] = {"java/lang/Object", -1, {{0}}, {0}, 0},
    [BC_CLASS] = {"java/lang/Class", BC_OBJECT, {{0}}, {0},
                  3 * 4 + 8 + 8 + 4 + 4 /* 3 references, 2 intptr_t, 2 ints */},
    [BC_STRING] = {"java/lang/String", BC_OBJECT,
                   {{Z, "hashIsZero"}, {I, "hash"}, {B, "coder"}, {L, "value"}}, {0}, 1 /* flags */},
    [BC_BYTES] = {"[B", BC_OBJECT, {{0}}, {0}, 0},
    [BC_OBJECTS] = {"[Ljava/lang/Object;", BC_OBJECT, {{0}}, {0}, 0},
    [BC_ABSTRACT_MAP] = {"java/util/AbstractMap", BC_OBJECT, {{L, "values"}, {L, "keySet"}}, {0}, 0},
    [BC_HASHMAP] = {"java/util/HashMap", BC_ABSTRACT_MAP,
                    {{F, "loadFactor"}, {I, "threshold"}, {I, "modCount"}, {I, "size"},
                     {L, "entrySet"}, {L, "table"}}, {0}, 0},
    [BC_NODE] = {"java/util/HashMap$Node", BC_OBJECT,
                 {{L, "next"}, {L, "value"}, {L, "key"}, {I, "hash"}}, {0}, 0},
    [BC_NODES] = {"[Ljava/util/HashMap$Node;", BC_OBJECT, {{0}}, {0}, 0},
    [BC_ABSTRACT_COLLECTION] = {"java/util/AbstractCollection", BC_OBJECT, {{0}}, {0}, 0},
    [BC_ABSTRACT_LIST] = {"java/util/AbstractList", BC_ABSTRACT_COLLECTION, {{I, "modCount"}}, {0}, 0},
    [BC_ARRAYLIST] = {"java/util/ArrayList", BC_ABSTRACT_LIST, {{I, "size"}, {L, "elementData"}}, {0}, 0},
    [BC_REFERENCE] = {"java/lang/ref/Reference", BC_OBJECT,
                      {{L, "discovered"}, {L, "next"}, {L, "queue"}, {L, "referent"}}, {0}, 0},
    [BC_WEAKREF] = {"java/lang/ref/WeakReference", BC_REFERENCE, {{0}}, {0}, 0},
    [BC_THREAD] = {"java/lang/Thread", BC_OBJECT,
                   {{Z, "daemon"}, {I, "priority"}, {J, "tid"}, {L, "name"}}, {0},
                   256 /* @Contended padding around the ThreadLocalRandom fields */},
    [BC_BIGHEAP] = {"BigHeap", BC_OBJECT, {{0}}, {"ROOTS", "POPULAR"}, 0},
    [BC_VALUE] = {"BigHeap$Value", BC_OBJECT,
                  {{L, "other"}, {L, "ref"}, {J, "stamp"}, {I, "id"}}, {0}, 0},
    [BC_TREE] = {"BigHeap$Tree", BC_OBJECT,
                 {{L, "payload"}, {I, "key"}, {L, "parent"}, {L, "right"}, {L, "left"}}, {0}, 0},
    [BC_LINK] = {"BigHeap$Link", BC_OBJECT, {{I, "value"}, {L, "next"}}, {0}, 0},
    [BC_CACHE] = {"BigHeap$Cache", BC_OBJECT, {{0}}, {"ENTRIES"}, 0},
};

/* Class objects lie below the heap, 1 KiB apart. */
uint64_t big_class_id(int c) { return 0xff000000ull + ((uint64_t)c << 10); }

static unsigned type_bytes(uint8_t type, unsigned ref_bytes)
{
    switch (type) {
    case L: return ref_bytes;
    case Z: case B: return 1;
    case I: case F: return 4;
    default: return 8;
    }
}

/* Sum of the field sizes over the superclass chain, references ref_bytes. */
static uint64_t chain_bytes(int c, unsigned ref_bytes)
{
    uint64_t sum = 0;
    for (; c >= 0; c = big_classes[c].super)
        for (const big_field *f = big_classes[c].fields; f < big_classes[c].fields + 6 && f->name; f++)
            sum += type_bytes(f->type, ref_bytes);
    return sum;
}

static uint64_t align8(uint64_t n) { return (n + 7) & ~7ull; }

unsigned big_id_size = 8;

uint32_t big_instance_data(int c) { return (uint32_t)chain_bytes(c, big_id_size); }

uint64_t big_instance_size(int c)
{
    uint64_t injected = 0;
    for (int k = c; k >= 0; k = big_classes[k].super)
        injected += big_classes[k].injected;
    return align8((big_id_size == 4 ? 8 : 12) + chain_bytes(c, 4) + injected); /* a 32-bit VM's header */
}

static unsigned static_count(int c)
{
    unsigned n = 0;
    while (n < 3 && big_classes[c].statics[n])
        n++;
    return n;
}

/* The statics (references only here) follow the Class instance. */
uint64_t big_mirror_size(int c) { return align8(big_instance_size(BC_CLASS) + 4 * static_count(c)); }

uint64_t big_array_size(unsigned elem_bytes, uint64_t length)
{
    return align8((big_id_size == 4 ? 12 : 16) + elem_bytes * length);
}

/* Names written so far, and their string ids (1, 2, ...). */
static const char *written_names[128];
static unsigned written_count;

uint64_t big_name_sid(hw_buf *b, const char *name)
{
    for (unsigned i = 0; i < written_count; i++)
        if (strcmp(written_names[i], name) == 0)
            return i + 1;
    if (written_count == sizeof written_names / sizeof written_names[0])
        return 0; /* not reached: the table holds every name the classes use */
    written_names[written_count++] = name;
    hw_string(b, written_count, name);
    return written_count;
}

void big_write_class_names(hw_buf *b)
{
    for (int c = 0; c < BC_COUNT; c++) {
        big_name_sid(b, big_classes[c].name);
        for (const big_field *f = big_classes[c].fields; f < big_classes[c].fields + 6 && f->name; f++)
            big_name_sid(b, f->name);
        for (unsigned i = 0; i < static_count(c); i++)
            big_name_sid(b, big_classes[c].statics[i]);
    }
    for (int c = 0; c < BC_COUNT; c++)
        hw_load_class(b, (uint32_t)c + 1, big_class_id(c), big_name_sid(b, big_classes[c].name));
}

/* Loader 0 (bootstrap) for all: the statics are then roots, as an
 * application class loader's would be. */
void big_write_class_dump(hw_buf *b, int c, const uint64_t *static_values)
{
    const big_class *k = &big_classes[c];
    hw_u1(b, 0x20);
    hw_id(b, big_class_id(c));
    hw_u4(b, b->trace_serial);
    hw_id(b, k->super >= 0 ? big_class_id(k->super) : 0);
    for (int i = 0; i < 5; i++)
        hw_id(b, 0); /* loader, signers, protection domain, reserved x2 */
    hw_u4(b, big_instance_data(c));
    hw_u2(b, 0); /* constant pool */
    hw_u2(b, (uint16_t)static_count(c));
    for (unsigned i = 0; i < static_count(c); i++) {
        hw_id(b, big_name_sid(b, k->statics[i]));
        hw_u1(b, L);
        hw_id(b, static_values[i]);
    }
    uint16_t nfields = 0;
    while (nfields < 6 && k->fields[nfields].name)
        nfields++;
    hw_u2(b, nfields);
    for (uint16_t i = 0; i < nfields; i++) {
        hw_id(b, big_name_sid(b, k->fields[i].name));
        hw_u1(b, k->fields[i].type);
    }
}

#undef L
#undef Z
#undef F
#undef B
#undef I
#undef J
