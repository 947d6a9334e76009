#include "iw_kernels.h"

#include <immintrin.h>

/* The pass one byte at a time: the definition's steps (JSONArraySplitter.passElement). Gives
   1 with *index at the closing bracket that brings the depth to `stop_depth`, else 0 with *index
   at `end`. */
static int pass_plain(const uint8_t *bytes, size_t *index, size_t end, iw_json_state *state, int64_t stop_depth) {
    for (size_t i = *index; i < end; i++) {
        uint8_t byte = bytes[i];
        if (state->in_string) {
            if (state->escaped) {
                state->escaped = 0;
            } else if (byte == '\\') {
                state->escaped = 1;
            } else if (byte == '"') {
                state->in_string = 0;
            }
        } else if (byte == '"') {
            state->in_string = 1;
        } else if ((byte | 0x20) == '{') {
            state->depth += 1;
        } else if ((byte | 0x20) == '}') {
            state->depth -= 1;
            if (state->depth == stop_depth) {
                *index = i;
                return 1;
            }
        }
    }
    *index = end;
    return 0;
}

/* Bit i of x ^ x << 1 ^ ... : the bytes from an opening quote up to the closing one, the
   opening one included. */
static inline uint64_t prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* The bytes of 16 equal to `c`, as the low 16 bits. */
__attribute__((target("sse2"))) static inline uint64_t equal_bits(__m128i v, __m128i c) {
    return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c));
}

/* Sixty-four bytes at a time: where the quotes, backslashes and brackets are, as bits; the bytes
   inside strings from the quotes' running parity; the brackets outside them taken in order. A
   block with a backslash, or begun just after one, goes one byte at a time, as does the tail. */
__attribute__((target("sse2"))) static int pass_sse2(const uint8_t *bytes, size_t *index, size_t end,
                                                     iw_json_state *state, int64_t stop_depth) {
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'), fold = _mm_set1_epi8(0x20);
    size_t i = *index;
    while (i + 64 <= end) {
        uint64_t quotes = 0, backslashes = 0, opens = 0, closes = 0;
        for (int k = 0; k < 4; k++) {
            __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i + 16 * k));
            __m128i folded = _mm_or_si128(v, fold); /* '[' and '{' alike, ']' and '}' alike */
            quotes |= equal_bits(v, quote) << (16 * k);
            backslashes |= equal_bits(v, backslash) << (16 * k);
            opens |= equal_bits(folded, open) << (16 * k);
            closes |= equal_bits(folded, close) << (16 * k);
        }
        if (backslashes != 0 || state->escaped) {
            size_t at = i;
            if (pass_plain(bytes, &at, i + 64, state, stop_depth)) {
                *index = at;
                return 1;
            }
            i += 64;
            continue;
        }
        uint64_t inside = prefix_xor(quotes) ^ (state->in_string ? ~(uint64_t)0 : 0);
        uint64_t brackets = (opens | closes) & ~inside;
        while (brackets != 0) {
            int bit = __builtin_ctzll(brackets);
            brackets &= brackets - 1;
            if (opens >> bit & 1) {
                state->depth += 1;
            } else {
                state->depth -= 1;
                if (state->depth == stop_depth) {
                    state->in_string = 0;
                    *index = i + (size_t)bit;
                    return 1;
                }
            }
        }
        state->in_string = (uint8_t)(inside >> 63);
        i += 64;
    }
    *index = i;
    return pass_plain(bytes, index, end, state, stop_depth);
}

int iw_json_pass(iw_kernel kernel, const uint8_t *bytes, size_t *index, size_t end, iw_json_state *state,
                 int64_t stop_depth) {
    /* SSE2 for AVX2 too: the pass is bound by its brackets, not by the width of its loads. */
    if (kernel == IW_KERNEL_PLAIN) return pass_plain(bytes, index, end, state, stop_depth);
    return pass_sse2(bytes, index, end, state, stop_depth);
}
