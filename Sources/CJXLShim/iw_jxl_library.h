#ifndef IW_JXL_LIBRARY_H
#define IW_JXL_LIBRARY_H
/* libjxl, loaded at run time: the functions the shim calls, looked up by name. Private to this
   target (the shim's public header is in include/). */
#include <jxl/decode.h>

/* libjxl (with Highway and Brotli) is loaded on the first JPEG XL file, not when the program
   starts: Highway measures its timer's resolution as it loads, and a process that loads libjxl
   starts 3.5 ms later (a C program that only links it: 3.9 ms against 0.4 ms). Each function is
   looked up by name in the library of the version these headers describe. */
#define IW_JXL_FUNCTIONS(X)                                                                             \
    X(JxlDecoderVersion) X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSetKeepOrientation)      \
    X(JxlDecoderSubscribeEvents) X(JxlDecoderSetInput) X(JxlDecoderReleaseInput)                       \
    X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo) X(JxlDecoderGetBoxType)                        \
    X(JxlDecoderGetColorAsEncodedProfile) X(JxlDecoderGetColorAsICCProfile)                            \
    X(JxlDecoderGetICCProfileSize) X(JxlDecoderSetPreferredColorProfile)                               \
    X(JxlDecoderSetUnpremultiplyAlpha) X(JxlDecoderSetImageOutCallback) X(JxlDecoderFlushImage)

struct iw_jxl_functions {
#define IW_POINTER(name) __typeof__(name) *name;
    IW_JXL_FUNCTIONS(IW_POINTER)
#undef IW_POINTER
};

/* The functions, once iw_jxl_loaded has returned 0. */
extern struct iw_jxl_functions iw_jf;

/* 0 once libjxl is loaded (the first call loads it); otherwise 1, with the reason in `message`. */
int iw_jxl_loaded(char *message, size_t message_size);
#endif
