/* hprof_format.h - HPROF tags and basic types (fixtures/java/HPROF-NOTES.md). */
#ifndef LF_HPROF_FORMAT_H
#define LF_HPROF_FORMAT_H

enum hprof_tag {
    HPROF_STRING = 0x01,
    HPROF_LOAD_CLASS = 0x02,
    HPROF_UNLOAD_CLASS = 0x03,
    HPROF_STACK_FRAME = 0x04,
    HPROF_STACK_TRACE = 0x05,
    HPROF_ALLOC_SITES = 0x06,
    HPROF_HEAP_SUMMARY = 0x07,
    HPROF_START_THREAD = 0x0a,
    HPROF_END_THREAD = 0x0b,
    HPROF_HEAP_DUMP = 0x0c,
    HPROF_CPU_SAMPLES = 0x0d,
    HPROF_CONTROL_SETTINGS = 0x0e,
    HPROF_HEAP_DUMP_SEGMENT = 0x1c,
    HPROF_HEAP_DUMP_END = 0x2c,
};

enum hprof_sub_tag {
    HPROF_ROOT_UNKNOWN = 0xff,
    HPROF_ROOT_JNI_GLOBAL = 0x01,
    HPROF_ROOT_JNI_LOCAL = 0x02,
    HPROF_ROOT_JAVA_FRAME = 0x03,
    HPROF_ROOT_NATIVE_STACK = 0x04,
    HPROF_ROOT_STICKY_CLASS = 0x05,
    HPROF_ROOT_THREAD_BLOCK = 0x06,
    HPROF_ROOT_MONITOR_USED = 0x07,
    HPROF_ROOT_THREAD_OBJECT = 0x08,
    HPROF_CLASS_DUMP = 0x20,
    HPROF_INSTANCE_DUMP = 0x21,
    HPROF_OBJ_ARRAY_DUMP = 0x22,
    HPROF_PRIM_ARRAY_DUMP = 0x23,
    /* Android (ART) */
    HPROF_ROOT_INTERNED_STRING = 0x89,
    HPROF_ROOT_FINALIZING = 0x8a,
    HPROF_ROOT_DEBUGGER = 0x8b,
    HPROF_ROOT_REFERENCE_CLEANUP = 0x8c,
    HPROF_ROOT_VM_INTERNAL = 0x8d,
    HPROF_ROOT_JNI_MONITOR = 0x8e,
    HPROF_UNREACHABLE = 0x90,
    HPROF_PRIM_ARRAY_NODATA = 0xc3,
    HPROF_HEAP_DUMP_INFO = 0xfe,
};

enum hprof_type {
    HPROF_ARRAY_OBJECT = 1,
    HPROF_OBJECT = 2,
    HPROF_BOOLEAN = 4,
    HPROF_CHAR = 5,
    HPROF_FLOAT = 6,
    HPROF_DOUBLE = 7,
    HPROF_BYTE = 8,
    HPROF_SHORT = 9,
    HPROF_INT = 10,
    HPROF_LONG = 11,
};

/* Size of a value of type t (references: id_size); 0 for an unknown type. */
static inline unsigned hprof_type_size(unsigned t, unsigned id_size)
{
    switch (t) {
    case HPROF_ARRAY_OBJECT:
    case HPROF_OBJECT: return id_size;
    case HPROF_BOOLEAN:
    case HPROF_BYTE: return 1;
    case HPROF_CHAR:
    case HPROF_SHORT: return 2;
    case HPROF_FLOAT:
    case HPROF_INT: return 4;
    case HPROF_DOUBLE:
    case HPROF_LONG: return 8;
    default: return 0;
    }
}

static inline int hprof_type_is_ref(unsigned t)
{
    return t == HPROF_OBJECT || t == HPROF_ARRAY_OBJECT;
}

#endif
