/* not_a_dump.c - recognising the files that are mistaken for heap dumps. */
#include "not_a_dump.h"

#include <string.h>

static int has(const uint8_t *head, size_t len, const char *needle)
{
    return memmem(head, len, needle, strlen(needle)) != NULL;
}

static const char *describe_elf(const uint8_t *head, size_t len)
{
    unsigned type = len >= 18 ? (unsigned)(head[16] | head[17] << 8) : 0;
    if (type == 4)
        return "an ELF core file, not a heap dump: for a JVM, write a heap dump from it with "
               "'jhsdb jmap --binaryheap --dumpfile heap.hprof --exe JAVA --core CORE' (or from "
               "the live process: 'jcmd PID GC.heap_dump heap.hprof')";
    return "an ELF program or library, not a heap dump: to take snapshots of an OCaml "
           "program, run 'leakfind record -- PROGRAM'";
}

/* A JSON file from V8 that is not a heap snapshot: a profile. */
static const char *describe_json(const uint8_t *head, size_t len)
{
    if (has(head, len, "\"callFrame\"") && has(head, len, "\"head\""))
        return "a V8 sampling heap profile (.heapprofile): it says where memory was allocated, "
               "not what keeps it alive; take a heap snapshot instead (v8.writeHeapSnapshot(), "
               "node --heapsnapshot-signal=SIGUSR2, or DevTools > Memory > Heap snapshot)";
    if (has(head, len, "\"callFrame\"") && has(head, len, "\"nodes\""))
        return "a V8 CPU profile (.cpuprofile), not a heap snapshot: take one with "
               "v8.writeHeapSnapshot() or DevTools > Memory > Heap snapshot";
    if (has(head, len, "\"traceEvents\""))
        return "a Chrome trace (traceEvents), not a heap snapshot: take one with "
               "DevTools > Memory > Heap snapshot";
    return NULL;
}

const char *lf_not_a_dump_describe(const uint8_t *head, size_t len)
{
    if (len >= 4 && memcmp(head, "\x7f" "ELF", 4) == 0)
        return describe_elf(head, len);
    if (len >= 8 && memcmp(head, "Nettrace", 8) == 0)
        return "a .NET trace (.nettrace, from dotnet-trace), not a heap dump: it says where memory "
               "was allocated, not what keeps it alive; 'leakfind sites TRACE' lists its allocation "
               "sites (with '--with DUMP' joined to a .gcdump), and for the heap take a .gcdump "
               "('dotnet-gcdump collect -p PID')";
    if (len >= 4 && memcmp(head, "PK\x03\x04", 4) == 0)
        return "a zip or jar archive: extract the heap dump it holds first "
               "(unzip -p ARCHIVE NAME | leakfind COMMAND -)";
    if (len >= 4 && memcmp(head, "FLR", 4) == 0)
        return "a Java Flight Recorder recording (JFR), not a heap dump: take one with "
               "'jcmd PID GC.heap_dump heap.hprof'";
    if (has(head, len < 64 ? len : 64, "portable heap dump"))
        return "an IBM Portable Heap Dump (PHD), not HPROF: open it with Eclipse MAT and the "
               "IBM DTFJ adapter, or re-dump on HotSpot (jcmd PID GC.heap_dump, or "
               "-XX:+HeapDumpOnOutOfMemoryError)";
    size_t i = 0;
    while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        i++;
    if (i < len && head[i] == '{')
        return describe_json(head, len);
    if (has(head, len < 256 ? len : 256, "Full thread dump"))
        return "a Java thread dump, not a heap dump: take one with 'jcmd PID GC.heap_dump heap.hprof'";
    return NULL;
}
