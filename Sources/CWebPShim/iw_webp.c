#include "iw_webp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>

static const char *status_text(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OK: return "ok";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "corrupt WebP bitstream";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported WebP feature";
    case VP8_STATUS_SUSPENDED: return "decoding suspended";
    case VP8_STATUS_USER_ABORT: return "decoding aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the file ends before the image data does";
    }
    return "WebP error";
}

int iw_webp_features_of(const uint8_t *data, size_t size, iw_webp_features *features) {
    WebPBitstreamFeatures f;
    memset(features, 0, sizeof *features);
    VP8StatusCode status = WebPGetFeatures(data, size, &f);
    if (status == VP8_STATUS_NOT_ENOUGH_DATA) return 2;
    if (status != VP8_STATUS_OK) return 1;
    features->width = f.width;
    features->height = f.height;
    features->has_alpha = f.has_alpha;
    features->has_animation = f.has_animation;
    features->format = f.format;
    return 0;
}

int iw_webp_chunk(const uint8_t *data, size_t size, const char *fourcc, const uint8_t **chunk, size_t *chunk_size) {
    WebPData whole = {data, size};
    WebPDemuxer *demuxer = WebPDemux(&whole);
    if (!demuxer) return 1;
    WebPChunkIterator iterator;
    int found = WebPDemuxGetChunk(demuxer, fourcc, 1, &iterator);
    if (found) {
        *chunk = iterator.chunk.bytes;
        *chunk_size = iterator.chunk.size;
        WebPDemuxReleaseChunkIterator(&iterator);
    }
    WebPDemuxDelete(demuxer);
    return found ? 0 : 1;
}

int iw_webp_decode(const uint8_t *data, size_t size, int width, int height, int channels,
                   uint8_t *out, size_t stride, int *rows_done, char *message, size_t message_size) {
    *rows_done = 0;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        snprintf(message, message_size, "libwebp version mismatch");
        return 1;
    }
    VP8StatusCode status = WebPGetFeatures(data, size, &config.input);
    if (status != VP8_STATUS_OK) {
        snprintf(message, message_size, "%s", status_text(status));
        return 1;
    }
    if (width != config.input.width || height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = height;
    }
    config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * (size_t)height;
    WebPIDecoder *decoder = WebPIDecode(NULL, 0, &config);
    if (!decoder) {
        snprintf(message, message_size, "out of memory");
        return 1;
    }
    status = WebPIUpdate(decoder, data, size);
    int last_row = 0;
    if (status == VP8_STATUS_OK) {
        last_row = height;
    } else if (!WebPIDecGetRGB(decoder, &last_row, NULL, NULL, NULL)) {
        last_row = 0;
    }
    WebPIDelete(decoder);
    WebPFreeDecBuffer(&config.output);
    *rows_done = last_row;
    if (status == VP8_STATUS_OK) return 0;
    snprintf(message, message_size, "%s", status == VP8_STATUS_SUSPENDED ? "the file ends before the image data does" : status_text(status));
    return last_row > 0 ? 2 : 1;
}

int iw_webp_first_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride,
                        char *message, size_t message_size) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        snprintf(message, message_size, "libwebp version mismatch");
        return 1;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData whole = {data, size};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&whole, &options);
    if (!decoder) {
        snprintf(message, message_size, "corrupt WebP animation");
        return 1;
    }
    WebPAnimInfo info;
    uint8_t *frame = NULL;
    int timestamp = 0;
    int ok = WebPAnimDecoderGetInfo(decoder, &info) && WebPAnimDecoderGetNext(decoder, &frame, &timestamp);
    if (ok) {
        for (uint32_t y = 0; y < info.canvas_height; y++) {
            memcpy(out + y * stride, frame + (size_t)y * info.canvas_width * 4, (size_t)info.canvas_width * 4);
        }
    } else {
        snprintf(message, message_size, "corrupt WebP animation: its first frame cannot be decoded");
    }
    WebPAnimDecoderDelete(decoder);
    return ok ? 0 : 1;
}

