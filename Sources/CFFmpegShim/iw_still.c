#include "iw_still.h"
#include "iw_ffmpeg.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iw_still {
    AVFrame *frame;
    iw_still_floats floats; /* what the survey of float samples found */
    /* The conversion started by iw_still_convert_start. */
    int channels, linear, is_float;
    struct SwsContext *scaler;
};

/* The linear light half way between sRGB codes v and v + 1 (v = 0...254), as single-precision
   numbers: a linear sample is encoded as the number of these it reaches, with comparisons only,
   so that every CPU and every libm gives the same code. */
static const float srgb_thresholds[255] = {
    0x1.3e45680000000p-13f, 0x1.dd681c0000000p-12f, 0x1.8dd6c20000000p-11f, 0x1.167cba0000000p-10f, 0x1.660e140000000p-10f, 0x1.b59f6e0000000p-10f,
    0x1.0298640000000p-9f, 0x1.2a61120000000p-9f, 0x1.5229be0000000p-9f, 0x1.79f26a0000000p-9f, 0x1.a1e5a00000000p-9f, 0x1.cbf7340000000p-9f,
    0x1.f868060000000p-9f, 0x1.13a0be0000000p-8f, 0x1.2c46660000000p-8f, 0x1.46297a0000000p-8f, 0x1.614e600000000p-8f, 0x1.7db96c0000000p-8f,
    0x1.9b6eda0000000p-8f, 0x1.ba72ce0000000p-8f, 0x1.dac95e0000000p-8f, 0x1.fc768a0000000p-8f, 0x1.0fbf220000000p-7f, 0x1.21f2340000000p-7f,
    0x1.34d6620000000p-7f, 0x1.486d8e0000000p-7f, 0x1.5cb98e0000000p-7f, 0x1.71bc320000000p-7f, 0x1.8777480000000p-7f, 0x1.9dec900000000p-7f,
    0x1.b51dc80000000p-7f, 0x1.cd0ca80000000p-7f, 0x1.e5bae00000000p-7f, 0x1.ff2a1e0000000p-7f, 0x1.0cae040000000p-6f, 0x1.1a291c0000000p-6f,
    0x1.28072a0000000p-6f, 0x1.3648f60000000p-6f, 0x1.44ef4c0000000p-6f, 0x1.53faee0000000p-6f, 0x1.636ca40000000p-6f, 0x1.7345300000000p-6f,
    0x1.8385500000000p-6f, 0x1.942dc40000000p-6f, 0x1.a53f480000000p-6f, 0x1.b6ba940000000p-6f, 0x1.c8a0620000000p-6f, 0x1.daf1680000000p-6f,
    0x1.edae5c0000000p-6f, 0x1.006bf60000000p-5f, 0x1.0a37680000000p-5f, 0x1.1439d80000000p-5f, 0x1.1e73a00000000p-5f, 0x1.28e5140000000p-5f,
    0x1.338e8a0000000p-5f, 0x1.3e70560000000p-5f, 0x1.498ace0000000p-5f, 0x1.54de420000000p-5f, 0x1.606b080000000p-5f, 0x1.6c316e0000000p-5f,
    0x1.7831c60000000p-5f, 0x1.846c620000000p-5f, 0x1.90e1920000000p-5f, 0x1.9d91a40000000p-5f, 0x1.aa7ce40000000p-5f, 0x1.b7a3a40000000p-5f,
    0x1.c506300000000p-5f, 0x1.d2a4d40000000p-5f, 0x1.e07fdc0000000p-5f, 0x1.ee97940000000p-5f, 0x1.fcec460000000p-5f, 0x1.05bf200000000p-4f,
    0x1.0d26e40000000p-4f, 0x1.14ad940000000p-4f, 0x1.1c53560000000p-4f, 0x1.24184c0000000p-4f, 0x1.2bfc9c0000000p-4f, 0x1.34006a0000000p-4f,
    0x1.3c23d60000000p-4f, 0x1.4467080000000p-4f, 0x1.4cca1e0000000p-4f, 0x1.554d400000000p-4f, 0x1.5df08e0000000p-4f, 0x1.66b4280000000p-4f,
    0x1.6f98360000000p-4f, 0x1.789cd40000000p-4f, 0x1.81c2280000000p-4f, 0x1.8b08500000000p-4f, 0x1.946f720000000p-4f, 0x1.9df7aa0000000p-4f,
    0x1.a7a11c0000000p-4f, 0x1.b16bea0000000p-4f, 0x1.bb58300000000p-4f, 0x1.c566120000000p-4f, 0x1.cf95b00000000p-4f, 0x1.d9e72a0000000p-4f,
    0x1.e45a9e0000000p-4f, 0x1.eef02e0000000p-4f, 0x1.f9a7f80000000p-4f, 0x1.02410e0000000p-3f, 0x1.07bf5c0000000p-3f, 0x1.0d4ef60000000p-3f,
    0x1.12efec0000000p-3f, 0x1.18a24c0000000p-3f, 0x1.1e66260000000p-3f, 0x1.243b8a0000000p-3f, 0x1.2a22860000000p-3f, 0x1.301b2a0000000p-3f,
    0x1.3625820000000p-3f, 0x1.3c41a20000000p-3f, 0x1.426f940000000p-3f, 0x1.48af6a0000000p-3f, 0x1.4f01320000000p-3f, 0x1.5564f80000000p-3f,
    0x1.5bdace0000000p-3f, 0x1.6262c00000000p-3f, 0x1.68fce00000000p-3f, 0x1.6fa9380000000p-3f, 0x1.7667d80000000p-3f, 0x1.7d38ce0000000p-3f,
    0x1.841c280000000p-3f, 0x1.8b11f60000000p-3f, 0x1.921a420000000p-3f, 0x1.99351e0000000p-3f, 0x1.a062960000000p-3f, 0x1.a7a2ba0000000p-3f,
    0x1.aef5940000000p-3f, 0x1.b65b340000000p-3f, 0x1.bdd3a60000000p-3f, 0x1.c55efa0000000p-3f, 0x1.ccfd3e0000000p-3f, 0x1.d4ae7c0000000p-3f,
    0x1.dc72c20000000p-3f, 0x1.e44a200000000p-3f, 0x1.ec34a40000000p-3f, 0x1.f432560000000p-3f, 0x1.fc43480000000p-3f, 0x1.0233c20000000p-2f,
    0x1.064f8e0000000p-2f, 0x1.0a750c0000000p-2f, 0x1.0ea4420000000p-2f, 0x1.12dd3a0000000p-2f, 0x1.171ff80000000p-2f, 0x1.1b6c820000000p-2f,
    0x1.1fc2de0000000p-2f, 0x1.2423160000000p-2f, 0x1.288d2c0000000p-2f, 0x1.2d01280000000p-2f, 0x1.317f120000000p-2f, 0x1.3606ee0000000p-2f,
    0x1.3a98c20000000p-2f, 0x1.3f34960000000p-2f, 0x1.43da700000000p-2f, 0x1.488a540000000p-2f, 0x1.4d444c0000000p-2f, 0x1.52085a0000000p-2f,
    0x1.56d6880000000p-2f, 0x1.5baed80000000p-2f, 0x1.6091540000000p-2f, 0x1.657e000000000p-2f, 0x1.6a74e20000000p-2f, 0x1.6f76000000000p-2f,
    0x1.7481600000000p-2f, 0x1.79970a0000000p-2f, 0x1.7eb7000000000p-2f, 0x1.83e14c0000000p-2f, 0x1.8915f20000000p-2f, 0x1.8e54f80000000p-2f,
    0x1.939e640000000p-2f, 0x1.98f23a0000000p-2f, 0x1.9e50840000000p-2f, 0x1.a3b9440000000p-2f, 0x1.a92c800000000p-2f, 0x1.aeaa420000000p-2f,
    0x1.b4328a0000000p-2f, 0x1.b9c5620000000p-2f, 0x1.bf62ce0000000p-2f, 0x1.c50ad40000000p-2f, 0x1.cabd7a0000000p-2f, 0x1.d07ac40000000p-2f,
    0x1.d642ba0000000p-2f, 0x1.dc15600000000p-2f, 0x1.e1f2bc0000000p-2f, 0x1.e7dad40000000p-2f, 0x1.edcdae0000000p-2f, 0x1.f3cb4e0000000p-2f,
    0x1.f9d3bc0000000p-2f, 0x1.ffe6fa0000000p-2f, 0x1.0302880000000p-1f, 0x1.0617020000000p-1f, 0x1.0930ee0000000p-1f, 0x1.0c504c0000000p-1f,
    0x1.0f75220000000p-1f, 0x1.129f720000000p-1f, 0x1.15cf3e0000000p-1f, 0x1.1904880000000p-1f, 0x1.1c3f540000000p-1f, 0x1.1f7fa40000000p-1f,
    0x1.22c57a0000000p-1f, 0x1.2610da0000000p-1f, 0x1.2961c80000000p-1f, 0x1.2cb8440000000p-1f, 0x1.3014500000000p-1f, 0x1.3375f20000000p-1f,
    0x1.36dd2a0000000p-1f, 0x1.3a49fc0000000p-1f, 0x1.3dbc6a0000000p-1f, 0x1.4134760000000p-1f, 0x1.44b2240000000p-1f, 0x1.4835760000000p-1f,
    0x1.4bbe6e0000000p-1f, 0x1.4f4d100000000p-1f, 0x1.52e15e0000000p-1f, 0x1.567b580000000p-1f, 0x1.5a1b040000000p-1f, 0x1.5dc0640000000p-1f,
    0x1.616b7a0000000p-1f, 0x1.651c460000000p-1f, 0x1.68d2d00000000p-1f, 0x1.6c8f160000000p-1f, 0x1.70511c0000000p-1f, 0x1.7418e60000000p-1f,
    0x1.77e6720000000p-1f, 0x1.7bb9c80000000p-1f, 0x1.7f92e80000000p-1f, 0x1.8371d40000000p-1f, 0x1.8756900000000p-1f, 0x1.8b411c0000000p-1f,
    0x1.8f317c0000000p-1f, 0x1.9327b40000000p-1f, 0x1.9723c40000000p-1f, 0x1.9b25b00000000p-1f, 0x1.9f2d7a0000000p-1f, 0x1.a33b220000000p-1f,
    0x1.a74eb00000000p-1f, 0x1.ab68200000000p-1f, 0x1.af877a0000000p-1f, 0x1.b3acbe0000000p-1f, 0x1.b7d7ec0000000p-1f, 0x1.bc090c0000000p-1f,
    0x1.c0401a0000000p-1f, 0x1.c47d1e0000000p-1f, 0x1.c8c0180000000p-1f, 0x1.cd090a0000000p-1f, 0x1.d157f60000000p-1f, 0x1.d5ace00000000p-1f,
    0x1.da07c80000000p-1f, 0x1.de68b40000000p-1f, 0x1.e2cfa20000000p-1f, 0x1.e73c980000000p-1f, 0x1.ebaf980000000p-1f, 0x1.f028a20000000p-1f,
    0x1.f4a7ba0000000p-1f, 0x1.f92ce20000000p-1f, 0x1.fdb81c0000000p-1f,
};

