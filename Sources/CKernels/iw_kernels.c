#include "iw_kernels.h"

#include <immintrin.h>
#include <pthread.h>
#include <string.h>

/* Lines are taken two at a time (the last alone with a weight of 0 for a partner), so that the
   vector versions multiply byte pairs by weight pairs in one instruction (pmaddwd). */

static void add_plain(const uint8_t *lines, size_t line_bytes, const int16_t *weights, size_t count, int32_t *sums,
                      size_t length, int32_t half) {
    for (size_t i = 0; i < length; i++) sums[i] = half;
    for (size_t k = 0; k < count; k++) {
        const uint8_t *line = lines + k * line_bytes;
        int32_t w = weights[k];
        for (size_t i = 0; i < length; i++) sums[i] = (int32_t)((uint32_t)sums[i] + (uint32_t)(line[i] * w));
    }
}

/* Lines `a` and `b` weighted by `wa` and `wb` added to `sums` from `from` to `length`: what is
   left after the vector loop. */
static void add_pair_rest(const uint8_t *a, const uint8_t *b, int16_t wa, int16_t wb, int32_t *sums, size_t from,
                          size_t length) {
    for (size_t i = from; i < length; i++)
        sums[i] = (int32_t)((uint32_t)sums[i] + (uint32_t)(a[i] * wa) + (uint32_t)(b[i] * wb));
}

__attribute__((target("sse2"))) static void add_sse2(const uint8_t *lines, size_t line_bytes,
                                                     const int16_t *weights, size_t count, int32_t *sums,
                                                     size_t length, int32_t half) {
    for (size_t i = 0; i < length; i++) sums[i] = half;
    const __m128i zero = _mm_setzero_si128();
    for (size_t k = 0; k < count; k += 2) {
        const uint8_t *a = lines + k * line_bytes;
        const uint8_t *b = k + 1 < count ? a + line_bytes : a;
        int16_t wa = weights[k], wb = k + 1 < count ? weights[k + 1] : 0;
        const __m128i pair = _mm_set1_epi32((int32_t)((uint32_t)(uint16_t)wa | (uint32_t)(uint16_t)wb << 16));
        size_t i = 0;
        for (; i + 16 <= length; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(a + i)), y = _mm_loadu_si128((const __m128i *)(b + i));
            __m128i lo = _mm_unpacklo_epi8(x, y), hi = _mm_unpackhi_epi8(x, y); /* a0 b0 a1 b1 ... */
            __m128i p0 = _mm_unpacklo_epi8(lo, zero), p1 = _mm_unpackhi_epi8(lo, zero);
            __m128i p2 = _mm_unpacklo_epi8(hi, zero), p3 = _mm_unpackhi_epi8(hi, zero);
            __m128i *s = (__m128i *)(sums + i);
            _mm_storeu_si128(s, _mm_add_epi32(_mm_loadu_si128(s), _mm_madd_epi16(p0, pair)));
            _mm_storeu_si128(s + 1, _mm_add_epi32(_mm_loadu_si128(s + 1), _mm_madd_epi16(p1, pair)));
            _mm_storeu_si128(s + 2, _mm_add_epi32(_mm_loadu_si128(s + 2), _mm_madd_epi16(p2, pair)));
            _mm_storeu_si128(s + 3, _mm_add_epi32(_mm_loadu_si128(s + 3), _mm_madd_epi16(p3, pair)));
        }
        add_pair_rest(a, b, wa, wb, sums, i, length);
    }
}

/* The most lines whose weights add_avx2 holds in registers' worth of pairs. */
#define HELD_LINES 128

