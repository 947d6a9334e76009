/* What the decoders' floor programs of `make bench` share: each decodes its files with one
 * function of its own, on `--threads N` threads (1 unless told) that take the files in turn from
 * one queue, as imagewall's workers take tiles, and prints the CPU seconds the process used and
 * the wall seconds it took: "cpu wall". On one thread the CPU is the floor's cost; on two, the
 * wall is the decoding libraries alone on both cores of this machine. */
#ifndef FLOOR_H
#define FLOOR_H
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double floor_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* The whole file at `path` in a buffer of the calling thread's, kept for its next file; NULL
 * when it cannot be read. */
static inline const unsigned char *floor_read(const char *path, size_t *size) {
    static __thread unsigned char *bytes = NULL;
    static __thread size_t capacity = 0;
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    if (length > 0 && (size_t)length > capacity) {
        unsigned char *larger = realloc(bytes, (size_t)length);
        if (larger) bytes = larger, capacity = (size_t)length;
    }
    int read = length > 0 && (size_t)length <= capacity && fread(bytes, 1, (size_t)length, file) == (size_t)length;
    fclose(file);
    *size = read ? (size_t)length : 0;
    return read ? bytes : NULL;
}

typedef void (*floor_decode)(const char *path);

/* How many files failed to decode: a floor that skipped one would read low. */
static int floor_failures = 0;

/* Says that the file at `path` did not decode, and why; the run then exits with status 1. */
static void floor_failed(const char *path, const char *reason) {
    fprintf(stderr, "floor: %s: %s\n", path, reason);
    __atomic_fetch_add(&floor_failures, 1, __ATOMIC_RELAXED);
}

struct floor_queue {
    char **files;
    int count, next;
    floor_decode decode;
};

static void *floor_worker(void *argument) {
    struct floor_queue *queue = argument;
    for (int i; (i = __atomic_fetch_add(&queue->next, 1, __ATOMIC_RELAXED)) < queue->count;)
        queue->decode(queue->files[i]);
    return NULL;
}

/* The thread count of a leading "--threads N", taken out of the arguments; 1 without it. */
static int floor_threads(int *argc, char ***argv) {
    if (*argc < 3 || strcmp((*argv)[1], "--threads") != 0) return 1;
    int threads = atoi((*argv)[2]);
    (*argv)[2] = (*argv)[0];
    *argv += 2;
    *argc -= 2;
    return threads < 1 ? 1 : threads > 64 ? 64 : threads;
}

/* Decodes `count` files on `threads` threads and prints "cpu wall"; 1 when a file failed. */
static int floor_run(char **files, int count, int threads, floor_decode decode) {
    struct floor_queue queue = {files, count, 0, decode};
    pthread_t workers[64];
    double cpu = floor_seconds(CLOCK_PROCESS_CPUTIME_ID), wall = floor_seconds(CLOCK_MONOTONIC);
    int started = 0;
    while (started < threads - 1 && pthread_create(&workers[started], NULL, floor_worker, &queue) == 0) started++;
    floor_worker(&queue);
    for (int t = 0; t < started; t++) pthread_join(workers[t], NULL);
    printf("%.2f %.3f\n", floor_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu, floor_seconds(CLOCK_MONOTONIC) - wall);
    return floor_failures > 0;
}
#endif