static unsigned char encoded_srgb(float linear) {
    if (!(linear > srgb_thresholds[0])) return 0; /* negative, zero and NaN */
    int low = 0, high = 255;                         /* thresholds[low] <= linear < thresholds[high] */
    while (high - low > 1) {
        int middle = (low + high) / 2;
        if (linear >= srgb_thresholds[middle])
            low = middle;
        else
            high = middle;
    }
    return (unsigned char)high;
}

static unsigned char encoded_plain(float value) {
    if (!(value > 0)) return 0;
    if (value >= 1) return 255;
    return (unsigned char)(value * 255.0f + 0.5f);
}

static void error_text(char *to, size_t size, const char *what, int error) {
    char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
    iw_ff.av_strerror(error, reason, sizeof reason);
    snprintf(to, size, "%s (%s)", what, reason);
}

static void lent_bytes(void *opaque, uint8_t *data) {
    (void)opaque;
    (void)data;
}

iw_still *iw_still_decode(const unsigned char *data, size_t size, const char *decoder, long long max_pixels,
                          int lowres, iw_still_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    if (iw_ffmpeg_loaded(message, message_size)) return NULL;
    if (size > INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE) {
        snprintf(message, message_size, "the file is too big for FFmpeg's decoder (%zu bytes)", size);
        return NULL;
    }
    const AVCodec *codec = iw_ff.avcodec_find_decoder_by_name(decoder);
    if (!codec) {
        snprintf(message, message_size, "this FFmpeg has no %s decoder", decoder);
        return NULL;
    }
    AVCodecContext *context = iw_ff.avcodec_alloc_context3(codec);
    AVPacket *packet = iw_ff.av_packet_alloc();
    AVFrame *frame = iw_ff.av_frame_alloc();
    iw_still *still = NULL;
    if (!context || !packet || !frame) {
        snprintf(message, message_size, "out of memory");
        goto done;
    }
    context->thread_count = 1;
    context->flags |= AV_CODEC_FLAG_BITEXACT;
    context->max_pixels = max_pixels > INT64_MAX ? INT64_MAX : max_pixels;
    context->lowres = lowres < 0 ? 0 : (lowres > codec->max_lowres ? codec->max_lowres : lowres);
    int status = iw_ff.avcodec_open2(context, codec, NULL);
    if (status < 0) {
        error_text(message, message_size, "FFmpeg's decoder cannot be opened", status);
        goto done;
    }
    iw_ffmpeg_clear_logged();
    /* The caller's bytes lent to FFmpeg as the packet's buffer (freed by nobody here), so
       avcodec_send_packet does not copy a whole file. */
    packet->buf = iw_ff.av_buffer_create((uint8_t *)data, (int)size + AV_INPUT_BUFFER_PADDING_SIZE, lent_bytes, NULL,
                                         AV_BUFFER_FLAG_READONLY);
    if (!packet->buf) {
        snprintf(message, message_size, "out of memory");
        goto done;
    }
    packet->data = (uint8_t *)data;
    packet->size = (int)size;
    packet->flags = AV_PKT_FLAG_KEY;
    int sent = iw_ff.avcodec_send_packet(context, packet);
    int flushed = iw_ff.avcodec_send_packet(context, NULL);
    (void)flushed;
    int received = iw_ff.avcodec_receive_frame(context, frame);
    if (received < 0) {
        if (iw_ffmpeg_logged()[0])
            snprintf(message, message_size, "%s", iw_ffmpeg_logged());
        else
            error_text(message, message_size, "no picture could be decoded", sent < 0 ? sent : received);
        goto done;
    }
    if ((long long)frame->width * frame->height > max_pixels) {
        snprintf(message, message_size, "the picture is %dx%d pixels, over the limit of %lld pixels", frame->width,
                 frame->height, max_pixels);
        goto done;
    }
    const AVPixFmtDescriptor *format = iw_ff.av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (!format) {
        snprintf(message, message_size, "the decoder gave pixels of no known format");
        goto done;
    }
    info->width = frame->width;
    info->height = frame->height;
    info->has_alpha = (format->flags & AV_PIX_FMT_FLAG_ALPHA) != 0;
    info->is_float = (format->flags & AV_PIX_FMT_FLAG_FLOAT) != 0;
    info->damaged = sent < 0 || frame->decode_error_flags || (frame->flags & AV_FRAME_FLAG_CORRUPT) ||
                    iw_ffmpeg_logged()[0];
    snprintf(info->problem, sizeof info->problem, "%s", iw_ffmpeg_logged());
    snprintf(info->pixel_format, sizeof info->pixel_format, "%s", format->name);
    still = calloc(1, sizeof *still);
    if (!still) {
        snprintf(message, message_size, "out of memory");
        goto done;
    }
    still->frame = frame;
    frame = NULL;
done:
    iw_ff.av_frame_free(&frame);
    iw_ff.av_packet_free(&packet);
    iw_ff.avcodec_free_context(&context);
    return still;
}