__attribute__((target("avx2"))) static void add_avx2(const uint8_t *lines, size_t line_bytes,
                                                     const int16_t *weights, size_t count, int32_t *sums,
                                                     size_t length, int32_t half) {
    size_t i = 0;
    if (count <= HELD_LINES) {
        /* Thirty-two sums at a time kept in registers through every line, and stored once. */
        __m256i pairs[HELD_LINES / 2];
        for (size_t k = 0; k < count; k += 2) {
            int16_t wa = weights[k], wb = k + 1 < count ? weights[k + 1] : 0;
            pairs[k / 2] = _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)wa | (uint32_t)(uint16_t)wb << 16));
        }
        const __m256i zero = _mm256_setzero_si256(), start = _mm256_set1_epi32(half);
        for (; i + 32 <= length; i += 32) {
            __m256i s0 = start, s1 = start, s2 = start, s3 = start;
            const uint8_t *a = lines + i;
            for (size_t k = 0; k < count; k += 2, a += 2 * line_bytes) {
                /* the last of an odd count read again as its own partner, weighted 0 */
                const uint8_t *b = k + 1 < count ? a + line_bytes : a;
                __m256i x = _mm256_loadu_si256((const __m256i *)a), y = _mm256_loadu_si256((const __m256i *)b);
                /* a0 b0 a1 b1 ... within each 128-bit half, widened */
                __m256i lo = _mm256_unpacklo_epi8(x, y), hi = _mm256_unpackhi_epi8(x, y), w = pairs[k / 2];
                s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), w));
                s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), w));
                s2 = _mm256_add_epi32(s2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), w));
                s3 = _mm256_add_epi32(s3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), w));
            }
            /* s0 holds the sums of bytes 0-3 and 16-19, s1 4-7 and 20-23, s2 8-11 and 24-27, s3
               12-15 and 28-31: their halves put back in order */
            __m256i *out = (__m256i *)(sums + i);
            _mm256_storeu_si256(out, _mm256_permute2x128_si256(s0, s1, 0x20));
            _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(s2, s3, 0x20));
            _mm256_storeu_si256(out + 2, _mm256_permute2x128_si256(s0, s1, 0x31));
            _mm256_storeu_si256(out + 3, _mm256_permute2x128_si256(s2, s3, 0x31));
        }
        if (i == length) return;
    }
    /* Line pair by line pair over the rest (all of it for more lines than are held). */
    for (size_t j = i; j < length; j++) sums[j] = half;
    for (size_t k = 0; k < count; k += 2) {
        const uint8_t *a = lines + k * line_bytes;
        const uint8_t *b = k + 1 < count ? a + line_bytes : a;
        int16_t wa = weights[k], wb = k + 1 < count ? weights[k + 1] : 0;
        const __m256i pair = _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)wa | (uint32_t)(uint16_t)wb << 16));
        size_t j = i;
        for (; j + 16 <= length; j += 16) {
            /* Sixteen bytes of each line, widened and interleaved: a0 b0 a1 b1 ... in 16-bit lanes. */
            __m128i x = _mm_loadu_si128((const __m128i *)(a + j)), y = _mm_loadu_si128((const __m128i *)(b + j));
            __m256i lo = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(x, y));
            __m256i hi = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(x, y));
            __m256i *s = (__m256i *)(sums + j);
            _mm256_storeu_si256(s, _mm256_add_epi32(_mm256_loadu_si256(s), _mm256_madd_epi16(lo, pair)));
            _mm256_storeu_si256(s + 1, _mm256_add_epi32(_mm256_loadu_si256(s + 1), _mm256_madd_epi16(hi, pair)));
        }
        add_pair_rest(a, b, wa, wb, sums, j, length);
    }
}

/* The 2 x 2 box shrink. Each output channel is the rounded mean of four bytes: the pixel's and
   its right neighbour's, in both rows. The vector versions first make a line of such means for
   every byte position (`pairs[j]`, of bytes j and j + channels), whole vectors at a time, then
   keep every other pixel of it. */

static inline uint8_t mean4(const uint8_t *top, const uint8_t *bottom, size_t i, size_t j) {
    return (uint8_t)(((unsigned)top[i] + bottom[i] + top[j] + bottom[j] + 2) >> 2);
}

static void halve_plain(const uint8_t *top, const uint8_t *bottom, size_t width, size_t channels, uint8_t *out) {
    size_t half = (width + 1) / 2;
    for (size_t x = 0; x < half; x++) {
        size_t i = 2 * x * channels, j = 2 * x + 1 < width ? i + channels : i;
        for (size_t c = 0; c < channels; c++) out[x * channels + c] = mean4(top, bottom, i + c, j + c);
    }
}

