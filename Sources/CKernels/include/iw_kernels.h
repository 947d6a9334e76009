#ifndef IW_KERNELS_H
#define IW_KERNELS_H
/* The resampler's hot loops in C, the fast twins of their Swift definitions (Resampler.add,
   Resampler.store, BoxShrink.halved), the PNG encoder's Paeth filter, a decoder's colour planes
   made pixels (libheif's R, G, B), and the pass over a manifest's text that splits its tiles
   (JSONArraySplitter.passElement). Three versions of each — plain C, SSE2 (every x86-64) and
   AVX2, chosen at run time — give the same bytes (the JSON pass the same stops; its AVX2 is
   its SSE2), integer arithmetic being exact in any order. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { IW_KERNEL_BEST = 0, IW_KERNEL_PLAIN = 1, IW_KERNEL_SSE2 = 2, IW_KERNEL_AVX2 = 3 } iw_kernel;

/* The resampler's inner loop: sums[i] = half + the sum over k of lines[k * line_bytes + i] *
   weights[k], in 32-bit integers that wrap. The sums of `count` lines of `length` bytes from `lines` (`line_bytes` apart), weighted by
   `weights`, each plus `half`, into `sums`; with `kernel` (IW_KERNEL_BEST: the fastest this CPU
   runs). */
void iw_add_lines(iw_kernel kernel, const uint8_t *lines, size_t line_bytes, const int16_t *weights, size_t count,
                  int32_t *sums, size_t length, int32_t half);

/* One row of a 2 x 2 box shrink, the fast twin of BoxShrink.halved: out[x * channels + c] is
   (t(2x) + t(2x + 1) + 2) >> 2, where t(p) is top's plus bottom's channel c of pixel p, the
   last pixel standing in for the one missing when `width` (the source's, in pixels) is odd.
   `scratch` holds width * channels + 32 bytes. */
void iw_halve_row(iw_kernel kernel, const uint8_t *top, const uint8_t *bottom, size_t width, size_t channels,
                  uint8_t *out, uint8_t *scratch);

/* The resampler's last step, the fast twin of Resampler.store: `rows` lines of `length` sums
   (one after another) made bytes, each shifted down by `precision` and held to 0...255, then
   pixel p of line q written at out + q * channels + p * pixel_bytes (`channels` 3 or 4), a
   premultiplied colour held no larger than its alpha. Unless these are the `last` lines, the
   byte after each pixel's last line may be written too (its next line's, written after).
   `scratch` holds rows * length + 4 bytes.
   The bytes are made by plain C or SSE2 (which AVX2 runs too: the step moves more than it
   computes); the pixels are placed by plain C, and by AVX2's byte shuffles four lines of four
   pixels at a time. */
void iw_store_lines(iw_kernel kernel, const int32_t *sums, size_t rows, size_t length, size_t channels, uint8_t *out,
                    size_t pixel_bytes, int precision, int last, uint8_t *scratch);

/* PNG's Paeth filter of one row of `n` bytes, `bpp` bytes a pixel: out[i] is row[i] less the
   predictor of the bytes left (a), above (b, from `up`) and above-left (c), those left of the
   row being 0. Every version gives the same bytes (the sheet's PNG encoder's filter). */
void iw_paeth_row(iw_kernel kernel, const uint8_t *row, const uint8_t *up, uint8_t *out, size_t n, size_t bpp);

/* One row of planes made pixels: out[x * channels + c] is planes[c][x] for x below `width`,
   `channels` 3 (R, G, B) or 4 (and A). Plain C; SSE2 unpacks four planes; AVX2 also shuffles
   three. */
void iw_interleave_row(iw_kernel kernel, const uint8_t *const planes[4], size_t width, size_t channels, uint8_t *out);

/* Where a JSON text is followed: the depth of its brackets, within a string, just after a
   backslash in one. */
typedef struct {
    int64_t depth;
    uint8_t in_string, escaped;
} iw_json_state;

/* The fast twin of JSONArraySplitter.passElement: JSON text followed from bytes[*index] up to
   `end`, its strings and brackets only (`[` and `{` alike, `]` and `}` alike), from and into
   `state`. Gives 1 with *index at the closing bracket outside a string that brings the depth to
   `stop_depth`; else 0 with *index at `end`, the state then the text's there. Plain C, and SSE2
   (for AVX2 too) sixty-four bytes at a time, the strings found from the quotes' running parity. */
int iw_json_pass(iw_kernel kernel, const uint8_t *bytes, size_t *index, size_t end, iw_json_state *state,
                 int64_t stop_depth);

/* The version IW_KERNEL_BEST runs on this CPU. */
iw_kernel iw_best_kernel(void);

#ifdef __cplusplus
}
#endif
#endif
