#ifndef IW_JXL_H
#define IW_JXL_H
/* JPEG XL through libjxl: the header (size, orientation, alpha, colour) and the first frame,
   received row piece by row piece through libjxl's callback and box-averaged into a shrunk
   image as it arrives, so that the full-size image is never held as 8-bit pixels. The decoder
   runs on the calling thread. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct iw_jxl_info {
    uint32_t width, height; /* stored, before the orientation */
    int orientation;        /* EXIF-style 1...8 */
    int bits_per_sample;
    int has_alpha;
    int is_gray;
    int is_animated;
    int is_srgb;            /* the original colour is sRGB (or grey with sRGB's curve) */
    int is_lossy;           /* XYB-encoded: libjxl gives the pixels in any colour asked for */
    int is_recompressed;    /* a JPEG recompressed losslessly (the container's jbrd box): its pixels
                               are the JPEG's DCT decoded by libjxl */
} iw_jxl_info;

/* Reads the header from the first `size` bytes of a file. Returns 0, 1 when the bytes are not
   a JPEG XL libjxl reads (reason in `message`), 2 when they end inside the header. */
int iw_jxl_probe(const uint8_t *data, size_t size, iw_jxl_info *info, char *message, size_t message_size);

/* Decodes the first frame of the JPEG XL read from `file`, not turned by its orientation, into
   `out` (width x height x channels: 3, or 4 with straight alpha), each output pixel the mean of
   a `shrink` x `shrink` block of stored pixels (fewer at the right and bottom edges). Lossy
   files are decoded to sRGB; a lossless file's own colour profile is returned in `icc` (malloc'd,
   the caller frees it; NULL when it is sRGB). Returns 0; 1 on an error (reason in `message`);
   2 when the file ends early: what libjxl renders from the data read (a coarser pass where the
   rest is missing, grey where it has nothing), with the reason in `message`. */
int iw_jxl_decode(FILE *file, int shrink, uint8_t *out, uint32_t width, uint32_t height, int channels,
                  uint8_t **icc, size_t *icc_size, char *message, size_t message_size);

/* "0.7.0": the version of the libjxl loaded (loading it), which JPEG XL decode plans name;
   "(not loaded)" when it cannot be loaded. */
const char *iw_jxl_version(void);
/* The version of the headers this shim was built with, without loading libjxl. */
const char *iw_jxl_header_version(void);
#endif
