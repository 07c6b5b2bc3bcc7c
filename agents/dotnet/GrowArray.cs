// A list of plain values with no 2 GB element limit per chunk: a 5M-object
// heap has tens of millions of edges, each array grown by doubling.
using System;

namespace Leakfind.Dotnet;

public sealed class GrowArray<T> where T : struct
{
    T[] items = new T[1024];
    public long Count { get; private set; }

    public void Add(T value)
    {
        if (Count == items.Length)
            Array.Resize(ref items, checked(items.Length * 2));
        items[Count++] = value;
    }

    public ReadOnlySpan<T> Span => items.AsSpan(0, (int)Count);
    public T[] ToArray() => items.AsSpan(0, (int)Count).ToArray();
}
