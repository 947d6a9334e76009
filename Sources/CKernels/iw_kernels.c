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

__attribute__((target("avx2"))) static void add_avx2(const uint8_t *lines, size_t line_bytes,
                                                     const int16_t *weights, size_t count, int32_t *sums,
                                                     size_t length, int32_t half) {
    for (size_t i = 0; i < length; i++) sums[i] = half;
    for (size_t k = 0; k < count; k += 2) {
        const uint8_t *a = lines + k * line_bytes;
        const uint8_t *b = k + 1 < count ? a + line_bytes : a;
        int16_t wa = weights[k], wb = k + 1 < count ? weights[k + 1] : 0;
        const __m256i pair = _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)wa | (uint32_t)(uint16_t)wb << 16));
        size_t i = 0;
        for (; i + 16 <= length; i += 16) {
            /* Sixteen bytes of each line, widened and interleaved: a0 b0 a1 b1 ... in 16-bit lanes. */
            __m128i x = _mm_loadu_si128((const __m128i *)(a + i)), y = _mm_loadu_si128((const __m128i *)(b + i));
            __m256i lo = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(x, y));
            __m256i hi = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(x, y));
            __m256i *s = (__m256i *)(sums + i);
            _mm256_storeu_si256(s, _mm256_add_epi32(_mm256_loadu_si256(s), _mm256_madd_epi16(lo, pair)));
            _mm256_storeu_si256(s + 1, _mm256_add_epi32(_mm256_loadu_si256(s + 1), _mm256_madd_epi16(hi, pair)));
        }
        add_pair_rest(a, b, wa, wb, sums, i, length);
    }
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

void iw_add_lines(iw_kernel kernel, const uint8_t *lines, size_t line_bytes, const int16_t *weights, size_t count,
                  int32_t *sums, size_t length, int32_t half) {
    if (kernel == IW_KERNEL_BEST) kernel = iw_best_kernel();
    switch (kernel) {
    case IW_KERNEL_AVX2:
        if (iw_best_kernel() == IW_KERNEL_AVX2) {
            add_avx2(lines, line_bytes, weights, count, sums, length, half);
            return;
        }
        /* this CPU has no AVX2: the SSE2 version, which gives the same sums */
        add_sse2(lines, line_bytes, weights, count, sums, length, half);
        return;
    case IW_KERNEL_SSE2:
        add_sse2(lines, line_bytes, weights, count, sums, length, half);
        return;
    default:
        add_plain(lines, line_bytes, weights, count, sums, length, half);
    }
}
