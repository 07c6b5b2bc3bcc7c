/* halves.c - see halves.h. */
#include "halves.h"

#include <pthread.h>

typedef struct half_call {
    lf_half_fn *fn;
    void *ctx;
} half_call;

static void *run_second_half(void *arg)
{
    half_call *c = arg;
    c->fn(c->ctx, 1);
    return 0;
}

void lf_run_halves(lf_half_fn *fn, void *ctx, int threaded)
{
    half_call c = {fn, ctx};
    pthread_t t;
    if (threaded && pthread_create(&t, 0, run_second_half, &c) == 0) {
        fn(ctx, 0);
        pthread_join(t, 0);
    } else {
        fn(ctx, 0);
        fn(ctx, 1);
    }
}