/* Every other pixel of `pairs` from pixel `first` of `out` on; the last pixel of an odd width
   alone. */
static void halve_gather(const uint8_t *top, const uint8_t *bottom, size_t width, size_t channels, uint8_t *out,
                         const uint8_t *pairs, size_t first) {
    size_t whole = width / 2;
    if (channels == 4) {
        for (size_t x = first; x < whole; x++) memcpy(out + 4 * x, pairs + 8 * x, 4);
    } else if (channels == 3 && whole > first) {
        /* four bytes a pixel, the fourth overwritten by the next pixel; the last one exactly */
        for (size_t x = first; x + 1 < whole; x++) memcpy(out + 3 * x, pairs + 6 * x, 4);
        memcpy(out + 3 * (whole - 1), pairs + 6 * (whole - 1), 3);
    } else if (channels != 3) {
        for (size_t x = first; x < whole; x++) memcpy(out + x * channels, pairs + 2 * x * channels, channels);
    }
    if (width % 2 == 1) {
        size_t i = (width - 1) * channels;
        for (size_t c = 0; c < channels; c++) out[whole * channels + c] = mean4(top, bottom, i + c, i + c);
    }
}

/* The means of `pairs` from `from` on, and every other pixel of them into `out`. */
static void halve_finish(const uint8_t *top, const uint8_t *bottom, size_t width, size_t channels, uint8_t *out,
                         uint8_t *pairs, size_t from) {
    size_t length = width * channels;
    for (size_t j = from; j + channels < length; j++) pairs[j] = mean4(top, bottom, j, j + channels);
    halve_gather(top, bottom, width, channels, out, pairs, 0);
}

__attribute__((target("sse2"))) static void halve_sse2(const uint8_t *top, const uint8_t *bottom, size_t width,
                                                       size_t channels, uint8_t *out, uint8_t *pairs) {
    const size_t length = width * channels;
    const __m128i zero = _mm_setzero_si128(), two = _mm_set1_epi16(2);
    size_t j = 0;
    for (; j + channels + 16 <= length; j += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(top + j));
        __m128i b = _mm_loadu_si128((const __m128i *)(bottom + j));
        __m128i c = _mm_loadu_si128((const __m128i *)(top + j + channels));
        __m128i d = _mm_loadu_si128((const __m128i *)(bottom + j + channels));
        __m128i lo = _mm_add_epi16(_mm_add_epi16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero)),
                                   _mm_add_epi16(_mm_unpacklo_epi8(c, zero), _mm_unpacklo_epi8(d, zero)));
        __m128i hi = _mm_add_epi16(_mm_add_epi16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero)),
                                   _mm_add_epi16(_mm_unpackhi_epi8(c, zero), _mm_unpackhi_epi8(d, zero)));
        lo = _mm_srli_epi16(_mm_add_epi16(lo, two), 2);
        hi = _mm_srli_epi16(_mm_add_epi16(hi, two), 2);
        _mm_storeu_si128((__m128i *)(pairs + j), _mm_packus_epi16(lo, hi));
    }
    halve_finish(top, bottom, width, channels, out, pairs, j);
}

