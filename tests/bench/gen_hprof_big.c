/* gen_hprof_big.c - writes a JVM heap dump (HPROF 1.0.2, 8-byte ids or 4,
 * the records HotSpot 17 writes) of any number of objects in the shape of
 * tests/bench/java/BigHeap.java: hash maps of strings to values, array lists,
 * trees with parent links, long chains, weak references, popular objects
 * shared by many, and the list of all of them (one big array). For the
 * scale stage of `make bench` (issue 23): dumps larger than the machine,
 * written in constant memory (a unit's plan at a time; only the big array's
 * element ids go through a temporary file) and deterministic for a seed.
 *
 * Also a planted structure whose retained size is known by construction:
 * static field BigHeap$Cache.ENTRIES holds a HashMap of PLANTED entries that
 * nothing else refers to: map 48 + table 16 + 4 * capacity (16 doubled while
 * PLANTED > 3/4 of it) + per entry a String 24, its byte[10] 32, a Value 32
 * and a Node 32.
 *
 * Prints on stdout what it wrote, as tab-separated rows: objects, classes,
 * planted_id, planted_retained, the dominator tree's top two (roots_id,
 * roots_shallow: BigHeap.ROOTS; roots_array_id, roots_array_shallow: its
 * array), then `class NAME COUNT BYTES` per class with instances (sizes in
 * the VM with compressed oops, or a 32-bit VM's with --id-size 4, as a JVM's
 * class histogram counts them).
 *
 * usage: gen_hprof_big [--id-size 4] OUT.hprof OBJECTS [SEED [PLANTED]]
 *   OBJECTS: BigHeap's count of objects to make (the dump has a few more:
 *   classes, the planted map, the thread); SEED (default 42); PLANTED
 *   entries (default 1000, at most 6000). --id-size 4 writes 4-byte
 *   identifiers, as 32-bit JVMs and Android's ART do: the same heap (the
 *   same objects, sizes and references; heap ids are then the addresses'
 *   8-byte words, see bo_id) in about 60% of the bytes, up to about 1,100M
 *   objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "big_shapes.h"

#define HEAP_BASE 0x100000000ull
/* Objects static fields name, so their ids are known before the heap is
 * written: below the heap, before the class objects. */
#define ROOTS_ID 0xfe000000ull
#define POPULAR_ID (ROOTS_ID + 24)

/* HotSpot's dummy stack trace (serial 1) and the main thread's (serial 2,
 * one frame: BigHeap.main). */
static void write_traces(hw_buf *b)
{
    hw_stack_trace(b, 1, 0, 0, NULL);
    uint64_t method = big_name_sid(b, "main"), signature = big_name_sid(b, "([Ljava/lang/String;)V");
    uint64_t source = big_name_sid(b, "BigHeap.java"), frame = 1;
    hw_stack_frame(b, frame, method, signature, source, BC_BIGHEAP + 1, 120);
    hw_stack_trace(b, 2, 1, 1, &frame);
}

static void write_class_dumps(big_out *o)
{
    for (int c = 0; c < BC_COUNT; c++) {
        uint64_t statics[3] = {0};
        if (c == BC_BIGHEAP)
            statics[0] = ROOTS_ID, statics[1] = POPULAR_ID;
        if (c == BC_CACHE)
            statics[0] = bo_id(o, HEAP_BASE); /* the planted map is the first object */
        big_write_class_dump(&o->b, c, statics);
        bo_tally(o, BC_CLASS, big_mirror_size(c));
        bo_sub_done(o);
    }
}

/* BigHeap.ROOTS's array and its length, for the plan. */
static uint64_t roots_array, roots_units;

/* BigHeap.ROOTS: an ArrayList whose array holds every unit, in order, and
 * the popular strings units replaced (a dump of live objects has no
 * garbage: here ROOTS keeps them). */
static void write_roots_list(big_gen *g, FILE *spool, uint32_t units)
{
    big_out *o = g->out;
    uint64_t array = bo_alloc(o, BC_OBJECTS, big_array_size(4, units));
    roots_array = array, roots_units = units;
    bo_spooled_obj_array(o, array, BC_OBJECTS, units, spool);
    bo_tally(o, BC_ARRAYLIST, big_instance_size(BC_ARRAYLIST));
    uint8_t data[16], *p = data;
    p = pk_u4(p, units);
    p = pk_id(p, array);
    p = pk_u4(p, units);
    bo_instance(o, ROOTS_ID, BC_ARRAYLIST, data, (uint32_t)(p - data));
    bo_tally(o, BC_OBJECTS, big_array_size(4, BIG_POPULAR));
    bo_obj_array(o, POPULAR_ID, BC_OBJECTS, BIG_POPULAR, g->popular);
}

/* The main thread, named "main", whose frame holds the last unit made. */
static void write_thread_and_roots(big_gen *g)
{
    big_out *o = g->out;
    uint64_t name = big_string(g, "main");
    uint64_t thread = bo_alloc(o, BC_THREAD, big_instance_size(BC_THREAD));
    uint8_t data[21], *p = data;
    p = pk_u1(p, 0); /* daemon */
    p = pk_u4(p, 5); /* priority */
    p = pk_u8(p, 1); /* tid */
    p = pk_id(p, name);
    bo_instance(o, thread, BC_THREAD, data, (uint32_t)(p - data));
    hw_u1(&o->b, 0x08); /* ROOT THREAD OBJECT: thread serial 1, trace 2 */
    hw_id(&o->b, bo_id(o, thread)), hw_u4(&o->b, 1), hw_u4(&o->b, 2);
    hw_u1(&o->b, 0x03); /* ROOT JAVA FRAME: main's local `recent`, frame 0 */
    hw_id(&o->b, bo_id(o, g->recent)), hw_u4(&o->b, 1), hw_u4(&o->b, 0);
    hw_u1(&o->b, 0x01); /* ROOT JNI GLOBAL: BigHeap's class object, by a handle's address */
    hw_id(&o->b, big_class_id(BC_BIGHEAP));
    hw_id(&o->b, big_id_size == 4 ? 0x7f001000ull : 0x7f0000001000ull);
    for (int c = 0; c < BC_COUNT; c++) {
        hw_u1(&o->b, 0x05); /* ROOT STICKY CLASS */
        hw_id(&o->b, big_class_id(c));
    }
    bo_sub_done(o);
}