/* Floating-point samples, planar or packed, grey or RGB, with or without alpha (native byte
   order): converted here, as libswscale does not encode light as sRGB. */
/* The sample of component `c` of pixel (x, y). */
static float float_sample(const AVFrame *frame, const AVPixFmtDescriptor *format, int x, int y, int c) {
    const AVComponentDescriptor *component = &format->comp[c];
    const uint8_t *at = frame->data[component->plane] + (size_t)y * frame->linesize[component->plane] +
                        (size_t)x * component->step + component->offset;
    float sample;
    memcpy(&sample, at, sizeof(float));
    return sample;
}

void iw_float_survey_add(iw_float_survey *survey, float value) {
    survey->samples++;
    if (value > 1) survey->bright++;
    if (value > survey->largest) survey->largest = value;
    if (!(value >= 0 && value <= 255 && value == floorf(value))) survey->not_codes = 1;
}

iw_still_floats iw_float_survey_result(const iw_float_survey *survey) {
    iw_still_floats floats;
    floats.codes = !survey->not_codes && survey->largest > 1;
    floats.largest = survey->largest;
    floats.clipped =
        survey->samples && !floats.codes ? (double)survey->bright / (double)survey->samples : 0;
    return floats;
}

/* One pixel's samples (red, green, blue, opacity) as `channels` 8-bit codes. */
static inline void encode_float_pixel(const float sample[4], int channels, int linear, int codes,
                                      unsigned char *out) {
    float red = sample[0], green = sample[1], blue = sample[2], opacity = sample[3];
    if (codes) {
        out[0] = (unsigned char)red;
        out[1] = (unsigned char)green;
        out[2] = (unsigned char)blue;
        if (channels == 4) out[3] = opacity > 1 ? (unsigned char)fminf(opacity, 255) : encoded_plain(opacity);
        return;
    }
    out[0] = linear ? encoded_srgb(red) : encoded_plain(red);
    out[1] = linear ? encoded_srgb(green) : encoded_plain(green);
    out[2] = linear ? encoded_srgb(blue) : encoded_plain(blue);
    if (channels == 4) out[3] = encoded_plain(opacity);
}

