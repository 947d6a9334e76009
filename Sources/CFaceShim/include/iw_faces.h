#ifndef IW_FACES_H
#define IW_FACES_H
/* Faces found by OpenCV's cascade classifier (objdetect) with a cascade of opencv-data. This
   library (libImageWallFaces.so) links OpenCV and is loaded by ImageWall only when a crop asks
   for faces, as FFmpeg is loaded only for videos. One thread of OpenCV's own, no optimised
   dispatch: the same faces on every CPU. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Finds faces in `gray` (width x height, one byte a pixel, rows `stride` bytes apart) with the
   cascade at `cascade` (read once per thread), no smaller than `smallest` pixels a side. Writes
   up to `capacity` boxes as x, y, width, height into `boxes` (4 ints each), ordered by position;
   returns how many were found (more than `capacity` when they do not fit), or -1 with the reason
   in `message`. */
int iw_faces_detect(const char *cascade, const unsigned char *gray, int width, int height, int stride, int smallest,
                    int *boxes, int capacity, char *message, size_t message_size);

/* "OpenCV 4.6.0". */
const char *iw_faces_version(void);

#ifdef __cplusplus
}
#endif
#endif
