// The heap as leakfind's model has it (docs/FORMAT.md): objects numbered in
// address order, each with its class and size; edges labelled with field
// names or array indexes; roots (Roots.cs). Two passes over the heap: the
// objects first (so that a reference can be turned into an object number
// by a binary search over the sorted addresses), then each one's references.
using System;
using System.Collections.Generic;
using Microsoft.Diagnostics.Runtime;

namespace Leakfind.Dotnet;

public enum EdgeKind : byte { None = 0, Field = 1, Element = 2, Internal = 3 }

public sealed class HeapGraph
{
    public readonly StringTable Strings = new();
    public ulong[] Address = Array.Empty<ulong>();   // object -> address, increasing
    public uint[] Class = Array.Empty<uint>();       // object -> class
    public ulong[] Size = Array.Empty<ulong>();      // object -> bytes
    public readonly List<uint> ClassName = new();    // class -> string
    public ulong[] EdgeStart = Array.Empty<ulong>(); // object -> first edge; objects + 1
    public readonly GrowArray<uint> EdgeTarget = new();
    public readonly GrowArray<uint> EdgeLabel = new();
    public readonly GrowArray<byte> EdgeKinds = new();
    public readonly List<(uint Obj, uint Kind, uint Name)> Roots = new();
    public readonly List<(uint Obj, uint Text, uint Chars)> Texts = new(); // System.String objects, in object order
    public ulong DanglingEdges, DanglingRoots;
    // where dangling references come from (META's dangling holders): how
    // many objects hold one, and the one holding the most (object + 1)
    public ulong DanglingHolders, DanglingTopHolder, DanglingTopCount;

    readonly Dictionary<string, uint> classByName = new(StringComparer.Ordinal);
    ClrObject[] objectAt = Array.Empty<ClrObject>(); // object -> ClrMD's, for the second pass

    public static HeapGraph Read(ClrRuntime runtime)
    {
        var g = new HeapGraph();
        g.ReadObjects(runtime.Heap);
        g.ReadTexts(runtime.DataTarget.DataReader);
        g.ReadReferences(runtime.Heap);
        Dotnet.Roots.Add(g, runtime);
        return g;
    }

    public uint ClassOf(string name)
    {
        if (classByName.TryGetValue(name, out uint c))
            return c;
        c = (uint)ClassName.Count;
        ClassName.Add(Strings.Add(name));
        classByName[name] = c;
        return c;
    }

    // The object number at an address, or -1 when no object starts there.
    public long Find(ulong address)
    {
        int i = Array.BinarySearch(Address, address);
        return i >= 0 ? i : -1;
    }

    void ReadObjects(ClrHeap heap)
    {
        var addresses = new GrowArray<ulong>();
        var found = new List<ClrObject>();
        var sizes = new GrowArray<ulong>();
        foreach (ClrObject obj in heap.EnumerateObjects())
        {
            if (!obj.IsValid || obj.IsFree || obj.Type is null)
                continue;
            addresses.Add(obj.Address);
            found.Add(obj);
            sizes.Add(obj.Size);
        }
        Address = addresses.ToArray();
        var order = new int[Address.Length];
        for (int i = 0; i < order.Length; i++)
            order[i] = i;
        Array.Sort((ulong[])Address.Clone(), order); // segments need not come in address order
        Address = Array.ConvertAll(order, i => addresses.Span[i]);
        objectAt = Array.ConvertAll(order, i => found[i]);
        Size = Array.ConvertAll(order, i => sizes.Span[i]);
        Class = new uint[Address.Length];
        for (int i = 0; i < Address.Length; i++)
            Class[i] = ClassOf(TypeNames.Of(objectAt[i].Type!));
    }

    // Each string's first TextMax characters (as V8 writes its strings) and
    // its length: a string is its method table, a 4-byte length, UTF-16.
    const int TextMax = 1024;

