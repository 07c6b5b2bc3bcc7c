/* mhd_lib.c - libmicrohttpd loaded by name when `leakfind serve` starts
 * (mhd_lib.h says why it is not linked). */
#include <dlfcn.h>
#include <stdio.h>

#include "mhd_lib.h"

/* Debian's libmicrohttpd12; the unversioned name where only the
 * development package's link is there. */
static const char *const library_names[] = {"libmicrohttpd.so.12", "libmicrohttpd.so"};

static int find(void *lib, const char *name, void **fn, char *why, size_t why_size)
{
    *fn = dlsym(lib, name);
    if (!*fn)
        snprintf(why, why_size, "libmicrohttpd has no %s: %s", name, dlerror());
    return *fn != NULL;
}

const mhd_lib *mhd_lib_load(char *why, size_t why_size)
{
    static mhd_lib fns;
    static int loaded;
    if (loaded)
        return &fns;
    void *lib = NULL;
    for (size_t i = 0; !lib && i < sizeof library_names / sizeof *library_names; i++)
        lib = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, why_size, "serve needs libmicrohttpd (Debian: apt-get install libmicrohttpd12): %s",
                 dlerror());
        return NULL;
    }
    /* POSIX gives dlsym's result as a void *; each member takes it whole */
    int ok = find(lib, "MHD_start_daemon", (void **)&fns.start_daemon, why, why_size) &&
             find(lib, "MHD_stop_daemon", (void **)&fns.stop_daemon, why, why_size) &&
             find(lib, "MHD_get_daemon_info", (void **)&fns.get_daemon_info, why, why_size) &&
             find(lib, "MHD_create_response_from_buffer", (void **)&fns.create_response_from_buffer, why,
                  why_size) &&
             find(lib, "MHD_add_response_header", (void **)&fns.add_response_header, why, why_size) &&
             find(lib, "MHD_queue_response", (void **)&fns.queue_response, why, why_size) &&
             find(lib, "MHD_destroy_response", (void **)&fns.destroy_response, why, why_size) &&
             find(lib, "MHD_get_connection_values", (void **)&fns.get_connection_values, why, why_size) &&
             find(lib, "MHD_lookup_connection_value", (void **)&fns.lookup_connection_value, why, why_size);
    if (!ok) {
        dlclose(lib);
        return NULL;
    }
    loaded = 1;
    return &fns;
}
