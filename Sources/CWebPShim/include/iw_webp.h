#ifndef IW_WEBP_H
#define IW_WEBP_H
/* WebP through libwebp and libwebpdemux: features from the first bytes, a still image decoded
   scaled (libwebp's own rescaler), an animation's first frame composed on its canvas, the ICC
   and EXIF chunks, and encoding for the sample generator. Functions return 0 on success or 1
   with a message. */
#include <stddef.h>
#include <stdint.h>

typedef struct iw_webp_features {
    int width, height;          /* the canvas */
    int has_alpha;
    int has_animation;
    int format;                 /* 0 mixed or undefined, 1 lossy, 2 lossless */
} iw_webp_features;

/* From as many leading bytes as available. Returns 0, 1 on a bad header, 2 when more bytes are needed. */
int iw_webp_features_of(const uint8_t *data, size_t size, iw_webp_features *features);

/* A chunk ("ICCP", "EXIF") of a whole file in memory: *chunk points into data. 0 found, 1 not. */
int iw_webp_chunk(const uint8_t *data, size_t size, const char *fourcc, const uint8_t **chunk, size_t *chunk_size);

/* Decodes a still image to `width` x `height` (scaled by libwebp when smaller than the
   image), RGB or RGBA (straight alpha) as `channels` says, into `out` rows of `stride` bytes,
   incrementally, so that a damaged or truncated file gives the rows before the damage:
   returns 0 when whole, 2 when only *rows_done rows arrived (the reason in `message`), 1 when
   nothing could be decoded. */
int iw_webp_decode(const uint8_t *data, size_t size, int width, int height, int channels,
                   uint8_t *out, size_t stride, int *rows_done, char *message, size_t message_size);

/* An animation's first frame composed on its canvas, RGBA, into `out` (canvas-sized rows). */
int iw_webp_first_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride,
                        char *message, size_t message_size);

/* Encodes RGB or RGBA to a WebP in memory (lossless, or lossy at `quality`), with the ICC and
   EXIF chunks given; frames > 1 writes an animation whose later frames are the image inverted.
   Free *output with iw_webp_free. */
int iw_webp_encode(const uint8_t *pixels, int width, int height, int channels, int lossless, float quality,
                   const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, int frames,
                   uint8_t **output, size_t *output_size, char *message, size_t message_size);
void iw_webp_free(uint8_t *data);
/* The version of the library this shim was built against (for cache keys). */
int iw_webp_library_version(void);

#endif
