#include "iw_ffmpeg.h"
#include "iw_ffmpeg_versions.h"
#include "iw_library.h"

#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libswscale/version.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct iw_ffmpeg_functions iw_ff;

static _Thread_local char logged[192];

/* FFmpeg's errors are kept, one a thread, for the message of a file that fails; nothing is printed. */
static void keep_error(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_ERROR) return;
    vsnprintf(logged, sizeof logged, format, arguments);
    size_t length = strlen(logged);
    while (length && (logged[length - 1] == '\n' || logged[length - 1] == '.')) logged[--length] = 0;
}

const char *iw_ffmpeg_logged(void) { return logged; }
void iw_ffmpeg_clear_logged(void) { logged[0] = 0; }

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[256]; /* empty once every function is found */

static void load_ffmpeg(void) {
    /* Dependencies first, so that each library finds the ones it needs already there. */
    const char *names[] = {"libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
                           "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
                           "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
                           "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)};
    void *handles[4];
    if (!iw_open_libraries("FFmpeg's libraries", names, handles, 4, load_failure, sizeof load_failure)) return;
    void *util = handles[0], *scale = handles[1], *codec = handles[2], *format = handles[3];
#define IW_LOOKUP(library, name)                                                                          \
    if (!iw_find_function(library, #name, (void **)&iw_ff.name, "FFmpeg's libraries lack", load_failure,  \
                          sizeof load_failure))                                                          \
        return;
    IW_FFMPEG_FUNCTIONS(IW_LOOKUP)
#undef IW_LOOKUP
    iw_ff.av_log_set_level(AV_LOG_ERROR);
    iw_ff.av_log_set_callback(keep_error);
}

int iw_ffmpeg_loaded(char *message, size_t message_size) {
    pthread_once(&load_once, load_ffmpeg);
    return iw_library_failure(load_failure, message, message_size);
}


static char versions[96];
static void describe_versions(void) {
    if (iw_ffmpeg_loaded(NULL, 0)) {
        snprintf(versions, sizeof versions, "libavformat, libavcodec: not loaded");
        return;
    }
    unsigned format = iw_ff.avformat_version(), codec = iw_ff.avcodec_version();
    snprintf(versions, sizeof versions, "libavformat %u.%u.%u, libavcodec %u.%u.%u", format >> 16,
             (format >> 8) & 0xFF, format & 0xFF, codec >> 16, (codec >> 8) & 0xFF, codec & 0xFF);
}

const char *iw_ffmpeg_versions(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, describe_versions);
    return versions;
}

#define IW_VERSION(library)                                                                             \
    AV_STRINGIFY(library##_VERSION_MAJOR)                                                                       \
    "." AV_STRINGIFY(library##_VERSION_MINOR) "." AV_STRINGIFY(library##_VERSION_MICRO)

const char *iw_ffmpeg_header_versions(void) {
    return "libavformat " IW_VERSION(LIBAVFORMAT) ", libavcodec " IW_VERSION(LIBAVCODEC);
}
