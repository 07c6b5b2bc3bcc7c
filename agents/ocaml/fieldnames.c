/* fieldnames.c - the names of module fields, from PROGRAM.leakfind-names
 * (written by leakfind-ocaml-names from the program's .cmt files): lines
 * "Module TAB index TAB name [TAB shape]", then the shapes' lines
 * (shapes.c). Read once, on the first snapshot; without the file, globals
 * are named by index and blocks are not typed. The file sits next to the
 * executable, or LEAKFIND_NAMES names it. */
#include "agent.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/base/vec.h"

typedef struct field_name {
    char *module, *name;
    size_t index;
    uint32_t shape; /* of the field's value, 0 for none */
} field_name;

static field_name *names;
static size_t name_count, name_cap;
static int loaded;

static int by_module_index(const void *a, const void *b)
{
    const field_name *x = a, *y = b;
    int c = strcmp(x->module, y->module);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void add_line(char *line)
{
    if (line[0] == '#') {
        agent_shapes_add_line(line);
        return;
    }
    char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
    if (!tab2)
        return;
    *tab1 = *tab2 = 0;
    char *end;
    unsigned long index = strtoul(tab1 + 1, &end, 10);
    line[strcspn(line, "\n")] = 0;
    tab2[1 + strcspn(tab2 + 1, "\n")] = 0;
    char *tab3 = strchr(tab2 + 1, '\t');
    uint32_t shape = 0;
    if (tab3) {
        *tab3 = 0;
        shape = (uint32_t)strtoul(tab3 + 1, NULL, 10);
    }
    if (*end || lf_vec_reserve((void **)&names, &name_cap, name_count + 1, sizeof *names))
        return;
    char *module = strdup(line), *name = strdup(tab2 + 1);
    if (!module || !name) {
        free(module);
        free(name);
        return;
    }
    names[name_count++] = (field_name){module, name, index, shape};
}

static void load(void)
{
    char path[PATH_MAX + 32];
    const char *env = getenv("LEAKFIND_NAMES");
    if (env) {
        snprintf(path, sizeof path, "%s", env);
    } else {
        ssize_t n = readlink("/proc/self/exe", path, PATH_MAX);
        if (n <= 0)
            return;
        path[n] = 0;
        strcat(path, ".leakfind-names");
    }
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *line = NULL; /* a shape's line lists its fields: no fixed length */
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0)
        add_line(line);
    free(line);
    fclose(f);
    qsort(names, name_count, sizeof *names, by_module_index);
}

static const field_name *find(const char *module, size_t index)
{
    if (!loaded) {
        loaded = 1;
        load();
    }
    field_name key = {(char *)module, NULL, index, 0};
    return bsearch(&key, names, name_count, sizeof *names, by_module_index);
}

const char *agent_field_name(const char *module, size_t index)
{
    const field_name *hit = find(module, index);
    return hit ? hit->name : NULL;
}

uint32_t agent_field_shape(const char *module, size_t index)
{
    const field_name *hit = find(module, index);
    return hit ? hit->shape : 0;
}
