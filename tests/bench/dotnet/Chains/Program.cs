// 5,000 chains of 1,000 Nodes (32 bytes each: header, method table, Next,
// Value, padding) from one static array: 5,000,000 small objects in a linked
// structure, for tests/bench/dotnet_core.sh. Prints "ready" once built and
// collected, then waits for a line on stdin while the core is taken.
using System;

namespace Bench;

public sealed class Node
{
    public Node? Next;
    public int Value;
}

public static class Program
{
    static readonly Node?[] Heads = new Node?[5000];

    public static int Main()
    {
        for (int c = 0; c < Heads.Length; c++)
            for (int i = 0; i < 1000; i++)
                Heads[c] = new Node { Next = Heads[c], Value = i };
        GC.Collect();
        Console.WriteLine("ready");
        Console.Out.Flush();
        Console.ReadLine();
        GC.KeepAlive(Heads);
        return 0;
    }
}
