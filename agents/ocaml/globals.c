/* globals.c - the modules' globals, named by module and field.
 *
 * caml_globals lists the global blocks of the program's own modules (the
 * same array in OCaml 4 and 5); a Dynlink plugin's come through the
 * runtime's scan of its roots, and are named here from the symbol that
 * holds the slot. Field names and type shapes come from the names file
 * (fieldnames.c, shapes.c). */
#define CAML_INTERNALS
#include "agent.h"

#include <stdio.h>
#include <string.h>

#include <caml/stack.h>

static void module_name(value block, size_t index, char *buf, size_t len)
{
    const agent_symbol *s = agent_symbol_at(agent_symbols_get(), (uintptr_t)block);
    if (s)
        agent_demangle(s->name, buf, len);
    else
        snprintf(buf, len, "(module %zu)", index);
}

int agent_globals_collect(agent_walk *walk)
{
    size_t unit = 0;
    for (size_t i = 0; caml_globals[i] != 0; i++) {
        for (value *glob = caml_globals[i]; *glob != 0; glob++, unit++) {
            char module[200], name[256];
            module_name(*glob, unit, module, sizeof module);
            for (mlsize_t j = 0; j < Wosize_val(*glob); j++) {
                value *slot = (value *)&Field(*glob, j); /* volatile in OCaml 5 */
                if (!agent_walk_block(*slot) || !agent_slot_seen(slot))
                    continue;
                const char *field = agent_field_name(module, j);
                if (field)
                    snprintf(name, sizeof name, "%s.%s", module, field);
                else
                    snprintf(name, sizeof name, "%s.[%lu]", module, (unsigned long)j);
                if (agent_walk_root(walk, *slot, "global", name) ||
                    agent_walk_typed_root(walk, *slot, agent_field_shape(module, j)))
                    return -1;
            }
        }
    }
    return 0;
}

/* A slot of a module's global block that the runtime scans with the rest (a
 * Dynlink plugin's modules: caml_globals has the program's alone), named as
 * agent_globals_collect names the others: "Plugin.kept", or "Plugin.[0]". */
int agent_global_slot_name(const agent_symbol *s, const value *slot, char *name, size_t len,
                           uint32_t *shape)
{
    if (!s || strncmp(s->name, "caml", 4) != 0 || s->name[4] < 'A' || s->name[4] > 'Z')
        return 0;
    char module[200];
    agent_demangle(s->name, module, sizeof module);
    for (const char *p = module; p; p = strchr(p, '.') ? strchr(p, '.') + 1 : NULL)
        if (*p < 'A' || *p > 'Z')
            return 0; /* a function, not a module */
    uintptr_t off = (uintptr_t)slot - s->addr;
    if (off % sizeof(value) || off / sizeof(value) >= Wosize_val((value)s->addr))
        return 0;
    size_t index = off / sizeof(value);
    const char *field = agent_field_name(module, index);
    if (field)
        snprintf(name, len, "%s.%s", module, field);
    else
        snprintf(name, len, "%s.[%zu]", module, index);
    *shape = agent_field_shape(module, index);
    return 1;
}