static int encode_frame(const uint8_t *pixels, int width, int height, int channels, int lossless, float quality,
                        WebPMemoryWriter *writer, WebPPicture *picture) {
    WebPConfig config;
    if (!WebPConfigInit(&config) || !WebPPictureInit(picture)) return 0;
    config.lossless = lossless;
    config.quality = quality;
    config.method = 4;
    config.exact = 1;
    picture->use_argb = 1;
    picture->width = width;
    picture->height = height;
    int ok = channels == 4 ? WebPPictureImportRGBA(picture, pixels, width * 4)
                           : WebPPictureImportRGB(picture, pixels, width * 3);
    if (!ok) return 0;
    if (writer) {
        picture->writer = WebPMemoryWrite;
        picture->custom_ptr = writer;
        return WebPEncode(&config, picture);
    }
    return 1;
}

int iw_webp_encode(const uint8_t *pixels, int width, int height, int channels, int lossless, float quality,
                   const uint8_t *icc, size_t icc_size, const uint8_t *exif, size_t exif_size, int frames,
                   uint8_t **output, size_t *output_size, char *message, size_t message_size) {
    *output = NULL;
    *output_size = 0;
    WebPMux *mux = NULL;
    WebPData assembled = {NULL, 0};
    int ok = 0;
    if (frames > 1) {
        WebPAnimEncoderOptions options;
        WebPAnimEncoderOptionsInit(&options);
        WebPAnimEncoder *encoder = WebPAnimEncoderNew(width, height, &options);
        uint8_t *inverted = malloc((size_t)width * height * channels);
        ok = encoder && inverted;
        for (int i = 0; ok && i < frames; i++) {
            const uint8_t *source = pixels;
            if (i % 2 == 1) {
                for (size_t k = 0; k < (size_t)width * height * channels; k++) {
                    inverted[k] = (channels == 4 && k % 4 == 3) ? pixels[k] : (uint8_t)(255 - pixels[k]);
                }
                source = inverted;
            }
            WebPPicture picture;
            WebPConfig config;
            ok = encode_frame(source, width, height, channels, lossless, quality, NULL, &picture) && WebPConfigInit(&config);
            if (ok) {
                config.lossless = lossless;
                config.quality = quality;
                ok = WebPAnimEncoderAdd(encoder, &picture, i * 100, &config);
            }
            WebPPictureFree(&picture);
        }
        ok = ok && WebPAnimEncoderAdd(encoder, NULL, frames * 100, NULL) && WebPAnimEncoderAssemble(encoder, &assembled);
        free(inverted);
        if (encoder) WebPAnimEncoderDelete(encoder);
    } else {
        WebPMemoryWriter writer;
        WebPMemoryWriterInit(&writer);
        WebPPicture picture;
        ok = encode_frame(pixels, width, height, channels, lossless, quality, &writer, &picture);
        WebPPictureFree(&picture);
        assembled.bytes = writer.mem;
        assembled.size = writer.size;
    }
    if (ok && (icc_size || exif_size)) {
        mux = WebPMuxCreate(&assembled, 1);
        ok = mux != NULL;
        if (ok && icc_size) {
            WebPData chunk = {icc, icc_size};
            ok = WebPMuxSetChunk(mux, "ICCP", &chunk, 1) == WEBP_MUX_OK;
        }
        if (ok && exif_size) {
            WebPData chunk = {exif, exif_size};
            ok = WebPMuxSetChunk(mux, "EXIF", &chunk, 1) == WEBP_MUX_OK;
        }
        WebPData muxed = {NULL, 0};
        ok = ok && WebPMuxAssemble(mux, &muxed) == WEBP_MUX_OK;
        WebPDataClear(&assembled);
        assembled = muxed;
    }
    if (mux) WebPMuxDelete(mux);
    if (!ok) {
        WebPDataClear(&assembled);
        snprintf(message, message_size, "libwebp could not encode the image");
        return 1;
    }
    *output = (uint8_t *)assembled.bytes;
    *output_size = assembled.size;
    return 0;
}

void iw_webp_free(uint8_t *data) { WebPFree(data); }

int iw_webp_library_version(void) { return WebPGetDecoderVersion(); }
