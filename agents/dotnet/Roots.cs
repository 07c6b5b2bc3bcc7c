// The roots, with the kinds and names docs/DOTNET.md gives them:
//   static field   Declaring.Type.field, each object a static holds
//   stack          "thread N frame K: Type.Method", the locals a frame holds
//                  (K = 0 innermost: `leakfind threads` lists them)
//   strong handle, pinned handle, other handle (ref-counted, sized-ref)
//   finalizer      objects ready for finalization (the f-reachable queue)
// Weak handles keep nothing alive and are left out, as a .gcdump has none.
// Each (object, kind, name) once.
using System.Collections.Generic;
using System.Linq;
using Microsoft.Diagnostics.Runtime;

namespace Leakfind.Dotnet;

public static class Roots
{
    public static void Add(HeapGraph g, ClrRuntime runtime)
    {
        var seen = new HashSet<(uint, uint, uint)>();
        Statics(g, runtime, seen);
        Stacks(g, runtime, seen);
        foreach (ClrRoot root in runtime.Heap.EnumerateRoots())
        {
            string? kind = KindOf(root.RootKind);
            if (kind != null)
                AddRoot(g, seen, root.Object.Address, kind, "");
        }
    }

    static string? KindOf(ClrRootKind kind) => kind switch
    {
        ClrRootKind.StrongHandle => "strong handle",
        ClrRootKind.PinnedHandle or ClrRootKind.AsyncPinnedHandle => "pinned handle",
        ClrRootKind.RefCountedHandle or ClrRootKind.SizedRefHandle => "other handle",
        ClrRootKind.FinalizerQueue => "finalizer",
        ClrRootKind.StaticVar => "static storage",
        ClrRootKind.ThreadStaticVar => "thread static field",
        _ => null, // Stack: by frame, below
    };

    static void AddRoot(HeapGraph g, HashSet<(uint, uint, uint)> seen, ulong address, string kind, string name)
    {
        if (address == 0)
            return;
        long obj = g.Find(address);
        if (obj < 0)
        {
            g.DanglingRoots++;
            return;
        }
        var root = ((uint)obj, g.Strings.Add(kind), g.Strings.Add(name));
        if (seen.Add(root))
            g.Roots.Add(root);
    }

    // Every initialised static that holds an object, named by the type that
    // declares it (a .gcdump names the value's type instead).
    static void Statics(HeapGraph g, ClrRuntime runtime, HashSet<(uint, uint, uint)> seen)
    {
        foreach (ClrModule module in runtime.EnumerateModules())
            foreach (ClrType type in module.EnumerateTypesWithStaticFields())
                foreach (ClrStaticField field in type.StaticFields)
                {
                    if (!field.IsObjectReference)
                        continue;
                    string name = TypeNames.Of(type) + "." + TypeNames.Field(field.Name);
                    foreach (ClrAppDomain domain in runtime.AppDomains)
                        if (field.IsInitialized(domain))
                            AddRoot(g, seen, field.ReadObject(domain).Address, "static field", name);
                }
    }

    // Each managed thread's frames, innermost first, and the objects the GC
    // finds in each.
    static void Stacks(HeapGraph g, ClrRuntime runtime, HashSet<(uint, uint, uint)> seen)
    {
        foreach (ClrThread thread in runtime.Threads)
        {
            if (!thread.IsAlive)
                continue;
            var frames = thread.EnumerateStackTrace().ToList();
            var numberAt = new Dictionary<ulong, int>();
            for (int k = 0; k < frames.Count; k++)
                numberAt.TryAdd(frames[k].StackPointer, k);
            string who = $"thread {thread.ManagedThreadId}";
            foreach (ClrStackRoot root in thread.EnumerateStackRoots())
            {
                ClrStackFrame? frame = root.StackFrame;
                int k = frame != null && numberAt.TryGetValue(frame.StackPointer, out int n) ? n : -1;
                string where = k >= 0 ? $"frame {k}: {MethodName(frame!)}" : "frame ?: (unknown)";
                AddRoot(g, seen, root.Object.Address, "stack", $"{who} {where}");
            }
        }
    }

    static string MethodName(ClrStackFrame frame)
    {
        ClrMethod? m = frame.Method;
        if (m == null)
            return frame.FrameName ?? "(runtime)";
        string type = m.Type != null ? TypeNames.Of(m.Type) : "?";
        return $"{type}.{m.Name}";
    }
}
