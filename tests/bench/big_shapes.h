/* big_shapes.h - the object shapes of tests/bench/java/BigHeap.java, written
 * by gen_hprof_big one "unit" at a time (a hash map of strings to values, an
 * array list, a binary tree with parent links, a linked chain, a weak
 * reference, a lone value). A unit's ids are worked out (planned) before any
 * of its objects is written, since its first objects refer to later ones;
 * the plans live in fixed scratch arrays, so memory does not grow with the
 * dump. The random choices are BigHeap's, drawn from a seeded generator. */
#ifndef LF_BIG_SHAPES_H
#define LF_BIG_SHAPES_H

#include <stdint.h>

#include "big_out.h"

#define BIG_POPULAR 10000
/* The planted map's entries at most (its table then has 8192 slots). */
#define BIG_PLANTED_MAX 6000

typedef struct big_gen {
    big_out *out;
    uint64_t rng;                   /* splitmix64 state */
    uint64_t popular[BIG_POPULAR];  /* BigHeap.POPULAR as it is now */
    uint64_t recent;                /* the unit made last, or 0 */
    uint64_t made;                  /* objects made so far, counted as BigHeap counts */
    uint64_t first_unit;            /* address of the first unit: the popular strings are below */
} big_gen;

void big_gen_init(big_gen *g, big_out *out, uint64_t seed);
uint32_t big_below(big_gen *g, uint32_t n);
/* A String (and its byte[] value) of Latin-1 text of at most 11 bytes. */
uint64_t big_string(big_gen *g, const char *text);
/* BigHeap.str: a String of "s" and a random number. */
uint64_t big_str(big_gen *g);
/* One unit of a random shape; returns its head. A popular string it
 * replaces in BigHeap.POPULAR is *dropped (else 0). */
uint64_t big_unit(big_gen *g, uint64_t *dropped);
/* A HashMap of `entries` String keys "k000000000", ... to Values that refer
 * to nothing else: a structure nothing outside holds, of known size. */
uint64_t big_planted_map(big_gen *g, uint32_t entries);

#endif
