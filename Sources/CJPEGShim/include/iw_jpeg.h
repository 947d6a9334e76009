#ifndef IW_JPEG_H
#define IW_JPEG_H
/* The only place that sees libjpeg's setjmp/longjmp error handling. Every entry point returns
   0 on success or 1 on a fatal error, whose text iw_jpeg_message() then holds. Warnings
   (corrupt data, premature end) are counted and the first one kept, never printed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct iw_jpeg_decoder iw_jpeg_decoder;

typedef struct iw_jpeg_header {
    uint32_t width;
    uint32_t height;
    int components;
    int color_space;      /* J_COLOR_SPACE libjpeg found in the file */
    int progressive;
    int adobe_marker;     /* an Adobe APP14 marker was seen (CMYK stored inverted) */
} iw_jpeg_header;

/* Decoding reads from an open file; the caller keeps it open and closes it. max_scans caps
   the number of progressive scans (0: no cap). */
iw_jpeg_decoder *iw_jpeg_decoder_create(FILE *file, int max_scans);
void iw_jpeg_decoder_destroy(iw_jpeg_decoder *decoder);
int iw_jpeg_read_header(iw_jpeg_decoder *decoder, iw_jpeg_header *header);
/* Starts decompression scaled by scale_num/8. Output is RGB (3 channels), or CMYK (4) for
   CMYK and YCCK files. At 1/8 a progressive file can be read only as far as its DC
   coefficients (buffered-image mode), since the 1/8 output uses nothing else: dc_only 1 reads
   until they are complete, 2 only until every component's first DC scan (coarser by the
   scan's point transform, usually one bit); 0 reads the whole file. */
int iw_jpeg_start(iw_jpeg_decoder *decoder, unsigned scale_num, int dc_only,
                  uint32_t *width, uint32_t *height, int *channels);
/* Reads up to max_rows rows; *rows_read says how many arrived. */
int iw_jpeg_read_rows(iw_jpeg_decoder *decoder, uint8_t *dest, size_t stride,
                      uint32_t max_rows, uint32_t *rows_read);
int iw_jpeg_finish(iw_jpeg_decoder *decoder);
const char *iw_jpeg_message(const iw_jpeg_decoder *decoder);
long iw_jpeg_warning_count(const iw_jpeg_decoder *decoder);
const char *iw_jpeg_first_warning(const iw_jpeg_decoder *decoder);

typedef struct iw_jpeg_encode_options {
    uint32_t width;
    uint32_t height;
    int components;       /* 1 grey, 3 RGB, 4 CMYK (Adobe convention: stored inverted) */
    int quality;          /* 1-100 */
    int progressive;
    int luma_h_sampling;  /* 2,2 = 4:2:0; 2,1 = 4:2:2; 1,1 = 4:4:4 */
    int luma_v_sampling;
    int keep_rgb;         /* store 3 components as RGB instead of YCbCr */
    int ycck;             /* store 4 components as YCCK (Adobe transform 2) instead of CMYK */
    const uint8_t *app1;  /* EXIF payload written as APP1, or NULL */
    size_t app1_size;
    const uint8_t *icc;   /* ICC profile written as APP2 chunks, or NULL */
    size_t icc_size;
    int standard_tables;  /* the standard Huffman tables: no pass over the whole image (streaming) */
} iw_jpeg_encode_options;

/* Writes a whole image; message receives libjpeg's text on failure. */
int iw_jpeg_encode(FILE *file, const iw_jpeg_encode_options *options, const uint8_t *pixels,
                   size_t stride, char *message, size_t message_size);

/* Writes an image row by row as it is made: start (NULL on failure, message set), rows in
   order, finish; destroy in every case. Baseline with the standard tables holds no more than
   a few rows; optimized tables or progressive coding keep the whole image's coefficients. */
typedef struct iw_jpeg_encoder iw_jpeg_encoder;
iw_jpeg_encoder *iw_jpeg_encoder_start(FILE *file, const iw_jpeg_encode_options *options, char *message,
                                       size_t message_size);
int iw_jpeg_encoder_write_rows(iw_jpeg_encoder *encoder, const uint8_t *pixels, size_t stride, uint32_t count);
int iw_jpeg_encoder_finish(iw_jpeg_encoder *encoder);
const char *iw_jpeg_encoder_message(const iw_jpeg_encoder *encoder);
void iw_jpeg_encoder_destroy(iw_jpeg_encoder *encoder);

/* The version of the library this shim was built against (for cache keys). */
int iw_jpeg_library_version(void);

#endif
