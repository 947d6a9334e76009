#ifndef IW_LIBRARY_H
#define IW_LIBRARY_H
/* Libraries loaded at run time, on the first file that needs them (libheif, libjxl, FFmpeg, the
   vector libraries): opened by soname, their functions looked up by name. Each shim keeps its
   functions' table and its pthread_once; the opening, the lookup and the messages are here. */
#include <stddef.h>

/* Opens `count` libraries by soname in order (each one's dependencies before it) into `handles`,
   every symbol bound now and none made global. On failure writes "WHAT cannot be loaded (why)"
   to `failure` and returns 0. */
int iw_open_libraries(const char *what, const char *const sonames[], void *handles[], int count, char *failure,
                      size_t failure_size);

/* Looks `name` up in `library` into `*slot`. On failure writes "LACKING NAME" to `failure`
   ("libheif.so.1 lacks heif_decode_image") and returns 0. */
int iw_find_function(void *library, const char *name, void **slot, const char *lacking, char *failure,
                     size_t failure_size);

/* 0 when `failure` is empty (every function found), else 1 with `failure` copied to `message`. */
int iw_library_failure(const char *failure, char *message, size_t message_size);

#endif
