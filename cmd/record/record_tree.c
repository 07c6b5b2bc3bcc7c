/* record_tree.c - the recorded processes under the program (record_tree.h),
 * found in /proc: parents from /proc/PID/stat, the agent in /proc/PID/maps.
 * A walk over a list, in rounds, not a recursion. */
#include "record_tree.h"

#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct proc_link {
    pid_t pid, parent;
    int under; /* the program or one of its descendants */
} proc_link;

/* The parent in /proc/PID/stat: after the name in parentheses (which may
 * hold any character), the state, then the parent. */
static pid_t parent_of(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = 0;
    char *close = strrchr(line, ')');
    long parent;
    char state;
    return close && sscanf(close + 1, " %c %ld", &state, &parent) == 2 ? (pid_t)parent : -1;
}

static int has_agent(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/maps", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int found = 0;
    while (!found && getline(&line, &cap, f) > 0)
        found = strstr(line, "/leakfind-agent-ocaml") != NULL;
    free(line);
    fclose(f);
    return found;
}

int record_tree_signal(pid_t root, int sig, int agents_only)
{
    DIR *dir = opendir("/proc");
    if (!dir)
        return 0;
    proc_link *procs = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        if (n == cap) {
            proc_link *grown = realloc(procs, (cap = cap ? cap * 2 : 256) * sizeof *procs);
            if (!grown)
                break;
            procs = grown;
        }
        pid_t pid = (pid_t)atol(e->d_name);
        procs[n++] = (proc_link){pid, parent_of(pid), pid == root};
    }
    closedir(dir);
    /* rounds until none is added: a child's parent may come later in the list */
    for (int added = 1; added;) {
        added = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; !procs[i].under && j < n; j++)
                if (procs[j].under && procs[j].pid == procs[i].parent)
                    procs[i].under = added = 1;
    }
    int sent = 0;
    for (size_t i = 0; i < n; i++)
        if (procs[i].under && (!agents_only || has_agent(procs[i].pid)) && kill(procs[i].pid, sig) == 0)
            sent++;
    free(procs);
    return sent;
}
