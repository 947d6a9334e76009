#ifndef IW_GIF_H
#define IW_GIF_H
/* GIF through giflib's low-level reader: the logical screen, the first image's descriptor and
   graphic control (transparency), and its rows of colour indices; nothing past the first
   image is read. Encoding for the sample generator. */
#include <stddef.h>
#include <stdint.h>

typedef struct iw_gif iw_gif;

typedef struct iw_gif_info {
    int screen_width, screen_height;
    int left, top, width, height;   /* the first image on the screen */
    int interlaced;
    int transparent;                /* a colour index, or -1 */
    int colors;                     /* entries of the colour table the image uses; 0 when it has none */
} iw_gif_info;

/* Opens `path` and reads up to the first image's descriptor. NULL on failure, with the reason. */
iw_gif *iw_gif_open(const char *path, iw_gif_info *info, char *message, size_t message_size);
/* The colour table the first image uses: `colors` RGB triples. */
void iw_gif_palette(const iw_gif *gif, uint8_t *rgb);
/* Reads the next row of the first image (rows come as stored: interlaced files in pass order). */
int iw_gif_read_row(iw_gif *gif, uint8_t *indices, char *message, size_t message_size);
void iw_gif_close(iw_gif *gif);

/* Writes `frames` images of `width` x `height` colour indices (one after the other) with one
   global palette of `colors` RGB triples; `transparent` is an index or -1. */
int iw_gif_write(const char *path, int width, int height, const uint8_t *palette, int colors,
                 const uint8_t *indices, int frames, int transparent, int interlaced,
                 char *message, size_t message_size);
/* The version of the library this shim was built against (for cache keys). */
int iw_gif_library_version(void);

#endif