void iw_survey_rgba_floats(const float *rgba, size_t pixels, iw_float_survey *survey) {
    for (size_t i = 0; i < pixels; i++)
        for (int c = 0; c < 3; c++) iw_float_survey_add(survey, rgba[4 * i + c]);
}

void iw_encode_rgba_floats(const float *rgba, size_t pixels, int channels, int codes, unsigned char *out) {
    for (size_t i = 0; i < pixels; i++) encode_float_pixel(rgba + 4 * i, channels, 1, codes, out + i * channels);
}

/* Whether a float picture's layout is one float_rows reads. */
static int float_layout_known(const AVPixFmtDescriptor *format) {
    if (format->flags & AV_PIX_FMT_FLAG_BE) return 0;
    for (int c = 0; c < format->nb_components; c++)
        if (format->comp[c].depth != 32 || format->comp[c].shift != 0) return 0;
    return 1;
}

/* What the colour samples hold: light past white, or 8-bit codes (0 to 255, whole numbers, some
   past 1) that a writer put in floats, which are drawn as the codes they are. */
static void float_survey(const AVFrame *frame, const AVPixFmtDescriptor *format, iw_still_floats *floats) {
    int gray = !(format->flags & AV_PIX_FMT_FLAG_RGB) && format->nb_components <= 2;
    int color_components = gray ? 1 : 3;
    iw_float_survey survey = {0};
    for (int y = 0; y < frame->height; y++)
        for (int x = 0; x < frame->width; x++)
            for (int c = 0; c < color_components; c++) iw_float_survey_add(&survey, float_sample(frame, format, x, y, c));
    *floats = iw_float_survey_result(&survey);
}