__attribute__((target("avx2"))) static void halve_avx2(const uint8_t *top, const uint8_t *bottom, size_t width,
                                                       size_t channels, uint8_t *out, uint8_t *pairs) {
    const size_t length = width * channels;
    const __m256i zero = _mm256_setzero_si256(), two = _mm256_set1_epi16(2);
    size_t j = 0;
    for (; j + channels + 32 <= length; j += 32) {
        /* unpacking and packing both work within each 128-bit half, so the bytes keep their order */
        __m256i a = _mm256_loadu_si256((const __m256i *)(top + j));
        __m256i b = _mm256_loadu_si256((const __m256i *)(bottom + j));
        __m256i c = _mm256_loadu_si256((const __m256i *)(top + j + channels));
        __m256i d = _mm256_loadu_si256((const __m256i *)(bottom + j + channels));
        __m256i lo = _mm256_add_epi16(_mm256_add_epi16(_mm256_unpacklo_epi8(a, zero), _mm256_unpacklo_epi8(b, zero)),
                                      _mm256_add_epi16(_mm256_unpacklo_epi8(c, zero), _mm256_unpacklo_epi8(d, zero)));
        __m256i hi = _mm256_add_epi16(_mm256_add_epi16(_mm256_unpackhi_epi8(a, zero), _mm256_unpackhi_epi8(b, zero)),
                                      _mm256_add_epi16(_mm256_unpackhi_epi8(c, zero), _mm256_unpackhi_epi8(d, zero)));
        lo = _mm256_srli_epi16(_mm256_add_epi16(lo, two), 2);
        hi = _mm256_srli_epi16(_mm256_add_epi16(hi, two), 2);
        _mm256_storeu_si256((__m256i *)(pairs + j), _mm256_packus_epi16(lo, hi));
    }
    for (; j + channels < length; j++) pairs[j] = mean4(top, bottom, j, j + channels);
    size_t x = 0;
    if (channels == 3) {
        /* eight pixels (24 bytes) from each 48 bytes of means (bytes 6x, 6x + 1, 6x + 2), read
           within the row: 6 x (width / 2) bytes at most */
        const __m128i from0 = _mm_setr_epi8(0, 1, 2, 6, 7, 8, 12, 13, 14, -1, -1, -1, -1, -1, -1, -1);
        const __m128i from1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 3, 4, 8, 9, 10, 14);
        const __m128i last1 = _mm_setr_epi8(15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
        const __m128i from2 = _mm_setr_epi8(-1, 0, 4, 5, 6, 10, 11, 12, -1, -1, -1, -1, -1, -1, -1, -1);
        for (; x + 8 <= width / 2; x += 8) {
            const uint8_t *p = pairs + 6 * x;
            __m128i v0 = _mm_loadu_si128((const __m128i *)p), v1 = _mm_loadu_si128((const __m128i *)(p + 16)),
                    v2 = _mm_loadu_si128((const __m128i *)(p + 32));
            __m128i first = _mm_or_si128(_mm_shuffle_epi8(v0, from0), _mm_shuffle_epi8(v1, from1));
            __m128i rest = _mm_or_si128(_mm_shuffle_epi8(v1, last1), _mm_shuffle_epi8(v2, from2));
            _mm_storeu_si128((__m128i *)(out + 3 * x), first);
            _mm_storel_epi64((__m128i *)(out + 3 * x + 16), rest);
        }
    }
    halve_gather(top, bottom, width, channels, out, pairs, x);
}

/* Sums to bytes, and each premultiplied colour no larger than its alpha. */
static void bytes_plain(const int32_t *sums, size_t count, size_t channels, int precision, uint8_t *bytes) {
    for (size_t i = 0; i < count; i++) {
        int32_t v = sums[i] >> precision;
        bytes[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    if (channels == 4) {
        for (size_t i = 0; i + 4 <= count; i += 4) {
            uint8_t alpha = bytes[i + 3];
            for (size_t c = 0; c < 3; c++) bytes[i + c] = bytes[i + c] < alpha ? bytes[i + c] : alpha;
        }
    }
}

/* The shift is arithmetic, as Swift's; the two saturating packs hold each value to -32768...32767
   and then to 0...255, which is holding it to 0...255; alpha is spread over its pixel's four bytes
   for an unsigned minimum that leaves it as it is. */
__attribute__((target("sse2"))) static void bytes_sse2(const int32_t *sums, size_t count, size_t channels,
                                                       int precision, uint8_t *bytes) {
    const __m128i shift = _mm_cvtsi32_si128(precision);
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i a = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)(sums + i)), shift);
        __m128i b = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)(sums + i + 4)), shift);
        __m128i c = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)(sums + i + 8)), shift);
        __m128i d = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)(sums + i + 12)), shift);
        __m128i v = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_packs_epi32(c, d));
        if (channels == 4) {
            __m128i alpha = _mm_srli_epi32(v, 24);
            alpha = _mm_or_si128(alpha, _mm_slli_epi32(alpha, 8));
            alpha = _mm_or_si128(alpha, _mm_slli_epi32(alpha, 16));
            v = _mm_min_epu8(v, alpha);
        }
        _mm_storeu_si128((__m128i *)(bytes + i), v);
    }
    bytes_plain(sums + i, count - i, channels, precision, bytes + i);
}

