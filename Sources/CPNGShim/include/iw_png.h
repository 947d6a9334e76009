#ifndef IW_PNG_H
#define IW_PNG_H
/* The only place that sees libpng's setjmp/longjmp error handling. Every entry point returns
   0 on success or 1 on a fatal error, whose text iw_png_*_message() then holds. Warnings are
   counted and the first one kept, never printed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct iw_png_decoder iw_png_decoder;

typedef struct iw_png_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    int has_trns;
    int channels;   /* after expansion: 3 (RGB) or 4 (RGBA), always 8 bits */
} iw_png_header;

/* Decoding is pushed: feed the file's bytes as they are read. After the header is parsed,
   feeding pauses (iw_png_header_ready turns 1) so the caller can read the header and give a
   destination; feed NULL, 0 to go on with the bytes held back. Rows land in the destination
   as they arrive, so a file that ends early keeps every row (or Adam7 pass) it delivered. */
iw_png_decoder *iw_png_decoder_create(uint32_t max_width, uint32_t max_height);
void iw_png_decoder_destroy(iw_png_decoder *decoder);
int iw_png_feed(iw_png_decoder *decoder, const uint8_t *data, size_t size);
int iw_png_header_ready(const iw_png_decoder *decoder);
/* Valid once the header is ready; expansion to 8-bit RGB or RGBA is already set up. */
void iw_png_get_header(const iw_png_decoder *decoder, iw_png_header *header);
void iw_png_set_destination(iw_png_decoder *decoder, uint8_t *dest, size_t stride);
/* Instead of a destination, hands each row to `sink` as it is decoded (non-interlaced
   images only); the row is only valid during the call. */
typedef void (*iw_png_row_sink)(void *context, const uint8_t *row, uint32_t row_number);
void iw_png_set_row_sink(iw_png_decoder *decoder, iw_png_row_sink sink, void *context);

/* Whole rows delivered so far (non-interlaced), Adam7 passes completed (interlaced), and
   whether the image data ended properly. */
uint32_t iw_png_rows_done(const iw_png_decoder *decoder);
int iw_png_passes_done(const iw_png_decoder *decoder);
int iw_png_finished(const iw_png_decoder *decoder);
/* The embedded ICC profile (iCCP, decompressed), or NULL; valid once the header is ready. */
const uint8_t *iw_png_icc_profile(const iw_png_decoder *decoder, size_t *size);
const char *iw_png_decoder_message(const iw_png_decoder *decoder);
/* Every warning libpng gave, counted; the first distinct ones (up to 8) kept by index. */
long iw_png_decoder_warning_count(const iw_png_decoder *decoder);
int iw_png_decoder_kept_warnings(const iw_png_decoder *decoder);
const char *iw_png_decoder_warning(const iw_png_decoder *decoder, int index);

typedef struct iw_png_encoder iw_png_encoder;

typedef struct iw_png_encode_options {
    uint32_t width;
    uint32_t height;
    int color_type;          /* PNG_COLOR_TYPE_* */
    int bit_depth;           /* 16-bit samples are given big-endian, as PNG stores them */
    int interlaced;
    int compression_level;   /* 0-9 */
    int run_length;          /* 1: zlib's Z_RLE strategy (level only picks stored at 0) */
    int filters;             /* the one filter every row uses (0 none … 4 Paeth), or -1 for libpng's choice */
    const uint8_t *palette;  /* RGB triples */
    int palette_count;
    const uint8_t *trns;     /* palette alpha values */
    int trns_count;
    const char *software;    /* tEXt Software, or NULL */
    const uint8_t *icc;      /* ICC profile written as iCCP, or NULL */
    size_t icc_size;
    const uint8_t *exif;     /* EXIF (TIFF structure) written as eXIf before the image data, or NULL */
    size_t exif_size;
} iw_png_encode_options;

iw_png_encoder *iw_png_encoder_create(FILE *file);
void iw_png_encoder_destroy(iw_png_encoder *encoder);
int iw_png_write_header(iw_png_encoder *encoder, const iw_png_encode_options *options);
/* Non-interlaced images: writes the next `count` rows. */
int iw_png_write_rows(iw_png_encoder *encoder, const uint8_t *source, size_t stride,
                      uint32_t count);
/* Any image, interlaced included: writes every row (every pass) from a whole-image buffer. */
int iw_png_write_image(iw_png_encoder *encoder, const uint8_t *source, size_t stride);
int iw_png_write_end(iw_png_encoder *encoder);
const char *iw_png_encoder_message(const iw_png_encoder *encoder);

/* ---- The sheet as one zlib stream in segments ----
   Each band of rows is filtered and deflated on its own (raw deflate, ending on a byte boundary
   with a full flush, or with the final block for the last band), so bands can be compressed on
   any thread, or kept, or made on another machine, and joined into the same PNG: the zlib
   header, the segments in order, and the Adler-32 of all of them combined. A band's first row
   is filtered with none or sub, which do not read the row above, so each band also decodes on
   its own. */

typedef struct iw_png_segment {
    size_t size;            /* raw deflate bytes written */
    uint32_t adler;         /* Adler-32 of the filtered bytes the segment holds */
    size_t filtered_size;   /* how many they are */
} iw_png_segment;

/* A segment is made in two steps, which may run on different threads. First `count` rows of
   `width` pixels of `channels` 8-bit samples (`stride` bytes apart) are filtered into `filtered`
   (room for `count` times a filter byte and a row) with PNG filter `filter` (0 none, 1 sub,
   2 up, 3 average, 4 paeth; -1 adaptive: each row's filter chosen by the smallest sum of
   absolute values, as libpng's heuristic does; the first row: none or sub). Then those bytes
   are deflated into `data` (`capacity` bytes, at least iw_png_segment_bound's) with zlib at
   `level` (`run_length`: zlib's Z_RLE strategy), or with level -1 with ImageWall's deflater
   (iw_deflate.h). Each returns 0 on success. */
int iw_png_filter_segment(const uint8_t *rows, size_t stride, uint32_t count, uint32_t width, int channels,
                          int filter, uint8_t *filtered);
int iw_png_deflate_filtered(const uint8_t *filtered, size_t filtered_size, int level, int run_length, int last,
                            uint8_t *data, size_t capacity, iw_png_segment *out);

/* The most bytes `filtered_size` filtered bytes take deflated, by either deflater. */
size_t iw_png_segment_bound(size_t filtered_size);

/* Inflates the raw deflate stream `in` (`in_size` bytes) into `out` (room for `out_size`) with
   zlib: what checks ImageWall's deflater. Returns the bytes made; `*ended` is 1 when the stream
   ended there, 0 when it is broken, cut short or longer. */
size_t iw_inflate_raw(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size, int *ended);

/* zlib's CRC-32 and Adler-32, continued from `value` (start with 0 for CRC, 1 for Adler). */
uint32_t iw_crc32(uint32_t value, const uint8_t *data, size_t size);
uint32_t iw_adler32(uint32_t value, const uint8_t *data, size_t size);
/* The Adler-32 of A followed by B, from theirs and B's length. */
uint32_t iw_adler32_combine(uint32_t a, uint32_t b, size_t b_size);

/* The version of the library this shim was built against (for cache keys). */
unsigned iw_png_library_version(void);
const char *iw_zlib_library_version(void);

#endif
