#include "iw_video.h"
#include "iw_ffmpeg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iw_video {
    AVFormatContext *format;
    AVCodecContext *decoder;
    int stream;
    long long max_pixels; /* frames bigger than this are not converted */
};

static void copy_text(char *to, size_t size, const char *from) {
    if (size) snprintf(to, size, "%s", from ? from : "");
}

static void error_text(char *to, size_t size, const char *what, int error) {
    char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
    iw_ff.av_strerror(error, reason, sizeof reason);
    snprintf(to, size, "%s (%s)", what, reason);
}

/* Every stream but `kept` is discarded: only its packets are read. */
static void keep_only(AVFormatContext *format, int kept) {
    for (unsigned i = 0; i < format->nb_streams; i++)
        if ((int)i != kept) format->streams[i]->discard = AVDISCARD_ALL;
}

/* The first video stream that is not a cover picture, the default one first. */
static int video_stream(AVFormatContext *format) {
    int found = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        AVStream *stream = format->streams[i];
        if (stream->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) continue;
        if (stream->disposition & AV_DISPOSITION_ATTACHED_PIC) continue;
        if (found < 0 || (stream->disposition & AV_DISPOSITION_DEFAULT &&
                          !(format->streams[found]->disposition & AV_DISPOSITION_DEFAULT)))
            found = (int)i;
    }
    return found;
}

/* Degrees clockwise, 0/90/180/270, from the stream's display matrix. */
static int rotation_of(AVStream *stream) {
    size_t size = 0;
    const uint8_t *matrix = iw_ff.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!matrix || size < 9 * sizeof(int32_t)) return 0;
    double counterclockwise = iw_ff.av_display_rotation_get((const int32_t *)matrix);
    if (isnan(counterclockwise)) return 0;
    long turned = lround(-counterclockwise / 90.0) * 90;
    turned %= 360;
    if (turned < 0) turned += 360;
    return (int)turned;
}

static void metadata_text(AVDictionary *metadata, const char *key, char *to, size_t size) {
    AVDictionaryEntry *entry = iw_ff.av_dict_get(metadata, key, NULL, 0);
    if (entry && entry->value) copy_text(to, size, entry->value);
}

/* How much of the stream the file holds, in seconds, when its index (an MP4's or a MOV's sample
   table, read with the header) places samples past the end of the file: the end of the last
   sample whose bytes are all there. 0 when the file holds every sample, or has no index to tell. */
static double whole_duration(AVFormatContext *format, AVStream *stream) {
    int64_t size = format->pb ? iw_ff.avio_size(format->pb) : -1;
    int entries = iw_ff.avformat_index_get_entries_count(stream);
    if (size <= 0 || entries <= 0) return 0;
    const AVIndexEntry *last = iw_ff.avformat_index_get_entry(stream, entries - 1);
    if (!last || last->pos + last->size <= size) return 0;
    int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    int64_t end = start;
    for (int i = 0; i < entries; i++) {
        const AVIndexEntry *entry = iw_ff.avformat_index_get_entry(stream, i);
        if (!entry || entry->pos + entry->size > size) continue;
        int64_t next = i + 1 < entries ? iw_ff.avformat_index_get_entry(stream, i + 1)->timestamp : entry->timestamp;
        if (next < entry->timestamp) next = entry->timestamp;
        if (next > end) end = next;
    }
    double seconds = (end - start) * av_q2d(stream->time_base);
    return seconds > 0 ? seconds : 1e-3;
}

/* The end of the last frame a file without an index up front holds (a Matroska, WebM, AVI or
   MPEG-TS file), read from its tail: the file is opened anew (nothing of the caller's context
   moves), its stream's first time read from its start when the header does not give it, and
   packets read from a byte offset near the end until the file ends, the window growing until a
   frame of the stream is met (the whole file read from its start past 64 MB). `cut` is set when
   the file ends inside an element after that frame: FFmpeg says so, or a read fails otherwise
   than at the end (what it says while finding its place after the seek is not counted).
   Returns the seconds from the stream's first time, or -1 when nothing could be read. */
