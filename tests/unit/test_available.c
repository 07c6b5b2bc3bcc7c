/* test_available.c - the memory a process may take, from a made-up /proc and
 * /sys: MemAvailable, cgroup v2 and v1 limits up the hierarchy, less what
 * their processes hold that cannot be reclaimed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../core/base/available.h"
#include "test.h"
#include "tests.h"

#define MIB (1024ull * 1024)

/* Writes text into root/rel, making the directories on the way. */
static void put(const char *root, const char *rel, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void remove_tree(const char *root)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

void test_available_memory(void)
{
    char root[] = "/tmp/lf-available-test-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    /* nothing to read: no limit known */
    CHECK_EQ_U64(lf_available_memory_at(root), UINT64_MAX);
    /* the machine alone: 8 GiB available */
    put(root, "proc/meminfo", "MemTotal:       16777216 kB\nMemFree:  1 kB\nMemAvailable:    8388608 kB\n");
    CHECK_EQ_U64(lf_available_memory_at(root), 8192 * MIB);
    /* v2: /a allows 2 GiB and holds 100 MiB of anonymous memory (file pages
     * do not count), /a/b has no limit of its own */
    put(root, "proc/self/cgroup", "0::/a/b\n");
    put(root, "sys/fs/cgroup/a/memory.max", "2147483648\n");
    put(root, "sys/fs/cgroup/a/memory.stat", "anon 104857600\nfile 999999999\nshmem 0\n");
    put(root, "sys/fs/cgroup/a/b/memory.max", "max\n");
    put(root, "sys/fs/cgroup/a/b/memory.stat", "anon 5\nfile 7\n");
    CHECK_EQ_U64(lf_available_memory_at(root), 2048 * MIB - 100 * MIB);
    /* a tighter child: 1 GiB less 300 MiB anonymous and 100 MiB shared */
    put(root, "sys/fs/cgroup/a/b/memory.max", "1073741824\n");
    put(root, "sys/fs/cgroup/a/b/memory.stat", "anon 314572800\nfile 1\nshmem 104857600\n");
    CHECK_EQ_U64(lf_available_memory_at(root), 1024 * MIB - 400 * MIB);
    /* a child holding more than its limit leaves nothing */
    put(root, "sys/fs/cgroup/a/b/memory.stat", "anon 2147483648\n");
    CHECK_EQ_U64(lf_available_memory_at(root), 0);
    remove_tree(root);

    /* v1 beside v2 (the hybrid layout): the memory controller's /x allows
     * 1 GiB and its processes hold 200 MiB (its page cache does not count);
     * v1's "no limit" (2^63 less a page) at the top is no limit */
    CHECK(mkdtemp(strcpy(root, "/tmp/lf-available-test-XXXXXX")) != NULL);
    put(root, "proc/meminfo", "MemAvailable:    8388608 kB\n");
    put(root, "proc/self/cgroup", "9:name=systemd:/\n4:memory:/x\n0::/\n");
    put(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    put(root, "sys/fs/cgroup/memory/memory.stat", "total_rss 1\n");
    put(root, "sys/fs/cgroup/memory/x/memory.limit_in_bytes", "1073741824\n");
    put(root, "sys/fs/cgroup/memory/x/memory.stat",
        "cache 524288000\nrss 1\ntotal_cache 524288000\ntotal_rss 209715200\ntotal_shmem 0\n");
    CHECK_EQ_U64(lf_available_memory_at(root), 1024 * MIB - 200 * MIB);
    /* the machine has less than the cgroup allows: the machine's figure */
    put(root, "proc/meminfo", "MemAvailable:     524288 kB\n");
    CHECK_EQ_U64(lf_available_memory_at(root), 512 * MIB);
    remove_tree(root);
}
