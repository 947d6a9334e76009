#include "iw_png.h"

#include "iw_deflate.h"
#include "iw_kernels.h"

#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

/* The five PNG filters of one row; `up` is the row above, NULL for a filter that does not read
   it (none, sub). One loop per filter, with no branch on the data, so that compilers vectorize
   them (Paeth about 7x faster than one loop switching per byte); Paeth, the sheets' filter, by
   the vector kernels. */
static void filter_row(int type, const uint8_t *row, const uint8_t *up, uint8_t *out, size_t n, int bpp) {
    size_t lead = n < (size_t)bpp ? n : (size_t)bpp;
    switch (type) {
    case 1:
        memcpy(out, row, lead);
        for (size_t i = lead; i < n; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
        return;
    case 2:
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(row[i] - up[i]);
        return;
    case 3:
        for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(row[i] - (up[i] >> 1));
        for (size_t i = lead; i < n; i++) out[i] = (uint8_t)(row[i] - (((unsigned)row[i - bpp] + up[i]) >> 1));
        return;
    case 4: /* the sheets' filter: the vector kernels' (AVX2 where the CPU has it, else SSE2) */
        iw_paeth_row(IW_KERNEL_BEST, row, up, out, n, (size_t)bpp);
        return;
    default:
        memcpy(out, row, n);
    }
}

/* libpng's heuristic: the filter whose output has the smallest sum of absolute (signed) values;
   without a row above, none or sub. */
static int adaptive_row(const uint8_t *row, const uint8_t *up, uint8_t *out, uint8_t *scratch, size_t n, int bpp) {
    unsigned long best = ~0ul;
    int chosen = 0;
    for (int type = 0; type <= (up ? 4 : 1); type++) {
        filter_row(type, row, up, scratch, n, bpp);
        unsigned long sum = 0;
        for (size_t i = 0; i < n; i++) sum += scratch[i] < 128 ? scratch[i] : 256 - scratch[i];
        if (sum < best) {
            best = sum;
            chosen = type;
            memcpy(out, scratch, n);
        }
    }
    return chosen;
}

/* A band's first row is filtered without the row above, so that the band decodes on its own
   and a decoder of the whole image reads the same: up becomes none; average and Paeth, sub. */
static int filter_without_above(int type) { return type == 0 || type == 2 ? 0 : 1; }

/* zlib's bound for any settings (deflateBound's when they are not its defaults), with room for
   the empty stored block a full flush ends with, or ImageWall's deflater's, the larger. */
size_t iw_png_segment_bound(size_t n) {
    size_t zlib = n + ((n + 7) >> 3) + ((n + 63) >> 6) + 5 + 16;
    size_t own = iw_deflate_bound(n);
    return zlib > own ? zlib : own;
}

int iw_png_filter_segment(const uint8_t *rows, size_t stride, uint32_t count, uint32_t width, int channels,
                          int filter, uint8_t *filtered) {
    size_t n = (size_t)width * channels;
    uint8_t *scratch = filter < 0 ? malloc(n ? n : 1) : NULL;
    if (filter < 0 && !scratch) return 1;
    for (uint32_t y = 0; y < count; y++) {
        const uint8_t *row = rows + (size_t)y * stride;
        const uint8_t *up = y > 0 ? rows + (size_t)(y - 1) * stride : NULL;
        uint8_t *line = filtered + (size_t)y * (n + 1);
        if (filter < 0) {
            line[0] = (uint8_t)adaptive_row(row, up, line + 1, scratch, n, channels);
        } else {
            int type = up ? filter : filter_without_above(filter);
            line[0] = (uint8_t)type;
            filter_row(type, row, up, line + 1, n, channels);
        }
    }
    free(scratch);
    return 0;
}

int iw_png_deflate_filtered(const uint8_t *filtered, size_t filtered_size, int level, int run_length, int last,
                            uint8_t *data, size_t capacity, iw_png_segment *out) {
    memset(out, 0, sizeof *out);
    if (capacity < iw_png_segment_bound(filtered_size) || !data || (!filtered && filtered_size)) return 1;
    static const uint8_t nothing = 0;
    if (!filtered) filtered = &nothing; /* no rows: an empty Swift array has no storage */
    if (level < 0) { /* ImageWall's deflater (iw_deflate.h) */
        out->size = iw_deflate_band(filtered, filtered_size, last, data);
    } else {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, run_length ? Z_RLE : Z_DEFAULT_STRATEGY) != Z_OK) return 1;
        z.next_in = (uint8_t *)filtered;
        z.avail_in = (uInt)filtered_size;
        z.next_out = data;
        z.avail_out = (uInt)capacity;
        int status = deflate(&z, last ? Z_FINISH : Z_FULL_FLUSH);
        int ok = last ? status == Z_STREAM_END : (status == Z_OK && z.avail_in == 0);
        out->size = z.total_out;
        deflateEnd(&z);
        if (!ok) return 1;
    }
    out->adler = libdeflate_adler32(1, filtered, filtered_size);
    out->filtered_size = filtered_size;
    return 0;
}

size_t iw_inflate_raw(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, int *ended) {
    z_stream z;
    memset(&z, 0, sizeof z);
    *ended = 0;
    if (inflateInit2(&z, -15) != Z_OK) return 0;
    uint8_t spare;
    z.next_in = (uint8_t *)in;
    z.avail_in = (uInt)in_size;
    z.next_out = out_size ? out : &spare;
    z.avail_out = (uInt)out_size;
    int status = inflate(&z, Z_FINISH);
    *ended = status == Z_STREAM_END && z.avail_in == 0;
    size_t made = z.total_out;
    inflateEnd(&z);
    return made;
}

/* The checksums by libdeflate (vectorised where the CPU allows; the same values everywhere, as
   checksums are); zlib's for joining two Adler-32s, which libdeflate has not. */
uint32_t iw_crc32(uint32_t value, const uint8_t *data, size_t size) { return libdeflate_crc32(value, data, size); }
uint32_t iw_adler32(uint32_t value, const uint8_t *data, size_t size) { return libdeflate_adler32(value, data, size); }
uint32_t iw_adler32_combine(uint32_t a, uint32_t b, size_t b_size) { return (uint32_t)adler32_combine(a, b, (z_off_t)b_size); }

const char *iw_zlib_library_version(void) { return zlibVersion(); }