static double tail_end(const char *path, int stream_index, int64_t size, int *cut) {
    *cut = 0;
    double seconds = -1;
    int64_t start = AV_NOPTS_VALUE;
    for (int64_t window = 1 << 20;; window *= 8) {
        AVFormatContext *format = NULL;
        if (iw_ff.avformat_open_input(&format, path, NULL, NULL) < 0) break;
        if (stream_index >= (int)format->nb_streams) {
            iw_ff.avformat_close_input(&format);
            break;
        }
        keep_only(format, stream_index);
        AVStream *stream = format->streams[stream_index];
        AVPacket *packet = iw_ff.av_packet_alloc();
        int status = 0;
        if (start == AV_NOPTS_VALUE) start = stream->start_time;
        while (packet && start == AV_NOPTS_VALUE && (status = iw_ff.av_read_frame(format, packet)) >= 0) {
            if (packet->stream_index == stream_index)
                start = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
            iw_ff.av_packet_unref(packet);
        }
        int whole = window >= size || (format->iformat->flags & AVFMT_NO_BYTE_SEEK) ||
                    iw_ff.av_seek_frame(format, -1, size - window, AVSEEK_FLAG_BYTE) < 0;
        if (whole && window > 1 << 20) {
            /* From the start: opened once more, past its header, as the first window read. */
            iw_ff.avformat_close_input(&format);
            if (iw_ff.avformat_open_input(&format, path, NULL, NULL) < 0) {
                iw_ff.av_packet_free(&packet);
                break;
            }
            keep_only(format, stream_index);
        }
        iw_ffmpeg_clear_logged();
        int64_t end = AV_NOPTS_VALUE;
        int met = 0;
        while (packet && (status = iw_ff.av_read_frame(format, packet)) >= 0) {
            if (packet->stream_index == stream_index) {
                if (!met && !whole) iw_ffmpeg_clear_logged(); /* the seek's resync is not the file's */
                met = 1;
                int64_t at = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
                if (at != AV_NOPTS_VALUE) {
                    at += packet->duration > 0 ? packet->duration : 0;
                    if (end == AV_NOPTS_VALUE || at > end) end = at;
                }
            }
            iw_ff.av_packet_unref(packet);
        }
        if (met) *cut = status != AVERROR_EOF || iw_ffmpeg_logged()[0] != 0;
        double base = av_q2d(format->streams[stream_index]->time_base);
        iw_ff.av_packet_free(&packet);
        iw_ff.avformat_close_input(&format);
        if (end != AV_NOPTS_VALUE) {
            seconds = (end - (start != AV_NOPTS_VALUE ? start : 0)) * base;
            break;
        }
        if (whole) break;
    }
    iw_ffmpeg_clear_logged();
    return seconds;
}