static void float_rows(const AVFrame *frame, const AVPixFmtDescriptor *format, int channels, int linear, int codes,
                       int first, int rows, unsigned char *out) {
    int gray = !(format->flags & AV_PIX_FMT_FLAG_RGB) && format->nb_components <= 2;
    int alpha = (format->flags & AV_PIX_FMT_FLAG_ALPHA) != 0;
    int color_components = gray ? 1 : 3;
    for (int y = first; y < first + rows; y++) {
        unsigned char *row = out + (size_t)(y - first) * frame->width * channels;
        for (int x = 0; x < frame->width; x++) {
            float sample[4] = {0, 0, 0, 1};
            for (int c = 0; c < format->nb_components && c < 4; c++) sample[c] = float_sample(frame, format, x, y, c);
            float pixel[4] = {sample[0], gray ? sample[0] : sample[1], gray ? sample[0] : sample[2],
                              alpha ? sample[color_components] : 1.0f};
            encode_float_pixel(pixel, channels, linear, codes, row + (size_t)x * channels);
        }
    }
}

int iw_still_convert_start(iw_still *still, int channels, int linear, const char *samples_as, char *message,
                           size_t message_size) {
    AVFrame *frame = still->frame;
    const AVPixFmtDescriptor *format = iw_ff.av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (samples_as) {
        enum AVPixelFormat as = iw_ff.av_get_pix_fmt(samples_as);
        const AVPixFmtDescriptor *really = as == AV_PIX_FMT_NONE ? NULL : iw_ff.av_pix_fmt_desc_get(as);
        if (!really || really->comp[0].step != format->comp[0].step ||
            (really->flags & AV_PIX_FMT_FLAG_PLANAR) || (format->flags & AV_PIX_FMT_FLAG_PLANAR)) {
            snprintf(message, message_size, "its %s pixels cannot be read as %s", format->name, samples_as);
            return 1;
        }
        frame->format = as;
        format = really;
    }
    still->channels = channels;
    still->linear = linear;
    still->is_float = (format->flags & AV_PIX_FMT_FLAG_FLOAT) != 0;
    if (still->is_float) {
        if (!float_layout_known(format)) {
            snprintf(message, message_size, "its %s pixels cannot be converted", format->name);
            return 1;
        }
        float_survey(frame, format, &still->floats);
        return 0;
    }
    enum AVPixelFormat wanted = channels == 4 ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24;
    still->scaler = iw_ff.sws_getContext(
        frame->width, frame->height, (enum AVPixelFormat)frame->format, frame->width, frame->height, wanted,
        SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP, NULL, NULL, NULL);
    if (!still->scaler) {
        snprintf(message, message_size, "its %s pixels cannot be converted", format->name);
        return 1;
    }
    return 0;
}

