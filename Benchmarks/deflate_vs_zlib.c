/* ImageWall's deflater against zlib's run-length deflate on the same filtered rows (make bench).
 *
 *   usage: deflate_vs_zlib SHEET.png [BAND_ROWS] [zlib|own|none]
 *
 * Reads a PNG (8-bit RGB or RGBA, one zlib stream over its IDAT chunks), inflates the stream to
 * the filtered rows it holds, then deflates them in bands of BAND_ROWS rows (default 128, as a
 * render does): with zlib 1.2.13's Z_RLE at level 1, a full flush between bands, as the sheet
 * encoder used it; and with iw_deflate_band. Prints each one's CPU time (the best of 5), its size
 * and the ratios, and checks that zlib inflates ImageWall's stream back to the rows. With `zlib`
 * or `own` only that one runs, once, and with `none` neither: for valgrind --tool=callgrind,
 * whose instruction counts repeat on a busy machine (subtract `none`'s). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "iw_deflate.h"

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static size_t by_zlib(const unsigned char *rows, size_t row, size_t height, size_t band, unsigned char *out,
                      size_t cap) {
    size_t total = 0;
    for (size_t y = 0; y < height; y += band) {
        size_t k = (height - y < band ? height - y : band) * row;
        z_stream z;
        memset(&z, 0, sizeof z);
        deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_RLE);
        z.next_in = (unsigned char *)rows + y * row;
        z.avail_in = (uInt)k;
        z.next_out = out;
        z.avail_out = (uInt)cap;
        deflate(&z, y + band >= height ? Z_FINISH : Z_FULL_FLUSH);
        total += z.total_out;
        deflateEnd(&z);
    }
    return total;
}

static size_t by_own(const unsigned char *rows, size_t row, size_t height, size_t band, unsigned char *out) {
    size_t total = 0;
    for (size_t y = 0; y < height; y += band) {
        size_t k = (height - y < band ? height - y : band) * row;
        total += iw_deflate_band(rows + y * row, k, y + band >= height, out + total);
    }
    return total;
}

int main(int argc, char **argv) {
    long band_rows = argc > 2 ? atol(argv[2]) : 128;
    const char *only = argc > 3 ? argv[3] : NULL;
    if (argc < 2 || band_rows < 1 || (only && strcmp(only, "zlib") && strcmp(only, "own") && strcmp(only, "none"))) {
        fprintf(stderr, "usage: deflate_vs_zlib SHEET.png [BAND_ROWS] [zlib|own|none] (BAND_ROWS at least 1)\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) return perror(argv[1]), 2;
    fseek(file, 0, SEEK_END);
    long n = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *png = malloc((size_t)n), *idat = malloc((size_t)n);
    if (fread(png, 1, (size_t)n, file) != (size_t)n) return fprintf(stderr, "%s: cannot read\n", argv[1]), 2;
    fclose(file);
    size_t idat_size = 0, width = 0, height = 0, channels = 0;
    for (long at = 8; at + 12 <= n;) {
        size_t length = (size_t)png[at] << 24 | (size_t)png[at + 1] << 16 | (size_t)png[at + 2] << 8 | png[at + 3];
        if (!memcmp(png + at + 4, "IHDR", 4)) {
            width = (size_t)png[at + 8] << 24 | (size_t)png[at + 9] << 16 | (size_t)png[at + 10] << 8 | png[at + 11];
            height = (size_t)png[at + 12] << 24 | (size_t)png[at + 13] << 16 | (size_t)png[at + 14] << 8 | png[at + 15];
            channels = png[at + 17] == 6 ? 4 : 3;
        }
        if (!memcmp(png + at + 4, "IDAT", 4)) {
            memcpy(idat + idat_size, png + at + 8, length);
            idat_size += length;
        }
        at += 12 + (long)length;
    }
    size_t row = width * channels + 1, total = row * height;
    unsigned char *rows = malloc(total);
    uLongf made = total;
    if (!width || uncompress(rows, &made, idat, idat_size) != Z_OK || made != total)
        return fprintf(stderr, "%s: not an 8-bit RGB(A) PNG ImageWall reads here\n", argv[1]), 2;
    size_t band = (size_t)band_rows;
    size_t cap = compressBound(total) + iw_deflate_bound(total);
    unsigned char *out = malloc(cap);
    if (only) { /* `none`: reading alone, the baseline to subtract from the others' counts */
        size_t size = !strcmp(only, "none") ? 0
                      : strcmp(only, "zlib") ? by_own(rows, row, height, band, out)
                                             : by_zlib(rows, row, height, band, out, cap);
        printf("%s: %zu bytes\n", only, size);
        return 0;
    }
    double zlib_time = 1e9, own_time = 1e9;
    size_t zlib_size = 0, own_size = 0;
    for (int run = 0; run < 5; run++) {
        double t0 = cpu_now();
        zlib_size = by_zlib(rows, row, height, band, out, cap);
        double t1 = cpu_now();
        own_size = by_own(rows, row, height, band, out);
        double t2 = cpu_now();
        if (t1 - t0 < zlib_time) zlib_time = t1 - t0;
        if (t2 - t1 < own_time) own_time = t2 - t1;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    inflateInit2(&z, -15);
    unsigned char *back = malloc(total + 1);
    z.next_in = out;
    z.avail_in = (uInt)own_size;
    z.next_out = back;
    z.avail_out = (uInt)(total + 1);
    int same = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == total && !memcmp(back, rows, total);
    double speed = zlib_time / own_time, size = 100.0 * own_size / zlib_size - 100;
    printf("%s: %zux%zu, %.1f MB of filtered rows in bands of %zu: zlib Z_RLE %.3f s %zu B; ImageWall %.3f s %zu B: "
           "%.2fx the speed (target 3x: %s), %+.1f %% size (target +5 %%: %s), zlib reads it back: %s\n",
           argv[1], width, height, total / 1e6, band, zlib_time, zlib_size, own_time, own_size, speed,
           speed >= 3 ? "met" : "not met", size, size <= 5 ? "met" : "not met", same ? "yes" : "NO");
    return same ? 0 : 1;
}
