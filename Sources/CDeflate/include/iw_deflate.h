#ifndef IW_DEFLATE_H
#define IW_DEFLATE_H
/* ImageWall's deflater for PNG bands: raw deflate (RFC 1951) of filtered rows as literals and
   runs of the byte before (distance 1), as zlib's Z_RLE codes them, in dynamic Huffman blocks
   whose tables are built for each block of 128 KB (two stored blocks' worth) (stored blocks where they are smaller). Runs
   are found eight bytes at a time, and literals written three to a store. Matches with the row
   above, which fdeflate codes, were measured and left out: after PNG's filters they made files
   larger (their distance costs 11-13 extra bits). A band is coded on its own: nothing refers to
   bytes before it, and it ends on a byte boundary (an empty stored block, as zlib's full flush
   ends one, or the final block padded), so bands made anywhere join into one stream. Scalar
   code, integer arithmetic, built twice (plain, and with BMI2's shifts where the CPU has them):
   the same bytes on every CPU. */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Deflates `size` bytes of `data` into `out`, which holds at least iw_deflate_bound(size) bytes;
   `last` ends the stream. Returns the number of bytes written. */
size_t iw_deflate_band(const uint8_t *data, size_t size, int last, uint8_t *out);

/* iw_deflate_band always by the plain x86-64 code, which iw_deflate_band takes only where the CPU
   lacks BMI2: the same bytes, for the tests that say so. */
size_t iw_deflate_band_plain(const uint8_t *data, size_t size, int last, uint8_t *out);

/* Whether iw_deflate_band takes the BMI2 version on this CPU. */
int iw_deflate_uses_bmi2(void);

/* The most bytes iw_deflate_band writes for `size` bytes. */
size_t iw_deflate_bound(size_t size);

#ifdef __cplusplus
}
#endif
#endif