/* Pixel p of each line to its place. Three bytes go as four, the fourth landing where the next
   line's pixel is written later (in this block, or the next); when these are the `last` lines,
   the last one's go exactly. */
static void place(const uint8_t *bytes, size_t rows, size_t length, size_t channels, uint8_t *out, size_t pixel_bytes,
                  int last, size_t from) {
    size_t pixels = length / channels;
    out += from * pixel_bytes;
    for (size_t p = from; p < pixels; p++, out += pixel_bytes) {
        const uint8_t *pixel = bytes + p * channels;
        if (channels != 3) {
            for (size_t q = 0; q < rows; q++) memcpy(out + channels * q, pixel + q * length, channels);
        } else {
            size_t wide = last ? rows - 1 : rows;
            for (size_t q = 0; q < wide; q++) memcpy(out + 3 * q, pixel + q * length, 4);
            if (last) memcpy(out + 3 * (rows - 1), pixel + (rows - 1) * length, 3);
        }
    }
}

/* PNG's Paeth filter (ISO 15948, 9.4) from byte `from` on, where every byte has a left
   neighbour: `a`, `b` and `c` are the bytes left, above and above-left in the unfiltered rows. */
static void paeth_plain(const uint8_t *row, const uint8_t *up, uint8_t *out, size_t from, size_t n, size_t bpp) {
    for (size_t i = from; i < n; i++) {
        int16_t a = row[i - bpp], b = up[i], c = up[i - bpp];
        int16_t p = b - c, q = a - c, r = p + q;
        int16_t pa = p < 0 ? -p : p, pb = q < 0 ? -q : q, pc = r < 0 ? -r : r;
        int16_t prediction = ((pa <= pb) & (pa <= pc)) ? a : (pb <= pc ? b : c);
        out[i] = (uint8_t)(row[i] - prediction);
    }
}

/* Eight bytes in 16-bit lanes; SSE2 has no absolute value nor blend: a maximum with the negation,
   and masks. */
__attribute__((target("sse2"))) static void paeth_sse2(const uint8_t *row, const uint8_t *up, uint8_t *out,
                                                       size_t from, size_t n, size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    size_t i = from;
    for (; i + 8 <= n; i += 8) {
        __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(row + i - bpp)), zero);
        __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(up + i)), zero);
        __m128i c = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(up + i - bpp)), zero);
        __m128i p = _mm_sub_epi16(b, c), q = _mm_sub_epi16(a, c), r = _mm_add_epi16(p, q);
        __m128i pa = _mm_max_epi16(p, _mm_sub_epi16(zero, p));
        __m128i pb = _mm_max_epi16(q, _mm_sub_epi16(zero, q));
        __m128i pc = _mm_max_epi16(r, _mm_sub_epi16(zero, r));
        __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
        __m128i use_c = _mm_cmpgt_epi16(pb, pc);
        __m128i bc = _mm_or_si128(_mm_and_si128(use_c, c), _mm_andnot_si128(use_c, b));
        __m128i prediction = _mm_or_si128(_mm_and_si128(not_a, bc), _mm_andnot_si128(not_a, a));
        __m128i bytes = _mm_packus_epi16(prediction, prediction);
        _mm_storel_epi64((__m128i *)(out + i), _mm_sub_epi8(_mm_loadl_epi64((const __m128i *)(row + i)), bytes));
    }
    paeth_plain(row, up, out, i, n, bpp);
}

