/* big_out.c - gen_hprof_big's streaming HPROF output. */
#include "big_out.h"

#include <stdlib.h>
#include <string.h>

/* HotSpot's writer closes a segment when its 1 MiB buffer is full. */
#define SEGMENT_BYTES (1u << 20)

static void fail(const char *what)
{
    perror(what);
    exit(4);
}

static void write_all(big_out *o, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, o->file) != n)
        fail("gen_hprof_big: write");
    o->file_bytes += n;
}

static uint64_t heap_first; /* bo_start's heap_base, for bo_id */

void bo_start(big_out *o, FILE *file, uint64_t heap_base, unsigned id_size)
{
    memset(o, 0, sizeof *o);
    o->file = file;
    o->next_address = heap_first = heap_base;
    big_id_size = id_size;
    hw_begin(&o->b, "JAVA PROFILE 1.0.2", id_size);
    o->b.trace_serial = 1; /* HotSpot's dummy trace, for every object */
}

void bo_tally(big_out *o, int cls, uint64_t size)
{
    o->count[cls]++;
    o->bytes[cls] += size;
}

uint64_t bo_id(const big_out *o, uint64_t address)
{
    (void)o;
    if (big_id_size == 8 || address < heap_first)
        return address;
    return BO_ID4_HEAP + ((address - heap_first) >> 3);
}

uint64_t bo_alloc(big_out *o, int cls, uint64_t size)
{
    uint64_t at = o->next_address;
    o->next_address += size;
    if (big_id_size == 4 && bo_id(o, o->next_address) > BO_ID4_LIMIT) {
        fprintf(stderr, "gen_hprof_big: the heap is past what 4-byte ids number (%llu bytes)\n",
                (unsigned long long)(o->next_address - heap_first));
        exit(2);
    }
    bo_tally(o, cls, size);
    return at;
}

void bo_flush(big_out *o)
{
    write_all(o, o->b.data, o->b.len);
    o->b.len = 0;
}

void bo_segment_open(big_out *o) { hw_record(&o->b, 0x1c); }

void bo_segment_close(big_out *o)
{
    hw_record_end(&o->b);
    bo_flush(o);
}

void bo_sub_done(big_out *o)
{
    if (o->b.len < SEGMENT_BYTES)
        return;
    bo_segment_close(o);
    bo_segment_open(o);
}

void bo_instance(big_out *o, uint64_t id, int cls, const uint8_t *data, uint32_t len)
{
    if (len != big_instance_data(cls)) {
        fprintf(stderr, "gen_hprof_big: %u field bytes for %s, not %u\n", len,
                big_classes[cls].name, big_instance_data(cls));
        abort();
    }
    hw_instance(&o->b, bo_id(o, id), big_class_id(cls), data, len);
    bo_sub_done(o);
}

void bo_bytes(big_out *o, uint64_t id, const void *bytes, uint32_t n)
{
    hw_prim_array(&o->b, bo_id(o, id), BT_BYTE, n, bytes, 1);
    bo_sub_done(o);
}

void bo_obj_array(big_out *o, uint64_t id, int cls, uint32_t n, const uint64_t *elems)
{
    hw_u1(&o->b, 0x22);
    hw_id(&o->b, bo_id(o, id));
    hw_u4(&o->b, o->b.trace_serial);
    hw_u4(&o->b, n);
    hw_id(&o->b, big_class_id(cls));
    for (uint32_t i = 0; i < n; i++)
        hw_id(&o->b, bo_id(o, elems[i]));
    bo_sub_done(o);
}

void bo_spooled_obj_array(big_out *o, uint64_t id, int cls, uint32_t n, FILE *spool)
{
    bo_segment_close(o);
    uint64_t body = 1 + big_id_size + 4 + 4 + big_id_size + (uint64_t)big_id_size * n;
    if (body > UINT32_MAX) {
        fprintf(stderr, "gen_hprof_big: an array of %u elements does not fit a record\n", n);
        exit(2);
    }
    hw_u1(&o->b, 0x1c);
    hw_u4(&o->b, 0);
    hw_u4(&o->b, (uint32_t)body);
    hw_u1(&o->b, 0x22);
    hw_id(&o->b, bo_id(o, id));
    hw_u4(&o->b, o->b.trace_serial);
    hw_u4(&o->b, n);
    hw_id(&o->b, big_class_id(cls));
    rewind(spool);
    uint64_t chunk[4096];
    for (uint32_t done = 0; done < n;) {
        size_t want = n - done < 4096 ? n - done : 4096;
        if (fread(chunk, sizeof chunk[0], want, spool) != want)
            fail("gen_hprof_big: reading the spool");
        for (size_t i = 0; i < want; i++)
            hw_id(&o->b, bo_id(o, chunk[i]));
        done += (uint32_t)want;
        bo_flush(o);
    }
    bo_segment_open(o);
}

void bo_finish(big_out *o)
{
    bo_segment_close(o);
    hw_record(&o->b, 0x2c);
    hw_record_end(&o->b);
    bo_flush(o);
    if (fclose(o->file) != 0)
        fail("gen_hprof_big: close");
    hw_free(&o->b);
}

uint8_t *pk_u1(uint8_t *p, uint8_t v)
{
    *p = v;
    return p + 1;
}

uint8_t *pk_u4(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
    return p + 4;
}

uint8_t *pk_u8(uint8_t *p, uint64_t v) { return pk_u4(pk_u4(p, (uint32_t)(v >> 32)), (uint32_t)v); }

/* An object reference in field data: an address, or 0 (null). */
uint8_t *pk_id(uint8_t *p, uint64_t v)
{
    v = bo_id(NULL, v);
    return big_id_size == 4 ? pk_u4(p, (uint32_t)v) : pk_u8(p, v);
}
