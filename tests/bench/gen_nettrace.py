#!/usr/bin/env python3
"""A large synthetic .nettrace for timing `leakfind sites` (BENCHMARKS.md 1.18):
usage: gen_nettrace.py OUT EVENTS. Laid out as dotnet-trace 10 writes:
compressed event headers, blocks of about 100 KB, a sequence point every 20
blocks (after which the stacks are given again), 500 types, 2,000 stacks of
24 frames named by 4,000 rundown method events; one event in four is not a
tick (an event of another provider, 40 bytes of payload), as in a trace with
more than the GC keyword."""
import struct, sys, random

def u16(v): return struct.pack('<H', v)
def u32(v): return struct.pack('<I', v)
def u64(v): return struct.pack('<Q', v)
def w(s): return s.encode('utf-16-le') + b'\0\0'
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)

def obj_type(name):
    return b'\x05\x05\x01' + u32(2) + u32(2) + u32(len(name)) + name.encode() + b'\x06'

out = open(sys.argv[1], 'wb')
events = int(sys.argv[2])
rng = random.Random(1)
pos = 0
def emit(b):
    global pos
    out.write(b)
    pos += len(b)
emit(b'Nettrace' + u32(20) + b'!FastSerialization.1')
emit(b'\x05\x05\x01' + u32(4) + u32(4) + u32(5) + b'Trace' + b'\x06' + struct.pack('<8H', 2026, 12, 3, 2, 6, 0, 0, 0)
     + u64(0) + u64(1000000000) + u32(8) + u32(4242) + u32(2) + u32(1000) + b'\x06')
def block(name, payload):
    emit(obj_type(name)[:-1] + b'\x06' + u32(len(payload)))
    emit(b'\0' * ((4 - pos % 4) % 4))
    emit(payload + b'\x06')
header = u16(20) + u16(1) + u64(0) + u64(0)
def compressed(metadata_id, stack_id, payload, first):
    # flags: metadata id, sequence/thread, thread, stack id, payload size
    return (bytes([1 | 2 | 4 | 8 | 128]) + varint(metadata_id) + varint(1) + varint(7) + varint(0) + varint(7)
            + varint(stack_id) + varint(10) + varint(len(payload)) + payload)
meta = [(1, 'Microsoft-Windows-DotNETRuntime', 10, 'GCAllocationTick', 4),
        (2, 'Microsoft-Windows-DotNETRuntimeRundown', 144, 'MethodDCEndVerbose', 1),
        (3, 'Microsoft-Windows-DotNETRuntime', 1, 'GCStart', 2)]
block('MetadataBlock', header + b''.join(
    compressed(0, 0, u32(i) + w(p) + u32(e) + w(n) + u64(1) + u32(v) + u32(5) + u32(0), True) for i, p, e, n, v in meta))
methods = 4000
stacks = [[0x10000 + 64 * rng.randrange(methods) + rng.randrange(60) for _ in range(24)] for _ in range(2000)]
types = ['Acme.Module%d.Type%d' % (i % 37, i) for i in range(500)]
def give_stacks():
    block('StackBlock', u32(1) + u32(len(stacks)) + b''.join(u32(8 * len(s)) + b''.join(u64(ip) for ip in s) for s in stacks))
give_stacks()
done = 0
blocks = 0
while done < events:
    body = bytearray(header)
    while len(body) < 100000 and done < events:
        if done % 4 == 3:
            body += compressed(3, 0, bytes(40), False)
        else:
            t = types[rng.randrange(len(types))]
            body += compressed(1, 1 + rng.randrange(len(stacks)),
                               u32(100000) + u32(0) + u16(0) + u64(100000 + done % 1000) + u64(0x7777) + w(t)
                               + u32(0) + u64(0xabc0) + u64(24), False)
        done += 1
    block('EventBlock', bytes(body))
    blocks += 1
    if blocks % 20 == 0:
        block('SPBlock', u64(0) + u32(0))
        give_stacks()
rundown = bytearray(header)
for m in range(methods):
    rundown += compressed(2, 0, u64(m) + u64(1) + u64(0x10000 + 64 * m) + u32(64) + u32(0) + u32(0)
                          + w('Acme.Module%d.Class%d' % (m % 37, m)) + w('Method%d' % m) + w('void ()') + u16(0) + u64(0), False)
    if len(rundown) > 100000:
        block('EventBlock', bytes(rundown))
        rundown = bytearray(header)
block('EventBlock', bytes(rundown))
emit(b'\x01')