/* Sixteen bytes in 16-bit lanes. */
__attribute__((target("avx2"))) static void paeth_avx2(const uint8_t *row, const uint8_t *up, uint8_t *out,
                                                       size_t from, size_t n, size_t bpp) {
    size_t i = from;
    for (; i + 16 <= n; i += 16) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + i - bpp)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(up + i)));
        __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(up + i - bpp)));
        __m256i p = _mm256_sub_epi16(b, c), q = _mm256_sub_epi16(a, c), r = _mm256_add_epi16(p, q);
        __m256i pa = _mm256_abs_epi16(p), pb = _mm256_abs_epi16(q), pc = _mm256_abs_epi16(r);
        __m256i not_a = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
        __m256i bc = _mm256_blendv_epi8(b, c, _mm256_cmpgt_epi16(pb, pc));
        __m256i prediction = _mm256_blendv_epi8(a, bc, not_a);
        /* the two 128-bit halves packed side by side: the sixteen bytes in order */
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(prediction), _mm256_extracti128_si256(prediction, 1));
        _mm_storeu_si128((__m128i *)(out + i), _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(row + i)), bytes));
    }
    paeth_plain(row, up, out, i, n, bpp);
}

/* Four lines of four pixels at a time turned as a block (the 32-bit lanes of four vectors
   transposed, a 3-byte pixel widened to a lane and narrowed back by byte shuffles): the pixels
   before the return are placed, each pixel's 12 or 16 bytes exactly. */
__attribute__((target("avx2"))) static size_t place_four_avx2(const uint8_t *bytes, size_t length, size_t channels,
                                                              uint8_t *out, size_t pixel_bytes) {
    size_t pixels = length / channels, p = 0;
    if (channels != 3 && channels != 4) return 0;
    const __m128i widen = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i narrow = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    /* Sixteen bytes read a line: for three channels, 4 past the last line's twelve, within the
       scratch's room. */
    for (; p + 4 <= pixels; p += 4) {
        const uint8_t *at = bytes + channels * p;
        __m128i l0 = _mm_loadu_si128((const __m128i *)at);
        __m128i l1 = _mm_loadu_si128((const __m128i *)(at + length));
        __m128i l2 = _mm_loadu_si128((const __m128i *)(at + 2 * length));
        __m128i l3 = _mm_loadu_si128((const __m128i *)(at + 3 * length));
        if (channels == 3) {
            l0 = _mm_shuffle_epi8(l0, widen);
            l1 = _mm_shuffle_epi8(l1, widen);
            l2 = _mm_shuffle_epi8(l2, widen);
            l3 = _mm_shuffle_epi8(l3, widen);
        }
        __m128i t0 = _mm_unpacklo_epi32(l0, l1), t1 = _mm_unpacklo_epi32(l2, l3);
        __m128i t2 = _mm_unpackhi_epi32(l0, l1), t3 = _mm_unpackhi_epi32(l2, l3);
        __m128i turned[4] = {_mm_unpacklo_epi64(t0, t1), _mm_unpackhi_epi64(t0, t1), _mm_unpacklo_epi64(t2, t3),
                             _mm_unpackhi_epi64(t2, t3)};
        for (size_t k = 0; k < 4; k++) {
            uint8_t *o = out + (p + k) * pixel_bytes;
            if (channels == 4) {
                _mm_storeu_si128((__m128i *)o, turned[k]);
            } else {
                __m128i v = _mm_shuffle_epi8(turned[k], narrow);
                _mm_storel_epi64((__m128i *)o, v);
                uint32_t rest = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(v, 8));
                memcpy(o + 8, &rest, 4);
            }
        }
    }
    return p;
}

static iw_kernel best = IW_KERNEL_SSE2;
static pthread_once_t chosen = PTHREAD_ONCE_INIT;

static void choose(void) {
    __builtin_cpu_init();
    best = __builtin_cpu_supports("avx2") ? IW_KERNEL_AVX2 : IW_KERNEL_SSE2;
}

iw_kernel iw_best_kernel(void) {
    pthread_once(&chosen, choose);
    return best;
}

/* The version that runs for `kernel`: the best for IW_KERNEL_BEST, and SSE2, which gives the
   same bytes, for AVX2 on a CPU without it. */
static iw_kernel runnable(iw_kernel kernel) {
    if (kernel == IW_KERNEL_BEST || (kernel == IW_KERNEL_AVX2 && iw_best_kernel() != IW_KERNEL_AVX2))
        return iw_best_kernel();
    return kernel;
}

