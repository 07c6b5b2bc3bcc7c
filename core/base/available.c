/* available.c - how much memory this process may take: what the machine
 * has available, and what the memory cgroups it runs in leave it (a
 * container, a CI job, systemd's MemoryMax). /proc/meminfo alone sees the
 * machine: in a cgroup limited below it, a budget taken from MemAvailable
 * lets the kernel kill the process before any array spills. */
#include "available.h"

#include <stdio.h>
#include <string.h>

/* One number from a file: its first line, "max" or a number of bytes. */
static int read_limit(const char *path, uint64_t *bytes)
{
    FILE *f = fopen(path, "r");
    char line[64];
    int ok = f && fgets(line, sizeof line, f);
    if (f)
        fclose(f);
    if (!ok)
        return 0;
    unsigned long long v;
    if (strncmp(line, "max", 3) == 0)
        *bytes = UINT64_MAX;
    else if (sscanf(line, "%llu", &v) == 1)
        *bytes = v;
    else
        return 0;
    return 1;
}

/* The memory a cgroup's processes hold that the kernel cannot take back
 * without swap (anonymous and shared memory; file pages it can drop), from
 * memory.stat's lines named `anon` and `shmem` (v2) or `total_rss` and
 * `total_shmem` (v1). */
static uint64_t unreclaimable(const char *stat_path, const char *anon_key, const char *shmem_key)
{
    FILE *f = fopen(stat_path, "r");
    char key[64];
    unsigned long long v;
    uint64_t sum = 0;
    while (f && fscanf(f, "%63s %llu", key, &v) == 2)
        if (strcmp(key, anon_key) == 0 || strcmp(key, shmem_key) == 0)
            sum += v;
    if (f)
        fclose(f);
    return sum;
}

/* The room each cgroup from path up to the hierarchy's top (mount) leaves:
 * the smallest limit less what its processes hold. */
static uint64_t cgroup_room(const char *root, const char *hierarchy, const char *path, int v2)
{
    char mount[512], dir[1024], file[1100];
    uint64_t room = UINT64_MAX;
    snprintf(mount, sizeof mount, "%s%s", root, hierarchy);
    snprintf(dir, sizeof dir, "%s%s", mount, path);
    for (;;) {
        uint64_t limit;
        snprintf(file, sizeof file, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
        if (read_limit(file, &limit) && limit < ((uint64_t)1 << 62)) { /* v1 writes "none" as 2^63 - page */
            snprintf(file, sizeof file, "%s/memory.stat", dir);
            uint64_t held = v2 ? unreclaimable(file, "anon", "shmem")
                               : unreclaimable(file, "total_rss", "total_shmem");
            uint64_t left = limit > held ? limit - held : 0;
            if (left < room)
                room = left;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < strlen(mount))
            break;
        *slash = '\0';
    }
    return room;
}

/* The smallest room of the memory cgroups in /proc/self/cgroup: the v2
 * entry ("0::/path") and the v1 memory controller's ("N:memory:/path"). */
static uint64_t cgroups_room(const char *root)
{
    char path[512];
    snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
    FILE *f = fopen(path, "r");
    char line[1200];
    uint64_t room = UINT64_MAX;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *first = strchr(line, ':'), *second = first ? strchr(first + 1, ':') : NULL;
        if (!second)
            continue;
        uint64_t r = UINT64_MAX;
        if (first == line + 1 && line[0] == '0' && second == first + 1) {
            r = cgroup_room(root, "/sys/fs/cgroup", second + 1, 1);
            if (r == UINT64_MAX) /* the hybrid layout: v2 mounted beside v1 */
                r = cgroup_room(root, "/sys/fs/cgroup/unified", second + 1, 1);
        } else if (strncmp(first + 1, "memory:", 7) == 0) {
            r = cgroup_room(root, "/sys/fs/cgroup/memory", second + 1, 0);
        }
        if (r < room)
            room = r;
    }
    if (f)
        fclose(f);
    return room;
}

static uint64_t mem_available(const char *root)
{
    char path[512];
    snprintf(path, sizeof path, "%s/proc/meminfo", root);
    FILE *f = fopen(path, "r");
    if (!f)
        return UINT64_MAX;
    char line[128];
    unsigned long long kib = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(f);
    return found && kib ? (uint64_t)kib * 1024 : UINT64_MAX;
}

uint64_t lf_available_memory_at(const char *root)
{
    uint64_t machine = mem_available(root), cgroup = cgroups_room(root);
    return cgroup < machine ? cgroup : machine;
}

uint64_t lf_available_memory(void)
{
    return lf_available_memory_at("");
}
