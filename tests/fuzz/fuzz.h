/* fuzz.h - the libFuzzer entry point every target defines. */
#ifndef LF_FUZZ_H
#define LF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes the bytes to an anonymous in-memory file and puts a path that
 * opens it in path; returns the descriptor to close, or -1. */
int fuzz_memfd(const uint8_t *data, size_t size, char *path, size_t path_size);

/* Exercises everything commands do with a snapshot that opened. */
struct lf_snapshot;
struct lf_error;
void fuzz_exercise_snapshot(struct lf_snapshot *s);
void fuzz_exercise_suspects(const struct lf_snapshot *s);
void fuzz_exercise_sites(const struct lf_snapshot *s);

/* For the readers that want a file: the bytes as a file (fuzz_memfd), opened
 * with open_file and, when that succeeds, exercised and freed. */
typedef int (*fuzz_file_opener)(const char *path, struct lf_snapshot *s, struct lf_error *err);
void fuzz_open_file(const uint8_t *data, size_t size, fuzz_file_opener open_file);

#endif
