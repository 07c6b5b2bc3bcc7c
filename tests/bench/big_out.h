/* big_out.h - gen_hprof_big's output: an HPROF file written as it is
 * generated, in HEAP DUMP SEGMENTs of about 1 MiB as HotSpot writes them, with
 * heap addresses handed out in writing order (so that each object's id is
 * its address and the gap to the next id its size, as in a HotSpot dump) and
 * a tally of the objects and bytes of each class. */
#ifndef LF_BIG_OUT_H
#define LF_BIG_OUT_H

#include <stdio.h>
#include <stdint.h>

#include "big_classes.h"

typedef struct big_out {
    hw_buf b;               /* what is not yet in the file */
    FILE *file;
    uint64_t next_address;  /* of the next object allocated */
    uint64_t count[BC_COUNT], bytes[BC_COUNT];
    uint64_t file_bytes;    /* written so far */
} big_out;

/* The header; heap addresses from heap_base on, written as ids of
 * id_size bytes (8, or 4: see bo_id). */
void bo_start(big_out *o, FILE *file, uint64_t heap_base, unsigned id_size);
/* The id an address (or a fixed id below the heap) is written as: itself
 * with 8-byte ids; with 4-byte ids a heap address becomes its 8-byte word's
 * number from BO_ID4_HEAP on (as a JVM with compressed oops numbers
 * objects), and the ids below the heap (classes, roots) stay as they are. */
uint64_t bo_id(const big_out *o, uint64_t address);
/* The first heap id, and the first id past the heap's, with 4-byte ids:
 * the fixed ids below the heap's addresses sit above its ids then. */
#define BO_ID4_HEAP 0x00100000ull
#define BO_ID4_LIMIT 0xfe000000ull
/* An object of class cls and size bytes at the next heap address. */
uint64_t bo_alloc(big_out *o, int cls, uint64_t size);
/* Counts an object whose address is not handed out by bo_alloc. */
void bo_tally(big_out *o, int cls, uint64_t size);
/* Writes what is buffered (whole top-level records) to the file. */
void bo_flush(big_out *o);
void bo_segment_open(big_out *o);
/* After each heap sub-record: the segment ends once it is past 1 MiB. */
void bo_sub_done(big_out *o);
void bo_segment_close(big_out *o);
/* Sub-records; each ends with bo_sub_done. */
void bo_instance(big_out *o, uint64_t id, int cls, const uint8_t *data, uint32_t len);
void bo_bytes(big_out *o, uint64_t id, const void *bytes, uint32_t n);
void bo_obj_array(big_out *o, uint64_t id, int cls, uint32_t n, const uint64_t *elems);
/* An object array of n elements read from spool (8-byte ids in host order),
 * in a segment of its own so that it need not be held in memory. */
void bo_spooled_obj_array(big_out *o, uint64_t id, int cls, uint32_t n, FILE *spool);
/* The HEAP DUMP END record, and the file closed. */
void bo_finish(big_out *o);

/* Field data packing, big-endian: each returns the position after. */
uint8_t *pk_id(uint8_t *p, uint64_t v);
uint8_t *pk_u4(uint8_t *p, uint32_t v);
uint8_t *pk_u8(uint8_t *p, uint64_t v);
uint8_t *pk_u1(uint8_t *p, uint8_t v);

#endif
