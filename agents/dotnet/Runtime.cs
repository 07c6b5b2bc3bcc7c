// The runtime of a core, through its DAC (libmscordaccore.so). ClrMD looks
// for it by the runtime's version, which it may not read from a core
// (createdump leaves out the pages that say it): the DAC beside the core's
// libcoreclr.so, when that runtime is installed here, is the one that
// matches; else ClrMD's own search.
using System.IO;
using Microsoft.Diagnostics.Runtime;

namespace Leakfind.Dotnet;

public static class Runtime
{
    public static ClrRuntime Open(ClrInfo clr)
    {
        string? dir = Path.GetDirectoryName(clr.ModuleInfo.FileName);
        string dac = dir == null ? "" : Path.Combine(dir, "libmscordaccore.so");
        if (File.Exists(dac))
            return clr.CreateRuntime(dac, ignoreMismatch: true);
        return clr.CreateRuntime();
    }
}
