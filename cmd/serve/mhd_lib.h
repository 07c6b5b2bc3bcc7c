/* mhd_lib.h - libmicrohttpd's functions that `leakfind serve` calls, found
 * when a server starts (dlopen), not linked: the library brings GnuTLS and
 * p11-kit, whose loading cost every other command about 6 ms at start
 * (docs/DESIGN.md 16). */
#ifndef LF_MHD_LIB_H
#define LF_MHD_LIB_H
#include <stddef.h>
#include <microhttpd.h>

/* Each member has the type of the function it is named after. */
typedef struct mhd_lib {
    __typeof__(&MHD_start_daemon) start_daemon;
    __typeof__(&MHD_stop_daemon) stop_daemon;
    __typeof__(&MHD_get_daemon_info) get_daemon_info;
    __typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
    __typeof__(&MHD_add_response_header) add_response_header;
    __typeof__(&MHD_queue_response) queue_response;
    __typeof__(&MHD_destroy_response) destroy_response;
    __typeof__(&MHD_get_connection_values) get_connection_values;
    __typeof__(&MHD_lookup_connection_value) lookup_connection_value;
} mhd_lib;

/* The library, loaded on the first call (before any server thread runs);
 * NULL with why filled when it is not installed or lacks a function. */
const mhd_lib *mhd_lib_load(char *why, size_t why_size);

#endif
