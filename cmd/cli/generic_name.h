/* generic_name.h - a generic type's name without its namespaces, as C#
 * programmers write it: "System.Collections.Generic.Dictionary<System.Int32,
 * Shop.CartLine>" and "Dictionary<int, CartLine>" both read
 * "Dictionary<Int32,CartLine>" (docs/DOTNET.md, class names). */
#ifndef LF_GENERIC_NAME_H
#define LF_GENERIC_NAME_H

#include <stddef.h>

/* The key of name[0 .. len) into out (NUL-terminated): each type name in it
 * cut to the part after its last '.', C#'s keywords for the built-in types
 * (int, string, object...) as the runtime names them, spaces left out.
 * Returns the key's length, or 0 when it does not fit or name has no '<'
 * (a plain name is matched by its simple name already). */
size_t generic_name_key(const char *name, size_t len, char *out, size_t size);

#endif
