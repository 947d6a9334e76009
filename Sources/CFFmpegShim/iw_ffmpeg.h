#ifndef IW_FFMPEG_H
#define IW_FFMPEG_H
/* FFmpeg's libraries, loaded at run time: the functions the shims call, looked up by name. Private
   to this target (the shims' public headers are in include/). */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* FFmpeg's libraries (and the hundred libraries they bring: codecs, TLS, SVG…) are loaded on
   the first video, not when the program starts: a render without videos neither pays their
   start-up (30 ms) nor holds their pages (20 MB). Each function used is looked up by name from the
   library of the major version these headers describe. */
#define IW_FFMPEG_FUNCTIONS(X)                                                                          \
    X(format, avformat_open_input) X(format, avformat_find_stream_info) X(format, avformat_close_input)  \
    X(format, avformat_seek_file) X(format, avformat_version) X(format, av_read_frame)                  \
    X(format, av_seek_frame) X(format, av_guess_sample_aspect_ratio) X(format, av_stream_get_side_data) \
    X(codec, avcodec_find_decoder) X(codec, avcodec_get_name) X(codec, avcodec_alloc_context3)          \
    X(codec, avcodec_parameters_to_context) X(codec, avcodec_open2) X(codec, avcodec_free_context)      \
    X(codec, avcodec_flush_buffers) X(codec, avcodec_send_packet) X(codec, avcodec_receive_frame)       \
    X(codec, avcodec_version) X(codec, av_packet_alloc) X(codec, av_packet_free)                        \
    X(codec, av_packet_unref) X(scale, sws_getContext) X(scale, sws_getColorspaceDetails)               \
    X(scale, sws_getCoefficients) X(scale, sws_setColorspaceDetails) X(scale, sws_scale)                \
    X(scale, sws_freeContext) X(util, av_frame_alloc) X(util, av_frame_free) X(util, av_frame_unref)    \
    X(util, av_frame_move_ref) X(util, av_strerror) X(util, av_log_set_level)                           \
    X(util, av_pix_fmt_desc_get) X(util, av_get_pix_fmt_name) X(util, av_display_rotation_get)          \
    X(util, av_dict_get) X(format, avformat_index_get_entries_count) X(format, avformat_index_get_entry)     \
    X(format, avio_size) X(codec, avcodec_find_decoder_by_name) X(util, av_log_set_callback)         \
    X(util, av_get_pix_fmt) X(util, av_buffer_create)


struct iw_ffmpeg_functions {
#define IW_POINTER(library, name) __typeof__(name) *name;
    IW_FFMPEG_FUNCTIONS(IW_POINTER)
#undef IW_POINTER
};

/* The functions, once iw_ffmpeg_loaded has returned 0. */
extern struct iw_ffmpeg_functions iw_ff;

/* 0 once FFmpeg's libraries are loaded (the first call loads them); otherwise 1, with the reason
   in `message`. */
int iw_ffmpeg_loaded(char *message, size_t message_size);

/* The last error FFmpeg logged on this thread ("Unknown bitfields FF000000 FF00 FF"), empty when
   none; iw_ffmpeg_clear_logged empties it. The log is kept, never printed. */
const char *iw_ffmpeg_logged(void);
void iw_ffmpeg_clear_logged(void);
#endif