    void ReadTexts(IDataReader memory)
    {
        var units = new byte[2 * TextMax];
        var head = new byte[4];
        for (int i = 0; i < Address.Length; i++)
        {
            if (!objectAt[i].Type!.IsString)
                continue;
            if (memory.Read(Address[i] + 8, head) != 4)
                continue;
            int length = BitConverter.ToInt32(head);
            if (length < 0)
                continue;
            int want = 2 * Math.Min(length, TextMax);
            int got = memory.Read(Address[i] + 12, units.AsSpan(0, want));
            string text = System.Text.Encoding.Unicode.GetString(units, 0, got & ~1);
            Texts.Add(((uint)i, Strings.Add(text), (uint)length));
        }
    }

    void ReadReferences(ClrHeap heap)
    {
        EdgeStart = new ulong[Address.Length + 1];
        var fieldLabel = new Dictionary<(ulong, int), uint>();
        for (int i = 0; i < Address.Length; i++)
        {
            EdgeStart[i] = (ulong)EdgeTarget.Count;
            ClrObject obj = objectAt[i];
            ClrType type = obj.Type!;
            if (!type.ContainsPointers && !type.IsCollectible)
                continue;
            ulong dataStart = type.IsArray ? ArrayDataOffset(Address[i], type) : 0;
            ulong danglingHere = 0;
            foreach (ClrReference r in obj.EnumerateReferencesWithFields(carefully: false, considerDependantHandles: true))
            {
                long to = Find(r.Object.Address);
                if (to < 0)
                {
                    DanglingEdges++;
                    danglingHere++;
                    continue;
                }
                EdgeTarget.Add((uint)to);
                if (r.IsDependentHandle)
                {
                    EdgeKinds.Add((byte)EdgeKind.Internal);
                    EdgeLabel.Add(Strings.Add("<dependent handle>"));
                }
                else if (r.IsArrayElement && type.IsArray && type.ComponentSize > 0)
                {
                    EdgeKinds.Add((byte)EdgeKind.Element);
                    EdgeLabel.Add((uint)(((ulong)r.Offset + 8 - dataStart) / (ulong)type.ComponentSize));
                }
                else if (r.IsField)
                {
                    EdgeKinds.Add((byte)EdgeKind.Field);
                    EdgeLabel.Add(FieldLabel(fieldLabel, type, r));
                }
                else
                {
                    EdgeKinds.Add((byte)EdgeKind.Internal);
                    EdgeLabel.Add(Strings.Add(type.IsCollectible ? "<loader allocator>" : "<reference>"));
                }
            }
            CountDangling(i, danglingHere);
        }
        EdgeStart[Address.Length] = (ulong)EdgeTarget.Count;
        objectAt = Array.Empty<ClrObject>();
        return;

        void CountDangling(int holder, ulong count)
        {
            if (count == 0)
                return;
            DanglingHolders++;
            if (count > DanglingTopCount)
                (DanglingTopHolder, DanglingTopCount) = ((ulong)holder + 1, count);
        }
    }

    // Where an array's elements start, from the object's address (the
    // method table and length of a vector; bounds too for a matrix).
    static ulong ArrayDataOffset(ulong obj, ClrType type)
    {
        ulong first = type.GetArrayElementAddress(obj, 0);
        return first > obj ? first - obj : 16;
    }

    // "field", or "field.inner" for a reference inside a struct field; one
    // string per (type, offset).
    uint FieldLabel(Dictionary<(ulong, int), uint> cache, ClrType type, ClrReference r)
    {
        var key = (type.MethodTable, r.Offset);
        if (cache.TryGetValue(key, out uint label))
            return label;
        string name = TypeNames.Field(r.Field?.Name);
        for (ClrReference? inner = r.InnerField; inner is ClrReference c; inner = c.InnerField)
            name += "." + TypeNames.Field(c.Field?.Name);
        label = Strings.Add(name);
        cache[key] = label;
        return label;
    }
}
