// ClrMD's own heap walk, per type: what `dumpheap -stat` counts, with the
// type named as leakfind names classes. The tests compare it with
// `leakfind classes` on the snapshot the agent wrote from the same core.
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.Diagnostics.Runtime;

namespace Leakfind.Dotnet;

public static class HeapStat
{
    public static void Write(ClrHeap heap, TextWriter output)
    {
        var totals = new Dictionary<string, (long Count, ulong Bytes)>();
        long objects = 0;
        ulong bytes = 0;
        foreach (ClrObject obj in heap.EnumerateObjects())
        {
            if (!obj.IsValid || obj.IsFree || obj.Type is null)
                continue;
            string name = TypeNames.Of(obj.Type);
            totals.TryGetValue(name, out var t);
            totals[name] = (t.Count + 1, t.Bytes + obj.Size);
            objects++;
            bytes += obj.Size;
        }
        output.WriteLine($"objects\t{objects}\t{bytes}");
        foreach (var (name, t) in totals.OrderBy(p => p.Key, System.StringComparer.Ordinal))
            output.WriteLine($"{t.Count}\t{t.Bytes}\t{name}");
    }
}
