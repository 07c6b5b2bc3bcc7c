// The snapshot's strings (STRO/STRB): string 0 is the empty string; each
// text once.
using System;
using System.Collections.Generic;
using System.Text;

namespace Leakfind.Dotnet;

public sealed class StringTable
{
    readonly Dictionary<string, uint> index = new(StringComparer.Ordinal) { [""] = 0 };
    public readonly List<string> Texts = new() { "" };

    public uint Add(string text)
    {
        if (index.TryGetValue(text, out uint i))
            return i;
        i = (uint)Texts.Count;
        Texts.Add(text);
        index[text] = i;
        return i;
    }

    public byte[] Bytes(out ulong[] offsets)
    {
        offsets = new ulong[Texts.Count + 1];
        var all = new List<byte>();
        for (int i = 0; i < Texts.Count; i++)
        {
            offsets[i] = (ulong)all.Count;
            all.AddRange(Encoding.UTF8.GetBytes(Texts[i]));
        }
        offsets[Texts.Count] = (ulong)all.Count;
        return all.ToArray();
    }
}
