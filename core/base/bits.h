/* bits.h - bit counting shared by the bitmaps with ranks (idrank, idset,
 * the V8 model's ownable nodes). */
#ifndef LF_BITS_H
#define LF_BITS_H

#include <stdint.h>

/* Population count without depending on the POPCNT instruction (the build
 * targets baseline x86-64, where __builtin_popcountll is a library call). */
static inline unsigned lf_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

#endif