void iw_add_lines(iw_kernel kernel, const uint8_t *lines, size_t line_bytes, const int16_t *weights, size_t count,
                  int32_t *sums, size_t length, int32_t half) {
    switch (runnable(kernel)) {
    case IW_KERNEL_AVX2:
        add_avx2(lines, line_bytes, weights, count, sums, length, half);
        return;
    case IW_KERNEL_SSE2:
        add_sse2(lines, line_bytes, weights, count, sums, length, half);
        return;
    default:
        add_plain(lines, line_bytes, weights, count, sums, length, half);
    }
}

void iw_halve_row(iw_kernel kernel, const uint8_t *top, const uint8_t *bottom, size_t width, size_t channels,
                  uint8_t *out, uint8_t *scratch) {
    switch (runnable(kernel)) {
    case IW_KERNEL_AVX2:
        halve_avx2(top, bottom, width, channels, out, scratch);
        return;
    case IW_KERNEL_SSE2:
        halve_sse2(top, bottom, width, channels, out, scratch);
        return;
    default:
        halve_plain(top, bottom, width, channels, out);
    }
}

void iw_store_lines(iw_kernel kernel, const int32_t *sums, size_t rows, size_t length, size_t channels, uint8_t *out,
                    size_t pixel_bytes, int precision, int last, uint8_t *scratch) {
    if (rows == 0) return;
    kernel = runnable(kernel);
    if (kernel == IW_KERNEL_PLAIN) {
        bytes_plain(sums, rows * length, channels, precision, scratch);
    } else {
        bytes_sse2(sums, rows * length, channels, precision, scratch);
    }
    size_t placed = 0;
    if (kernel == IW_KERNEL_AVX2 && rows == 4) placed = place_four_avx2(scratch, length, channels, out, pixel_bytes);
    place(scratch, rows, length, channels, out, pixel_bytes, last, placed);
}

void iw_paeth_row(iw_kernel kernel, const uint8_t *row, const uint8_t *up, uint8_t *out, size_t n, size_t bpp) {
    /* On the left edge a and c are 0, so Paeth predicts b. */
    size_t lead = n < bpp ? n : bpp;
    for (size_t i = 0; i < lead; i++) out[i] = (uint8_t)(row[i] - up[i]);
    switch (runnable(kernel)) {
    case IW_KERNEL_AVX2:
        paeth_avx2(row, up, out, lead, n, bpp);
        return;
    case IW_KERNEL_SSE2:
        paeth_sse2(row, up, out, lead, n, bpp);
        return;
    default:
        paeth_plain(row, up, out, lead, n, bpp);
    }
}

/* ---- Planes interleaved into pixels ---- */

static void interleave_plain(const uint8_t *const planes[4], size_t from, size_t width, size_t channels,
                             uint8_t *out) {
    if (channels == 4) {
        for (size_t x = from; x < width; x++) {
            out[4 * x] = planes[0][x], out[4 * x + 1] = planes[1][x], out[4 * x + 2] = planes[2][x];
            out[4 * x + 3] = planes[3][x];
        }
    } else {
        for (size_t x = from; x < width; x++)
            out[3 * x] = planes[0][x], out[3 * x + 1] = planes[1][x], out[3 * x + 2] = planes[2][x];
    }
}

/* Sixteen RGBA pixels at a time by unpacking: the pixels placed, up to the last whole sixteen. */
__attribute__((target("sse2"))) static size_t interleave_four_sse2(const uint8_t *const planes[4], size_t width,
                                                                   uint8_t *out) {
    size_t x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128i r = _mm_loadu_si128((const __m128i *)(planes[0] + x)), g = _mm_loadu_si128((const __m128i *)(planes[1] + x));
        __m128i b = _mm_loadu_si128((const __m128i *)(planes[2] + x)), a = _mm_loadu_si128((const __m128i *)(planes[3] + x));
        __m128i rg_low = _mm_unpacklo_epi8(r, g), rg_high = _mm_unpackhi_epi8(r, g);
        __m128i ba_low = _mm_unpacklo_epi8(b, a), ba_high = _mm_unpackhi_epi8(b, a);
        __m128i *to = (__m128i *)(out + 4 * x);
        _mm_storeu_si128(to, _mm_unpacklo_epi16(rg_low, ba_low));
        _mm_storeu_si128(to + 1, _mm_unpackhi_epi16(rg_low, ba_low));
        _mm_storeu_si128(to + 2, _mm_unpacklo_epi16(rg_high, ba_high));
        _mm_storeu_si128(to + 3, _mm_unpackhi_epi16(rg_high, ba_high));
    }
    return x;
}

