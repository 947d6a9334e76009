#ifndef IW_EXR_H
#define IW_EXR_H
/* OpenEXR through its own library (Imf::InputFile, Imf::RgbaInputFile for luminance-chroma
   files), read a band of rows at a time so a file's pixels are never held whole: each band's
   samples as 32-bit floats (half to float is exact), placed in the display window. OpenEXR's
   exceptions are caught here: reasons are returned, never thrown or printed. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct iw_exr_info {
    int width, height;    /* the display window's size: the picture's */
    int has_alpha;        /* an A channel */
    int gray;             /* a Y channel without R, G, B or chroma */
    int luminance_chroma; /* Y with RY and BY: read through RgbaInputFile (half samples) */
    int integer;          /* a colour channel of 32-bit integers (read by FFmpeg instead) */
    int tiled;            /* tiled (level 0 read) */
} iw_exr_info;

typedef struct iw_exr iw_exr;

/* Opens the file at `path` and reads its header. Returns NULL with OpenEXR's reason in
   `message` when it cannot. */
iw_exr *iw_exr_open(const char *path, iw_exr_info *info, char *message, size_t message_size);

/* Rows `y` to `y + rows - 1` of the display window into `out` (rows x width x 4 floats, RGBA;
   grey as R = G = B; alpha 1 where the file has none), every sample outside the data window 0,
   as FFmpeg leaves it. Rows whose chunks cannot be decoded are left 0. Returns how many rows
   could not be read (0 when all were), with the first reason in `message`. */
int iw_exr_band(iw_exr *exr, int y, int rows, float *out, char *message, size_t message_size);

/* The band's scratch memory, bytes a row (the data window's width in RGBA floats). */
size_t iw_exr_row_bytes(const iw_exr *exr);

void iw_exr_close(iw_exr *exr);

/* OpenEXR's version, "3.1.5". */
const char *iw_exr_version(void);

#ifdef __cplusplus
}
#endif
#endif
