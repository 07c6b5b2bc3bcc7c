// leakfind-dotnet: reads a .NET core (dotnet-dump collect, createdump) with
// ClrMD and writes a leakfind snapshot (docs/FORMAT.md); leakfind runs it for
// a .NET core (docs/DOTNET.md, "Full dumps").
//   leakfind-dotnet CORE OUT.lfs    the snapshot
//   leakfind-dotnet --stat CORE     ClrMD's own heap walk: objects and bytes
//                                   per type, as leakfind's classes names them
// Exit: 0; 2 usage; 3 the core cannot be read (one line on stderr).
using System;
using System.IO;
using Microsoft.Diagnostics.Runtime;

namespace Leakfind.Dotnet;

public static class Program
{
    const string Usage = "usage: leakfind-dotnet CORE OUT.lfs | leakfind-dotnet --stat CORE";

    public static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }
        bool stat = args[0] == "--stat";
        string core = stat ? args[1] : args[0];
        try
        {
            using DataTarget target = DataTarget.LoadDump(core);
            if (target.ClrVersions.Length == 0)
                return Fail(core, "no .NET runtime in this core (no libcoreclr.so among its modules)");
            using ClrRuntime runtime = Runtime.Open(target.ClrVersions[0]);
            if (!runtime.Heap.CanWalkHeap)
                return Fail(core, "the GC heap cannot be walked (the core was taken during a garbage collection, or is damaged)");
            if (stat)
            {
                HeapStat.Write(runtime.Heap, Console.Out);
                return 0;
            }
            HeapGraph graph = HeapGraph.Read(runtime);
            LfsFile.Write(graph, args[1]);
            return 0;
        }
        catch (Exception e) when (e is IOException || e is InvalidDataException || e is NotSupportedException
                                  || e is InvalidOperationException || e is ClrDiagnosticsException
                                  || e is ArgumentException || e is IndexOutOfRangeException
                                  || e is UnauthorizedAccessException)
        {
            return Fail(core, e.Message);
        }
    }

    static int Fail(string core, string why)
    {
        Console.Error.WriteLine($"leakfind-dotnet: {core}: {why}");
        return 3;
    }
}
