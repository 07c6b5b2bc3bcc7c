#!/usr/bin/env python3
"""sample.py: runs a command and samples, every 0.05 s, what the process holds:
RssAnon and VmRSS (as scale.sh samples RssAnon, issue 23, in one process
instead of a shell loop), the disk its unlinked files take (the result store's
and spill files: st_blocks of /proc/PID/fd/* marked "(deleted)"; ext4 counts
delayed-allocation blocks there, so dirty pages count before writeback) and
the used space of the file system of a directory (statvfs: other processes'
files count too).

usage: tests/bench/sample.py TRACE.tsv DIR COMMAND ARGS...
TRACE.tsv gets a row per sample (seconds, anon KiB, RSS KiB, files KiB, used
KiB over the start); the last line on stderr is the peaks,
`peak WALL_S ANON_KIB RSS_KIB FILES_KIB USED_KIB USER_S SYS_S`; the exit
status is the command's."""
import os
import resource
import subprocess
import sys
import time


def used_kib(path):
    st = os.statvfs(path)
    return (st.f_blocks - st.f_bfree) * st.f_frsize // 1024


def status_kib(pid):
    anon = rss = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    anon = int(line.split()[1])
                elif line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return anon, rss


def files_kib(pid):
    total = 0
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    for fd in fds:
        p = f"/proc/{pid}/fd/{fd}"
        try:
            if os.readlink(p).endswith("(deleted)"):
                total += os.stat(p).st_blocks // 2
        except OSError:
            pass
    return total


def main():
    trace, where, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
    used0 = used_kib(where)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd)
    peak = [0, 0, 0, 0]
    with open(trace, "w") as out:
        out.write("seconds\tanon_kib\trss_kib\tfiles_kib\tused_kib\n")
        while proc.poll() is None:
            anon, rss = status_kib(proc.pid)
            row = [anon, rss, files_kib(proc.pid), used_kib(where) - used0]
            peak = [max(a, b) for a, b in zip(peak, row)]
            out.write("%.2f\t%d\t%d\t%d\t%d\n" % (time.monotonic() - t0, *row))
            time.sleep(0.05)
    wall = time.monotonic() - t0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("peak %.2f %d %d %d %d %.2f %.2f" % (wall, *peak, usage.ru_utime, usage.ru_stime),
          file=sys.stderr)
    sys.exit(proc.returncode)


main()
