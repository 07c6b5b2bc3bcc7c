/* big_classes.h - the classes of gen_hprof_big's dumps: the JDK classes the
 * BigHeap program (tests/bench/java/BigHeap.java) uses and its own, with
 * their HotSpot 17 field lists and their sizes in the VM (compressed oops:
 * 12-byte object header, 16-byte array header, 4-byte references, 8-byte
 * alignment). */
#ifndef LF_BIG_CLASSES_H
#define LF_BIG_CLASSES_H

#include <stdint.h>

#include "../unit/hprof_writer.h"

/* Index of a class in big_classes[]. */
enum big_class_index {
    BC_OBJECT, BC_CLASS, BC_STRING, BC_BYTES, BC_OBJECTS, BC_ABSTRACT_MAP, BC_HASHMAP,
    BC_NODE, BC_NODES, BC_ABSTRACT_COLLECTION, BC_ABSTRACT_LIST, BC_ARRAYLIST,
    BC_REFERENCE, BC_WEAKREF, BC_THREAD, BC_BIGHEAP, BC_VALUE, BC_TREE, BC_LINK, BC_CACHE,
    BC_COUNT
};

/* HPROF basic types */
enum { BT_OBJECT = 2, BT_BOOLEAN = 4, BT_FLOAT = 6, BT_BYTE = 8, BT_INT = 10, BT_LONG = 11 };

typedef struct big_field {
    uint8_t type;
    const char *name;
} big_field;

typedef struct big_class {
    const char *name;          /* as LOAD CLASS names it: java/util/HashMap$Node, [B */
    int super;                 /* index, or -1 for java.lang.Object */
    big_field fields[6];       /* own instance fields, in HotSpot's (reverse) order */
    const char *statics[3];    /* static reference fields */
    unsigned injected;         /* bytes the VM adds that the dump does not list */
} big_class;

extern const big_class big_classes[BC_COUNT];

/* The class object (mirror) id of class c. */
uint64_t big_class_id(int c);
/* Bytes of an INSTANCE DUMP's field data for class c (ids of big_id_size bytes). */
uint32_t big_instance_data(int c);
/* The dump's identifier size, 8 (HotSpot on 64 bits) or 4 (bo_start sets it). */
extern unsigned big_id_size;
/* An instance's size in the VM. */
uint64_t big_instance_size(int c);
/* A class object's size in the VM: a java.lang.Class with the statics. */
uint64_t big_mirror_size(int c);
/* An array's size in the VM: elements of elem_bytes each. */
uint64_t big_array_size(unsigned elem_bytes, uint64_t length);

/* STRING records for every name the classes use, then a LOAD CLASS each. */
void big_write_class_names(hw_buf *b);
/* The string id of a name big_write_class_names (or big_name_sid) wrote. */
uint64_t big_name_sid(hw_buf *b, const char *name);
/* CLASS DUMP of class c; static_values[i] is statics[i]'s value. */
void big_write_class_dump(hw_buf *b, int c, const uint64_t *static_values);

#endif
