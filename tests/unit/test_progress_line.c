/* test_progress_line.c - the progress line (cmd/cli/progress_line.h) draws a
 * stage's start and end even while another thread holds the line: the end
 * waits its turn, where a report in the middle is skipped. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cmd/cli/progress_line.h"
#include "test.h"
#include "tests.h"

static progress_line line;

static void *report_end(void *arg)
{
    (void)arg;
    line.progress.report(line.progress.ctx, "pass 1 of 3", 4096, 4096);
    return NULL;
}

/* What stderr got while fn ran with the line held by "another thread" for
 * 50 ms (the flag set by hand, as a drawing thread sets it). */
static char *stderr_while_held(void *(*fn)(void *), char *buf, size_t size)
{
    char path[] = "/tmp/lf_progress_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    atomic_flag_test_and_set(&line.drawing);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, fn, NULL) == 0);
    usleep(50000);
    atomic_flag_clear(&line.drawing);
    pthread_join(t, NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, buf, size - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return buf;
}

static void *report_middle(void *arg)
{
    (void)arg;
    line.progress.report(line.progress.ctx, "pass 1 of 3", 2048, 4096);
    return NULL;
}

void test_progress_line_end_waits(void)
{
    char buf[512];
    progress_line_init(&line, "reading %s", "heap.hprof");
    CHECK(strstr(stderr_while_held(report_end, buf, sizeof buf),
                 "reading heap.hprof (pass 1 of 3)  4.0 KiB of 4.0 KiB (100%)") != NULL);
    /* the middle of a stage is skipped while the line is held (the start of
     * the next is the redraw that counts) */
    progress_line_init(&line, "reading %s", "heap.hprof");
    CHECK_EQ_U64(strlen(stderr_while_held(report_middle, buf, sizeof buf)), 0);
}
