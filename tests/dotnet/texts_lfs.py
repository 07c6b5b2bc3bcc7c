# texts_lfs.py [TEXT_STRING] - writes to stdout a leakfind snapshot (1.6)
# built by hand, as the .NET agent writes one: an Acme.Holder (0x1000, 24
# bytes, root "static field Acme.Holder.Instance") whose field Name and
# element [1] hold two System.String objects (0x1020, 0x1040, 32 bytes each)
# with the text "hello" (STXT). TEXT_STRING replaces the second text's
# string index (6) to make a damaged file. Hashes through libxxhash.
import ctypes, struct, sys
x = ctypes.CDLL("libxxhash.so.0"); x.XXH3_64bits.restype = ctypes.c_uint64; x.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
h = lambda b: x.XXH3_64bits(b, len(b))
strings = ["", "Acme.Holder", "System.String", "Name", "static field", "Acme.Holder.Instance", "hello", "[1]"]
sb = b"".join(s.encode() for s in strings); offs = [0]
for s in strings: offs.append(offs[-1] + len(s.encode()))
objs = 3
meta = [0]*32; meta[0]=objs; meta[1]=2; meta[2]=2; meta[3]=1; meta[4]=len(strings); meta[5]=5; meta[6]=4
chunks = [
 ("META", struct.pack("<32Q", *meta)),
 ("STRO", struct.pack(f"<{len(offs)}Q", *offs)),
 ("STRB", sb),
 ("CLSN", struct.pack("<2I", 1, 2)),
 ("OIDS", struct.pack("<3Q", 0x1000, 0x1020, 0x1040)),
 ("OCLS", struct.pack("<3I", 0, 1, 1)),
 ("OSH4", struct.pack("<3I", 24, 32, 32)),
 ("EOF4", struct.pack("<4I", 0, 2, 2, 2)),
 ("ETGT", struct.pack("<2I", 1, 2)),
 ("ELBL", struct.pack("<2I", 3, 1)),
 ("EKND", bytes([1, 2])),
 ("ROOT", struct.pack("<4I", 0, 4, 5, 0)),
 ("STXT", struct.pack("<8I", 1, 6, 5, 0, 2, int(sys.argv[1]) if len(sys.argv) > 1 else 6, 5, 0)),
]
head_len = 64 + 32*len(chunks); body = b""; table = b""; pos = head_len
for cid, data in chunks:
    pad = (-pos) % 8; body += b"\0"*pad; pos += pad
    table += cid.encode() + b"\0"*4 + struct.pack("<QQQ", pos, len(data), h(data))
    body += data; pos += len(data)
head = b"LEAKFIND" + struct.pack("<HHII", 1, 6, 64, len(chunks)) + b"\0"*4 + struct.pack("<QQ", pos, 64) + b"\0"*16
head += struct.pack("<Q", h(head[:56] + table))
sys.stdout.buffer.write(head + table + body)
