/* generic_name.c - generic type names without namespaces (see generic_name.h). */
#include "generic_name.h"

#include <string.h>

static int is_name_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '`' || c == '+' || c == '$';
}

/* C#'s keyword for a built-in type -> the runtime's name of it. */
static const char *runtime_name(const char *word, size_t len)
{
    static const char *const alias[][2] = {
        {"bool", "Boolean"}, {"byte", "Byte"},     {"sbyte", "SByte"},   {"char", "Char"},
        {"short", "Int16"},  {"ushort", "UInt16"}, {"int", "Int32"},     {"uint", "UInt32"},
        {"long", "Int64"},   {"ulong", "UInt64"},  {"float", "Single"},  {"double", "Double"},
        {"decimal", "Decimal"}, {"string", "String"}, {"object", "Object"}, {"nint", "IntPtr"},
        {"nuint", "UIntPtr"},
    };
    for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
        if (strlen(alias[i][0]) == len && memcmp(alias[i][0], word, len) == 0)
            return alias[i][1];
    return NULL;
}

size_t generic_name_key(const char *name, size_t len, char *out, size_t size)
{
    if (!memchr(name, '<', len) || size == 0)
        return 0;
    size_t used = 0, i = 0;
    while (i < len) {
        const char *piece = name + i;
        size_t n = 1;
        if (is_name_byte(name[i])) {
            size_t end = i;
            while (end < len && is_name_byte(name[end]))
                end++;
            const char *word = name + i;
            size_t wlen = end - i;
            for (size_t k = wlen; k > 0; k--) /* after the last '.' */
                if (word[k - 1] == '.') {
                    word += k, wlen -= k;
                    break;
                }
            const char *runtime = runtime_name(word, wlen);
            piece = runtime ? runtime : word;
            n = runtime ? strlen(runtime) : wlen;
            i = end;
        } else {
            i++;
            if (*piece == ' ' || *piece == '\t')
                continue;
        }
        if (used + n >= size)
            return 0;
        memcpy(out + used, piece, n);
        used += n;
    }
    out[used] = 0;
    return used;
}
