/* agent_path.c - see agent_path.h. */
#include "agent_path.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_find_agent(const char *agent_name, char *out, size_t len)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    const char *dir = dirname(self);
    if (snprintf(out, len, "%s/%s", dir, agent_name) < (int)len && access(out, R_OK) == 0)
        return 0;
    if (snprintf(out, len, "%s/../lib/leakfind/%s", dir, agent_name) < (int)len &&
        access(out, R_OK) == 0)
        return 0;
    return -1;
}

int cli_find_program(const char *name, const char *home_dir, char *out, size_t len)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n && snprintf(out, len, "%.*s/%s", (int)n, p, name) < (int)len && access(out, X_OK) == 0)
            return 0;
        p += n + (colon ? 1 : 0);
    }
    const char *home = getenv("HOME");
    return home_dir && home && snprintf(out, len, "%s/%s/%s", home, home_dir, name) < (int)len &&
                   access(out, X_OK) == 0
               ? 0
               : -1;
}
