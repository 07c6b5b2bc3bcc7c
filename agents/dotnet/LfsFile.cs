// Writes a HeapGraph as a leakfind snapshot, version 1.6 (docs/FORMAT.md):
// the header, the chunk table, then each chunk 8-aligned, hashed with
// XXH3-64 (seed 0) as it is written; the table and header last.
using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Hashing;
using System.Runtime.InteropServices;

namespace Leakfind.Dotnet;

public static class LfsFile
{
    const int HeaderSize = 64, EntrySize = 32, MetaFields = 32;
    const ulong SourceDotnet = 5;          // META source format: .NET
    const ulong IdsSorted = 1u << 2;       // snapshot flag: ids increase with object numbers
    const ulong SizeBig = 0xffffffff;      // OSH4: look in OSHB

    sealed class Writer
    {
        public readonly FileStream File;
        public readonly List<(string Id, long Offset, long Size, ulong Hash)> Chunks = new();
        public Writer(FileStream f) { File = f; }

        public void Chunk<T>(string id, ReadOnlySpan<T> items) where T : struct
        {
            var bytes = MemoryMarshal.AsBytes(items);
            long at = (File.Position + 7) & ~7L;
            File.Write(new byte[at - File.Position]);
            var hash = new XxHash3();
            const int block = 1 << 20;
            for (int i = 0; i < bytes.Length; i += block)
            {
                var part = bytes.Slice(i, Math.Min(block, bytes.Length - i));
                hash.Append(part);
                File.Write(part);
            }
            Chunks.Add((id, at, bytes.Length, hash.GetCurrentHashAsUInt64()));
        }
    }

    public static void Write(HeapGraph g, string path)
    {
        using var file = new FileStream(path, FileMode.Create, FileAccess.ReadWrite);
        const int chunkCount = 16;
        file.Write(new byte[HeaderSize + chunkCount * EntrySize]);
        var w = new Writer(file);
        int objects = g.Address.Length;
        long edges = g.EdgeTarget.Count;
        byte[] strings = g.Strings.Bytes(out ulong[] stringOffsets);

        w.Chunk<ulong>("META", Meta(g, objects, edges));
        w.Chunk<ulong>("STRO", stringOffsets);
        w.Chunk<byte>("STRB", strings);
        w.Chunk<uint>("CLSN", g.ClassName.ToArray());
        w.Chunk<ulong>("OIDS", g.Address);
        w.Chunk<uint>("OCLS", g.Class);
        var small = new uint[objects];
        var big = new List<ulong>();
        for (int i = 0; i < objects; i++)
        {
            small[i] = g.Size[i] >= SizeBig ? (uint)SizeBig : (uint)g.Size[i];
            if (g.Size[i] >= SizeBig)
                big.AddRange(new ulong[] { (ulong)i, g.Size[i] }); // (u32 object, u32 0), u64 bytes
        }
        w.Chunk<uint>("OSH4", small);
        if (big.Count > 0)
            w.Chunk<ulong>("OSHB", big.ToArray());
        if (edges <= uint.MaxValue)
            w.Chunk<uint>("EOF4", Array.ConvertAll(g.EdgeStart, e => (uint)e));
        else
            w.Chunk<ulong>("EOFF", g.EdgeStart);
        w.Chunk<uint>("ETGT", g.EdgeTarget.Span);
        w.Chunk<uint>("ELBL", g.EdgeLabel.Span);
        w.Chunk<byte>("EKND", g.EdgeKinds.Span);
        var roots = new uint[g.Roots.Count * 4];
        for (int i = 0; i < g.Roots.Count; i++)
            (roots[4 * i], roots[4 * i + 1], roots[4 * i + 2]) = g.Roots[i];
        w.Chunk<uint>("ROOT", roots);
        if (g.Texts.Count > 0)
        {
            var texts = new uint[g.Texts.Count * 4]; // object, text, characters, reserved 0
            for (int i = 0; i < g.Texts.Count; i++)
                (texts[4 * i], texts[4 * i + 1], texts[4 * i + 2]) = g.Texts[i];
            w.Chunk<uint>("STXT", texts);
        }

        long size = file.Length;
        WriteHead(file, w, size, chunkCount);
    }

    static ulong[] Meta(HeapGraph g, int objects, long edges)
    {
        var m = new ulong[MetaFields];
        m[0] = (ulong)objects;
        m[1] = (ulong)edges;
        m[2] = (ulong)g.ClassName.Count;
        m[3] = (ulong)g.Roots.Count;
        m[4] = (ulong)g.Strings.Texts.Count;
        m[5] = SourceDotnet;
        m[6] = IdsSorted;
        m[7] = g.DanglingEdges;
        m[8] = g.DanglingRoots;
        m[26] = g.DanglingHolders;
        m[27] = g.DanglingTopHolder;
        m[28] = g.DanglingTopCount;
        return m; // no analysis, no sites, no clock: a core does not say when it was taken
    }

    // The chunk table (unused entries zero: a reader takes the count from
    // the header) and the header, whose hash covers bytes 0..55 and the table.
    static void WriteHead(FileStream file, Writer w, long size, int room)
    {
        var table = new byte[room * EntrySize];
        for (int i = 0; i < w.Chunks.Count; i++)
        {
            var (id, offset, length, hash) = w.Chunks[i];
            var e = table.AsSpan(i * EntrySize);
            for (int c = 0; c < 4; c++)
                e[c] = (byte)id[c];
            BitConverter.TryWriteBytes(e.Slice(8), offset);
            BitConverter.TryWriteBytes(e.Slice(16), length);
            BitConverter.TryWriteBytes(e.Slice(24), hash);
        }
        table = table.AsSpan(0, w.Chunks.Count * EntrySize).ToArray();
        var head = new byte[HeaderSize];
        "LEAKFIND"u8.CopyTo(head);
        BitConverter.TryWriteBytes(head.AsSpan(8), (ushort)1);
        BitConverter.TryWriteBytes(head.AsSpan(10), (ushort)6);
        BitConverter.TryWriteBytes(head.AsSpan(12), (uint)HeaderSize);
        BitConverter.TryWriteBytes(head.AsSpan(16), (uint)w.Chunks.Count);
        BitConverter.TryWriteBytes(head.AsSpan(24), (ulong)size);
        BitConverter.TryWriteBytes(head.AsSpan(32), (ulong)HeaderSize);
        var headHash = new XxHash3();
        headHash.Append(head.AsSpan(0, 56));
        headHash.Append(table);
        BitConverter.TryWriteBytes(head.AsSpan(56), headHash.GetCurrentHashAsUInt64());
        file.Position = 0;
        file.Write(head);
        file.Write(table);
    }
}
