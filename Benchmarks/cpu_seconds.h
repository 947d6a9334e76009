/* The CPU time this process has used, for the floor programs of `make bench`. */
#ifndef CPU_SECONDS_H
#define CPU_SECONDS_H
#include <time.h>

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}
#endif