/* A class's name as leakfind shows it: java.util.HashMap$Node, byte[]. */
static void java_name(const char *dump_name, char *out, size_t cap)
{
    if (strcmp(dump_name, "[B") == 0) {
        snprintf(out, cap, "byte[]");
        return;
    }
    int array = dump_name[0] == '[';
    snprintf(out, cap, "%.*s%s", (int)strlen(dump_name) - 3 * array, dump_name + 2 * array,
             array ? "[]" : "");
    for (char *c = out; *c; c++)
        *c = *c == '/' ? '.' : *c;
}

static void print_plan(const big_out *o, uint64_t planted, uint64_t planted_bytes)
{
    uint64_t objects = 0;
    for (int c = 0; c < BC_COUNT; c++)
        objects += o->count[c];
    printf("objects\t%llu\nclasses\t%d\n", (unsigned long long)objects, BC_COUNT);
    printf("planted_id\t0x%llx\nplanted_retained\t%llu\n", (unsigned long long)planted,
           (unsigned long long)planted_bytes);
    /* the dominator tree's first two levels: BigHeap.ROOTS holds the most */
    printf("roots_id\t0x%llx\nroots_shallow\t%llu\n", (unsigned long long)ROOTS_ID,
           (unsigned long long)big_instance_size(BC_ARRAYLIST));
    printf("roots_array_id\t0x%llx\nroots_array_shallow\t%llu\n",
           (unsigned long long)bo_id(o, roots_array), (unsigned long long)big_array_size(4, roots_units));
    for (int c = 0; c < BC_COUNT; c++) {
        char name[64];
        java_name(big_classes[c].name, name, sizeof name);
        if (o->count[c])
            printf("class\t%s\t%llu\t%llu\n", name, (unsigned long long)o->count[c],
                   (unsigned long long)o->bytes[c]);
    }
}

/* The heap: the planted map, the popular strings, units until BigHeap's
 * count reaches `objects` (their heads spooled), the lists, the thread. */
static void write_heap(big_gen *g, uint64_t objects, uint32_t planted_entries, uint64_t *planted_bytes)
{
    FILE *spool = tmpfile();
    if (!spool) {
        perror("gen_hprof_big: temporary file");
        exit(4);
    }
    bo_segment_open(g->out);
    write_class_dumps(g->out);
    uint64_t planted = big_planted_map(g, planted_entries);
    *planted_bytes = g->out->next_address - planted;
    g->made = 0;
    for (int i = 0; i < BIG_POPULAR; i++)
        g->popular[i] = big_str(g);
    g->first_unit = g->out->next_address;
    uint64_t units = 0;
    while (g->made < objects) {
        uint64_t held[2];
        held[0] = big_unit(g, &held[1]);
        size_t n = held[1] ? 2 : 1;
        if (fwrite(held, sizeof held[0], n, spool) != n) {
            perror("gen_hprof_big: temporary file");
            exit(4);
        }
        units += n;
    }
    if (units > UINT32_MAX / 8) {
        fprintf(stderr, "gen_hprof_big: %llu units do not fit one array\n", (unsigned long long)units);
        exit(2);
    }
    write_roots_list(g, spool, (uint32_t)units);
    fclose(spool);
    write_thread_and_roots(g);
}

int main(int argc, char **argv)
{
    unsigned id_size = 8;
    if (argc > 2 && strcmp(argv[1], "--id-size") == 0) {
        id_size = (unsigned)strtoul(argv[2], NULL, 10);
        argc -= 2, argv += 2;
    }
    if (argc < 3 || argc > 5 || (id_size != 4 && id_size != 8)) {
        fprintf(stderr, "usage: gen_hprof_big [--id-size 4|8] OUT.hprof OBJECTS [SEED [PLANTED]]\n");
        return 2;
    }
    uint64_t objects = strtoull(argv[2], NULL, 10);
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 42;
    uint32_t planted = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 1000;
    if (planted > BIG_PLANTED_MAX) {
        fprintf(stderr, "gen_hprof_big: at most %d planted entries\n", BIG_PLANTED_MAX);
        return 2;
    }
    FILE *f = fopen(argv[1], "wb");
    if (!f) {
        perror(argv[1]);
        return 4;
    }
    static char file_buffer[8 << 20];
    setvbuf(f, file_buffer, _IOFBF, sizeof file_buffer);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    static big_out out;
    static big_gen gen;
    bo_start(&out, f, HEAP_BASE, id_size);
    big_write_class_names(&out.b);
    write_traces(&out.b);
    bo_flush(&out);
    big_gen_init(&gen, &out, seed);
    uint64_t planted_bytes;
    write_heap(&gen, objects, planted, &planted_bytes);
    bo_finish(&out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    print_plan(&out, bo_id(&out, HEAP_BASE), planted_bytes);
    fprintf(stderr, "gen_hprof_big: %s, %llu bytes in %.1f s\n", argv[1],
            (unsigned long long)out.file_bytes,
            (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
