// Names as leakfind shows .NET classes (docs/DOTNET.md): the way C# writes
// them, with the namespace, generic arguments in <> without spaces (as the
// runtime names them in a .gcdump, so that a core and a .gcdump of one
// program give equal class names), a nested type as Outer+Inner; and fields
// as C# code names them: an auto-property's backing field by its property.
using System.Collections.Concurrent;
using Microsoft.Diagnostics.Runtime;

namespace Leakfind.Dotnet;

public static class TypeNames
{
    static readonly ConcurrentDictionary<ulong, string> ByMethodTable = new();

    public static string Of(ClrType type)
    {
        if (ByMethodTable.TryGetValue(type.MethodTable, out string? name))
            return name;
        name = Clean(type.Name ?? $"<unknown type 0x{type.MethodTable:x}>");
        ByMethodTable[type.MethodTable] = name;
        return name;
    }

    // ClrMD writes "Dictionary<System.Int32, Acme.CacheEntry>": the runtime
    // (and so a .gcdump) has no space after the comma.
    public static string Clean(string name) => name.Replace(", ", ",");

    // "<Instance>k__BackingField" is what C# calls Instance.
    public static string Field(string? name)
    {
        if (string.IsNullOrEmpty(name))
            return "?";
        const string backing = ">k__BackingField";
        if (name.Length > backing.Length + 1 && name[0] == '<' && name.EndsWith(backing, System.StringComparison.Ordinal))
            return name.Substring(1, name.Length - 1 - backing.Length);
        return name;
    }
}