iw_video *iw_video_open(const char *path, long long max_pixels, iw_video_info *info, char *message,
                        size_t message_size) {
    memset(info, 0, sizeof *info);
    if (iw_ffmpeg_loaded(message, message_size)) return NULL;
    AVFormatContext *format = NULL;
    int status = iw_ff.avformat_open_input(&format, path, NULL, NULL);
    if (status < 0) {
        error_text(message, message_size, "FFmpeg cannot read it", status);
        return NULL;
    }
    int index = video_stream(format);
    AVStream *stream = index >= 0 ? format->streams[index] : NULL;
    if (stream && (stream->codecpar->width <= 0 || stream->codecpar->height <= 0)) {
        /* Containers without a header of their own (elementary streams) are probed by decoding. */
        status = iw_ff.avformat_find_stream_info(format, NULL);
        index = video_stream(format);
        stream = index >= 0 ? format->streams[index] : NULL;
    }
    if (!stream) {
        copy_text(message, message_size, "it holds no video stream");
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    AVCodecParameters *parameters = stream->codecpar;
    long long pixels = (long long)parameters->width * parameters->height;
    if (parameters->width <= 0 || parameters->height <= 0) {
        copy_text(message, message_size, "its video stream does not say its frame size");
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    if (pixels > max_pixels) {
        snprintf(message, message_size, "its frames are %dx%d pixels, over the limit of %lld pixels",
                 parameters->width, parameters->height, max_pixels);
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    const AVCodec *codec = iw_ff.avcodec_find_decoder(parameters->codec_id);
    if (!codec) {
        const char *name = iw_ff.avcodec_get_name(parameters->codec_id);
        snprintf(message, message_size, "its %s video cannot be decoded by this FFmpeg", name ? name : "unknown");
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    AVCodecContext *decoder = iw_ff.avcodec_alloc_context3(codec);
    if (!decoder || iw_ff.avcodec_parameters_to_context(decoder, parameters) < 0) {
        copy_text(message, message_size, "out of memory");
        iw_ff.avcodec_free_context(&decoder);
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    decoder->thread_count = 1;
    decoder->pkt_timebase = stream->time_base;
    status = iw_ff.avcodec_open2(decoder, codec, NULL);
    if (status < 0) {
        error_text(message, message_size, "its video decoder cannot start", status);
        iw_ff.avcodec_free_context(&decoder);
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    keep_only(format, index);

    int width = parameters->width, height = parameters->height;
    AVRational aspect = iw_ff.av_guess_sample_aspect_ratio(format, stream, NULL);
    if (aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den) {
        long scaled = lround((double)width * aspect.num / aspect.den);
        if (scaled >= 1 && scaled <= 4L * width) width = (int)scaled;
    }
    info->width = width;
    info->height = height;
    info->coded_width = parameters->width;
    info->coded_height = parameters->height;
    info->rotation = rotation_of(stream);
    const AVPixFmtDescriptor *pixels_format = iw_ff.av_pix_fmt_desc_get((enum AVPixelFormat)parameters->format);
    info->bit_depth = pixels_format ? pixels_format->comp[0].depth : 0;
    if (format->duration > 0 && format->duration != AV_NOPTS_VALUE)
        info->duration = (double)format->duration / AV_TIME_BASE;
    else if (stream->duration > 0 && stream->duration != AV_NOPTS_VALUE)
        info->duration = stream->duration * av_q2d(stream->time_base);
    info->whole_duration = whole_duration(format, stream);
    int64_t size = format->pb ? iw_ff.avio_size(format->pb) : -1;
    int entries = iw_ff.avformat_index_get_entries_count(stream);
    double frame = stream->avg_frame_rate.num > 0 ? av_q2d(av_inv_q(stream->avg_frame_rate)) : 0.04;
    if (!info->whole_duration && !strcmp(format->iformat->name, "avi") && stream->nb_frames > entries &&
        stream->avg_frame_rate.num > 0) {
        /* AVI's header counts the frames; FFmpeg, finding the index at the end cut off, gives the
           length of the frames it finds. (MP4's and MOV's counts are their index, and may be
           longer than an edit list shows.) */
        double counted = stream->nb_frames * frame;
        if (info->duration > 0 && counted > info->duration + frame) {
            info->whole_duration = info->duration;
            info->duration = counted;
        }
    }
    if (size > 0 && entries == 0) {
        /* No index read with the header (Matroska's cues lie at its end, AVI's index too): the
           frames the file holds are found at its tail. */
        int cut = 0;
        double held = tail_end(path, index, size, &cut);
        if (held > 0 && info->duration <= 0) {
            info->duration = held;
            info->duration_from_frames = 1;
            if (cut) info->whole_duration = held;
        } else if (cut && held > 0 && held < info->duration - frame) {
            info->whole_duration = held;
        }
    }
    copy_text(info->codec, sizeof info->codec, codec->name);
    copy_text(info->codec_long, sizeof info->codec_long, codec->long_name ? codec->long_name : codec->name);
    copy_text(info->container, sizeof info->container, format->iformat ? format->iformat->name : "");
    metadata_text(format->metadata, "creation_time", info->created, sizeof info->created);
    if (!info->created[0]) metadata_text(stream->metadata, "creation_time", info->created, sizeof info->created);
    metadata_text(format->metadata, "com.apple.quicktime.content.identifier", info->content_id,
                  sizeof info->content_id);
    metadata_text(format->metadata, "com.apple.quicktime.creationdate", info->local_created,
                  sizeof info->local_created);
    metadata_text(format->metadata, "make", info->make, sizeof info->make);
    metadata_text(format->metadata, "com.apple.quicktime.make", info->make, sizeof info->make);
    metadata_text(format->metadata, "model", info->model, sizeof info->model);
    metadata_text(format->metadata, "com.apple.quicktime.model", info->model, sizeof info->model);

    iw_video *video = calloc(1, sizeof *video);
    if (!video) {
        copy_text(message, message_size, "out of memory");
        iw_ff.avcodec_free_context(&decoder);
        iw_ff.avformat_close_input(&format);
        return NULL;
    }
    video->format = format;
    video->decoder = decoder;
    video->stream = index;
    video->max_pixels = max_pixels;
    return video;
}

/* Scales `frame` into `rgb` (width x height, RGB), the frame's colour matrix and range respected. */
static int scale(AVFrame *frame, int width, int height, unsigned char *rgb) {
    struct SwsContext *context =
        iw_ff.sws_getContext(frame->width, frame->height, (enum AVPixelFormat)frame->format, width, height,
                       AV_PIX_FMT_RGB24, SWS_AREA | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!context) return -1;
    int space = frame->colorspace == AVCOL_SPC_BT709        ? SWS_CS_ITU709
                : frame->colorspace == AVCOL_SPC_BT2020_NCL ? SWS_CS_BT2020
                : frame->colorspace == AVCOL_SPC_SMPTE240M  ? SWS_CS_SMPTE240M
                : frame->colorspace == AVCOL_SPC_FCC        ? SWS_CS_FCC
                : frame->colorspace == AVCOL_SPC_UNSPECIFIED && frame->height >= 720
                    ? SWS_CS_ITU709 /* HD video without a tag is BT.709, as players assume */
                    : SWS_CS_ITU601;
    int full_range = frame->color_range == AVCOL_RANGE_JPEG;
    int *table, *inverse, source_range, target_range, brightness, contrast, saturation;
    if (iw_ff.sws_getColorspaceDetails(context, &inverse, &source_range, &table, &target_range, &brightness, &contrast,
                                 &saturation) >= 0) {
        const int *coefficients = iw_ff.sws_getCoefficients(space);
        iw_ff.sws_setColorspaceDetails(context, coefficients, full_range || source_range, coefficients, 1, brightness,
                                 contrast, saturation);
    }
    uint8_t *planes[4] = {rgb, NULL, NULL, NULL};
    int strides[4] = {width * 3, 0, 0, 0};
    int rows = iw_ff.sws_scale(context, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes,
                         strides);
    iw_ff.sws_freeContext(context);
    return rows == height ? 0 : -1;
}

int iw_video_frame(iw_video *video, double seconds, int width, int height, unsigned char *rgb,
                   int max_packets, double *shown_at, int *damaged, char *message, size_t message_size) {
    *shown_at = 0;
    *damaged = 0;
    AVStream *stream = video->format->streams[video->stream];
    int64_t start = stream->start_time != AV_NOPTS_VALUE ? stream->start_time : 0;
    int64_t wanted = start + (int64_t)llround(seconds / av_q2d(stream->time_base));
    if (iw_ff.av_seek_frame(video->format, video->stream, wanted, AVSEEK_FLAG_BACKWARD) < 0) {
        /* No index to seek by: read from the start. */
        if (iw_ff.av_seek_frame(video->format, video->stream, start, AVSEEK_FLAG_BACKWARD | AVSEEK_FLAG_ANY) < 0 &&
            iw_ff.avformat_seek_file(video->format, -1, INT64_MIN, 0, INT64_MAX, 0) < 0) {
            copy_text(message, message_size, "it cannot be read from its start again");
            return 1;
        }
    }
    iw_ff.avcodec_flush_buffers(video->decoder);
    AVPacket *packet = iw_ff.av_packet_alloc();
    AVFrame *frame = iw_ff.av_frame_alloc(), *shown = iw_ff.av_frame_alloc();
    if (!packet || !frame || !shown) {
        iw_ff.av_packet_free(&packet);
        iw_ff.av_frame_free(&frame);
        iw_ff.av_frame_free(&shown);
        copy_text(message, message_size, "out of memory");
        return 1;
    }
    int have = 0, done = 0, packets = 0, last_error = 0, ended = 0, too_big = 0;
    while (!done) {
        int status = ended ? AVERROR_EOF : iw_ff.av_read_frame(video->format, packet);
        if (status >= 0 && packet->stream_index != video->stream) {
            iw_ff.av_packet_unref(packet);
            continue;
        }
        if (status >= 0 && ++packets > max_packets) {
            iw_ff.av_packet_unref(packet);
            break;
        }
        if (status < 0) {
            if (status != AVERROR_EOF) *damaged |= 1, last_error = status;
            ended = 1;
            if (seconds > 0) *damaged |= 2; /* the stream ended before the moment asked for */
        }
        int sent = iw_ff.avcodec_send_packet(video->decoder, status >= 0 ? packet : NULL);
        if (status >= 0) iw_ff.av_packet_unref(packet);
        if (sent < 0 && sent != AVERROR(EAGAIN) && sent != AVERROR_EOF) *damaged |= 1, last_error = sent;
        for (;;) {
            int received = iw_ff.avcodec_receive_frame(video->decoder, frame);
            if (received == AVERROR(EAGAIN)) break;
            if (received == AVERROR_EOF) {
                done = 1;
                break;
            }
            if (received < 0) {
                *damaged |= 1, last_error = received;
                if (ended) done = 1;
                break;
            }
            if (frame->decode_error_flags || (frame->flags & AV_FRAME_FLAG_CORRUPT)) *damaged |= 1;
            if ((long long)frame->width * frame->height > video->max_pixels) {
                snprintf(message, message_size, "a frame is %dx%d pixels, over the limit of %lld pixels",
                         frame->width, frame->height, video->max_pixels);
                iw_ff.av_frame_unref(frame);
                too_big = 1;
                done = 1;
                break;
            }
            /* The latest frame so far is kept: the one shown at `seconds` once it is reached. */
            int64_t at = frame->best_effort_timestamp;
            iw_ff.av_frame_unref(shown);
            iw_ff.av_frame_move_ref(shown, frame);
            have = 1;
            if (at != AV_NOPTS_VALUE) *shown_at = (double)(at - start) * av_q2d(stream->time_base);
            if (at != AV_NOPTS_VALUE && at >= wanted) {
                done = 1;
                break;
            }
        }
        if (ended && !done && !too_big) {
            /* Drain whatever the decoder still holds, then stop. */
            int received;
            while ((received = iw_ff.avcodec_receive_frame(video->decoder, frame)) >= 0) {
                if ((long long)frame->width * frame->height > video->max_pixels) {
                    iw_ff.av_frame_unref(frame);
                    continue;
                }
                iw_ff.av_frame_unref(shown);
                iw_ff.av_frame_move_ref(shown, frame);
                have = 1;
                int64_t at = shown->best_effort_timestamp;
                *shown_at = at == AV_NOPTS_VALUE ? *shown_at : (double)(at - start) * av_q2d(stream->time_base);
            }
            done = 1;
        }
    }
    int result = 0;
    if (too_big) {
        result = 1;
    } else if (!have) {
        if (packets > max_packets)
            snprintf(message, message_size, "no frame decoded from its first %d packets", max_packets);
        else if (last_error)
            error_text(message, message_size, "no frame could be decoded", last_error);
        else
            copy_text(message, message_size, "no frame could be decoded (the video is empty or cut short)");
        result = 1;
    } else if (scale(shown, width, height, rgb) != 0) {
        snprintf(message, message_size, "its %dx%d %s frame cannot be converted", shown->width, shown->height,
                 iw_ff.av_get_pix_fmt_name((enum AVPixelFormat)shown->format) ?: "?");
        result = 1;
    }
    iw_ff.av_packet_free(&packet);
    iw_ff.av_frame_free(&frame);
    iw_ff.av_frame_free(&shown);
    return result;
}

void iw_video_close(iw_video *video) {
    if (!video) return;
    iw_ff.avcodec_free_context(&video->decoder);
    iw_ff.avformat_close_input(&video->format);
    free(video);
}
