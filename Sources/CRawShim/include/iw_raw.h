#ifndef IW_RAW_H
#define IW_RAW_H
/* RAW camera files through LibRaw (thread-safe libraw_r): the headers and the largest embedded
   preview, never the sensor data. LibRaw's messages are returned, never printed. */
#include <stddef.h>

/* Why a preview could not be read. */
enum { IW_RAW_NO_PREVIEW = 1, IW_RAW_PREVIEW_CUT = 2, IW_RAW_PREVIEW_UNREADABLE = 3 };

typedef struct iw_raw_info {
    int width, height;           /* the image LibRaw would develop, before `flip` */
    int flip;                    /* LibRaw's flip: 0 none, 3 180°, 5 90° CCW, 6 90° CW, ... */
    int preview_format;          /* 0 none, 1 JPEG, 2 8-bit bitmap, other: another kind */
    int preview_status;          /* 0, or why the preview could not be read: IW_RAW_NO_PREVIEW, ... */
    int preview_width, preview_height;
    size_t preview_length;
    char make[64], model[64];
} iw_raw_info;

/* Opens the RAW file at `path` and fills `info`; when `preview` is given and the file holds a
   JPEG preview of at most `max_length` bytes, sets it to a file in memory (memfd, close-on-exec;
   the caller closes it) holding the preview's bytes, else to -1 with LibRaw's reason in `message`.
   Returns 0, or LibRaw's error code with its message in `message` when the file cannot be read. */
int iw_raw_open(const char *path, iw_raw_info *info, int *preview, size_t max_length, char *message,
                size_t message_size);

/* LibRaw's version, e.g. "0.20.2-Release". */
const char *iw_raw_version(void);
#endif