/* Where each of 48 output bytes (sixteen RGB pixels, in three stores) takes its byte from the R, G
   and B planes' sixteen (0x80: from none). */
static const uint8_t rgb_picks[3][3][16] = {
    {{0, 0x80, 0x80, 1, 0x80, 0x80, 2, 0x80, 0x80, 3, 0x80, 0x80, 4, 0x80, 0x80, 5},
     {0x80, 0, 0x80, 0x80, 1, 0x80, 0x80, 2, 0x80, 0x80, 3, 0x80, 0x80, 4, 0x80, 0x80},
     {0x80, 0x80, 0, 0x80, 0x80, 1, 0x80, 0x80, 2, 0x80, 0x80, 3, 0x80, 0x80, 4, 0x80}},
    {{0x80, 0x80, 6, 0x80, 0x80, 7, 0x80, 0x80, 8, 0x80, 0x80, 9, 0x80, 0x80, 10, 0x80},
     {5, 0x80, 0x80, 6, 0x80, 0x80, 7, 0x80, 0x80, 8, 0x80, 0x80, 9, 0x80, 0x80, 10},
     {0x80, 5, 0x80, 0x80, 6, 0x80, 0x80, 7, 0x80, 0x80, 8, 0x80, 0x80, 9, 0x80, 0x80}},
    {{0x80, 11, 0x80, 0x80, 12, 0x80, 0x80, 13, 0x80, 0x80, 14, 0x80, 0x80, 15, 0x80, 0x80},
     {0x80, 0x80, 11, 0x80, 0x80, 12, 0x80, 0x80, 13, 0x80, 0x80, 14, 0x80, 0x80, 15, 0x80},
     {10, 0x80, 0x80, 11, 0x80, 0x80, 12, 0x80, 0x80, 13, 0x80, 0x80, 14, 0x80, 0x80, 15}},
};

/* Sixteen RGB pixels at a time by byte shuffles (SSSE3's, which every AVX2 CPU has). */
__attribute__((target("avx2"))) static size_t interleave_three_avx2(const uint8_t *const planes[4], size_t width,
                                                                    uint8_t *out) {
    __m128i picks[3][3];
    for (int part = 0; part < 3; part++)
        for (int c = 0; c < 3; c++) picks[part][c] = _mm_loadu_si128((const __m128i *)rgb_picks[part][c]);
    size_t x = 0;
    for (; x + 16 <= width; x += 16) {
        __m128i r = _mm_loadu_si128((const __m128i *)(planes[0] + x)), g = _mm_loadu_si128((const __m128i *)(planes[1] + x));
        __m128i b = _mm_loadu_si128((const __m128i *)(planes[2] + x));
        for (int part = 0; part < 3; part++) {
            __m128i bytes = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(r, picks[part][0]), _mm_shuffle_epi8(g, picks[part][1])),
                                         _mm_shuffle_epi8(b, picks[part][2]));
            _mm_storeu_si128((__m128i *)(out + 3 * x + 16 * part), bytes);
        }
    }
    return x;
}

void iw_interleave_row(iw_kernel kernel, const uint8_t *const planes[4], size_t width, size_t channels, uint8_t *out) {
    size_t done = 0;
    switch (runnable(kernel)) {
    case IW_KERNEL_AVX2:
        done = channels == 4 ? interleave_four_sse2(planes, width, out) : interleave_three_avx2(planes, width, out);
        break;
    case IW_KERNEL_SSE2:
        if (channels == 4) done = interleave_four_sse2(planes, width, out);
        break;
    default:
        break;
    }
    interleave_plain(planes, done, width, channels, out);
}