int iw_still_convert_rows(iw_still *still, int first, int rows, unsigned char *out, char *message,
                          size_t message_size) {
    AVFrame *frame = still->frame;
    const AVPixFmtDescriptor *format = iw_ff.av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (first < 0 || rows < 1 || first + rows > frame->height) {
        snprintf(message, message_size, "rows %d to %d are not in the picture", first, first + rows - 1);
        return 1;
    }
    if (still->is_float) {
        float_rows(frame, format, still->channels, still->linear, still->floats.codes, first, rows, out);
        return 0;
    }
    if (!still->scaler) {
        snprintf(message, message_size, "the conversion was not started");
        return 1;
    }
    /* libswscale takes the slices of one picture in order, top to bottom: each given by its own
       rows (the planes holding components start at the slice's first row; a palette is whole),
       and written where it lies in the whole output. `out` holds only this slice's rows, so the
       output's start is placed `first` rows above it (never written there). Bands are only
       asked for when no plane is subsampled vertically (iw_still_band_height). */
    const uint8_t *source[4] = {NULL, NULL, NULL, NULL};
    for (int plane = 0; plane < 4; plane++) {
        if (!frame->data[plane]) continue;
        int holds_component = 0;
        for (int c = 0; c < format->nb_components; c++) holds_component |= format->comp[c].plane == plane;
        source[plane] = frame->data[plane] + (holds_component ? (ptrdiff_t)first * frame->linesize[plane] : 0);
    }
    const size_t stride = (size_t)frame->width * still->channels;
    uint8_t *planes[4] = {(uint8_t *)((uintptr_t)out - (uintptr_t)first * stride), NULL, NULL, NULL};
    int strides[4] = {(int)stride, 0, 0, 0};
    int written = iw_ff.sws_scale(still->scaler, source, frame->linesize, first, rows, planes, strides);
    if (written != rows) {
        snprintf(message, message_size, "its %s pixels cannot be converted", format->name);
        return 1;
    }
    return 0;
}

int iw_still_band_height(const iw_still *still, int wanted) {
    const AVFrame *frame = still->frame;
    const AVPixFmtDescriptor *format = iw_ff.av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    /* Chroma subsampled vertically: libswscale's chroma filter reaches into the next rows, so
       its slices would come out late; converted whole. */
    if (!still->is_float && format && format->log2_chroma_h > 0) return frame->height;
    return wanted < 1 ? 1 : wanted > frame->height ? frame->height : wanted;
}

iw_still_floats iw_still_float_samples(const iw_still *still) { return still->floats; }

void iw_encode_linear_light(const float *samples, size_t count, unsigned char *codes) {
    for (size_t i = 0; i < count; i++) codes[i] = encoded_srgb(samples[i]);
}

void iw_still_close(iw_still *still) {
    if (!still) return;
    if (still->scaler) iw_ff.sws_freeContext(still->scaler);
    iw_ff.av_frame_free(&still->frame);
    free(still);
}
