/* string_preview.c - a string object's text, escaped for one cell. */
#include "string_preview.h"

#include <stdio.h>

#include "../../core/analysis/dup_strings.h"

size_t cli_escape_text(const char *in, size_t len, uint64_t cut, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 8 < size; i++) {
        unsigned char ch = (unsigned char)in[i];
        if (ch >= 0x20 && ch != 0x7f && ch != '\\') {
            out[o++] = (char)ch;
            continue;
        }
        out[o++] = '\\';
        if (ch == '\\' || ch == '\n' || ch == '\t' || ch == '\r')
            out[o++] = ch == '\n' ? 'n' : ch == '\t' ? 't' : ch == '\r' ? 'r' : '\\';
        else
            o += (size_t)snprintf(out + o, size - o, "x%02x", ch);
    }
    if (cut && o + 40 < size)
        o += (size_t)snprintf(out + o, size - o, " [... %llu more chars]", (unsigned long long)cut);
    if (o < size)
        out[o] = 0;
    return o;
}

int cli_string_preview_text(const lf_snapshot *s, uint32_t node, char cell[CLI_PREVIEW_CELL], size_t *len)
{
    char text[4 * CLI_PREVIEW_CHARS + 8];
    size_t text_len;
    uint64_t chars;
    if (!lf_string_preview(s, node, CLI_PREVIEW_CHARS, text, sizeof text, &text_len, &chars))
        return 0;
    uint64_t cut = chars > CLI_PREVIEW_CHARS ? chars - CLI_PREVIEW_CHARS : 0;
    *len = cli_escape_text(text, text_len, cut, cell, CLI_PREVIEW_CELL);
    return 1;
}

void cli_write_string_preview(out_writer *w, const lf_snapshot *s, uint32_t node)
{
    char cell[CLI_PREVIEW_CELL];
    size_t len;
    if (cli_string_preview_text(s, node, cell, &len))
        out_str(w, cell, len);
    else
        out_null(w);
}
