#ifndef IW_FACES_H
#define IW_FACES_H
/* What ImageWall takes from OpenCV: faces found by its cascade classifier (objdetect) with a
   cascade of opencv-data, and Radiance HDR pictures read by its imgcodecs. This library
   (libImageWallFaces.so) links OpenCV and is loaded by ImageWall only when a crop asks for faces
   or a Radiance file is read, as FFmpeg is loaded only for videos. One thread of OpenCV's own,
   no optimised dispatch: the same faces and pixels on every CPU. */
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

/* Reads the Radiance HDR picture at `path` (RGBE, flat or run-length coded) into `rgb`: its
   `width` x `height` pixels as linear light, three floats each, red first. Returns 0, or -1 with
   the reason in `message` (a file OpenCV cannot read, or a picture of another size). */
int iw_opencv_read_radiance(const char *path, int width, int height, float *rgb, char *message, size_t message_size);

/* "OpenCV 4.6.0". */
const char *iw_faces_version(void);

#ifdef __cplusplus
}
#endif
#endif
