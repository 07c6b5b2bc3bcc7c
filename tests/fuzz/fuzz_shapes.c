/* fuzz_shapes.c - the OCaml agent's reader of the names file's shape lines
 * (agents/ocaml/shapes.c) on arbitrary bytes: the file sits next to the
 * program and anyone may have written it. Every line is read, then every
 * shape, alternative, field and label the table claims is looked up. */
#include <stdlib.h>
#include <string.h>

#include "../../agents/ocaml/shapes.c"
#include "fuzz.h"

static void read_lines(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = 0;
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        agent_shapes_add_line(line);
        line = next;
    }
    free(text);
}

static void look_up_all(void)
{
    for (uint32_t id = 0; id < 256; id++) {
        const agent_shape *s = agent_shape_get(id);
        if (!s)
            continue;
        (void)strlen(agent_shape_label(s->label));
        for (uint32_t tag = 0; tag < 4; tag++)
            for (uint64_t size = 0; size < 8; size++) {
                const agent_alt *a = agent_shape_alt(s, tag, size);
                if (!a)
                    continue;
                (void)strlen(agent_shape_label(a->label));
                for (uint64_t i = 0; i < a->size; i++)
                    (void)agent_shape_get(agent_alt_field(a, i));
            }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_lines(data, size);
    look_up_all();
    agent_shapes_reset();
    return 0;
}
