#ifndef IW_RAW_H
#define IW_RAW_H
/* RAW camera files through LibRaw (thread-safe libraw_r): the headers, the largest embedded
   preview, and the sensor data developed at half size. LibRaw's messages are returned, never
   printed. */
#include <stddef.h>

/* Why a preview could not be read. */
enum { IW_RAW_NO_PREVIEW = 1, IW_RAW_PREVIEW_CUT = 2, IW_RAW_PREVIEW_UNREADABLE = 3 };

typedef struct iw_raw_info {
    int width, height;           /* the image LibRaw would develop, before `flip` */
    int raw_width, raw_height;   /* the sensor data's size */
    int output_width, output_height; /* the image LibRaw develops whole, before `flip`; 0 when unknown */
    int flip;                    /* LibRaw's flip: 0 none, 3 180°, 5 90° CCW, 6 90° CW, ... */
    int preview_format;          /* 0 none, 1 JPEG, 2 8-bit bitmap, other: another kind */
    int preview_status;          /* 0, or why the preview could not be read: IW_RAW_NO_PREVIEW, ... */
    int preview_width, preview_height;
    int preview_colors;          /* a bitmap's channels: 1 grey, 3 RGB */
    size_t preview_length;
    long long preview_offset;    /* where the JPEG preview lies in the file, byte for byte as
                                    LibRaw unpacked it; -1 when it does not, or was not looked for */
    char make[64], model[64], lens[128];
    float iso, shutter, aperture, focal_length; /* 0 when not recorded; shutter in seconds */
    long long timestamp;                        /* when taken, as LibRaw reads it (0: unknown) */
} iw_raw_info;

/* A RAW file LibRaw has opened, with its preview in LibRaw's memory. */
typedef struct iw_raw_file iw_raw_file;

/* Opens the RAW file at `path` and fills `info`; when `preview` is given and the file holds a
   JPEG preview, or an 8-bit grey or RGB bitmap (`info->preview_format` tells which), of at most
   `max_length` bytes, sets it to the preview's bytes (`info->preview_length` of them, read
   where LibRaw unpacked them, valid until `iw_raw_close(*file)`), else to NULL with LibRaw's
   reason in `message`. With `locate_preview`, a JPEG preview is also looked for in the file
   where LibRaw read it, and `info->preview_offset` set when the file holds it there unchanged.
   Returns 0 with `*file` to close, or LibRaw's error code with its message in `message` (and
   `*file` NULL) when the file cannot be read. */
int iw_raw_open(const char *path, iw_raw_info *info, iw_raw_file **file, const unsigned char **preview,
                size_t max_length, int locate_preview, char *message, size_t message_size);

/* Closes a file iw_raw_open opened (NULL: nothing), its preview's bytes with it. */
void iw_raw_close(iw_raw_file *file);

/* Develops the sensor data of the RAW file at `path` at half size (one RGB pixel per 2x2 block
   of sensor cells: no demosaic), 8 bits, the camera's white balance, sRGB, not turned (the
   caller turns it by `flip`). Refuses, with the reason in `message`, sensor data the file cannot
   hold (under `min_bits_per_pixel` bits a cell: cut or stripped files LibRaw would develop into
   noise), more than `max_pixels` cells, and any data error LibRaw meets while unpacking. On
   success returns 0 and the pixels in `pixels` (malloc'd, width x height x 3; the caller frees
   them). */
int iw_raw_develop(const char *path, double min_bits_per_pixel, long long max_pixels, unsigned char **pixels,
                   int *width, int *height, char *message, size_t message_size);

/* LibRaw's version, e.g. "0.20.2-Release". */
const char *iw_raw_version(void);
#endif
