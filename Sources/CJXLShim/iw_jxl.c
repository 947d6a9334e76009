#include "iw_jxl.h"
#include "iw_jxl_library.h"
#include "iw_library.h"

#include <jxl/version.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct iw_jxl_functions iw_jf;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[256]; /* empty once every function is found */

/* The library of the version the headers describe: libjxl.so.0.MINOR while the major is 0. */
#define IW_TEXT(x) IW_STRING(x)
#define IW_STRING(x) #x
#define IW_SONAME(major, minor) ((major) == 0 ? "libjxl.so.0." IW_TEXT(minor) : "libjxl.so." IW_TEXT(major))

static void load_jxl(void) {
    const char *const sonames[] = {IW_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION)};
    void *library;
    if (!iw_open_libraries("libjxl", sonames, &library, 1, load_failure, sizeof load_failure)) return;
    char lacking[64];
    snprintf(lacking, sizeof lacking, "%s lacks", sonames[0]);
#define IW_LOOKUP(name)                                                                                   \
    if (!iw_find_function(library, #name, (void **)&iw_jf.name, lacking, load_failure, sizeof load_failure)) \
        return;
    IW_JXL_FUNCTIONS(IW_LOOKUP)
#undef IW_LOOKUP
}

int iw_jxl_loaded(char *message, size_t message_size) {
    pthread_once(&load_once, load_jxl);
    return iw_library_failure(load_failure, message, message_size);
}

static void copy_text(char *to, size_t size, const char *from) {
    if (size) snprintf(to, size, "%s", from ? from : "");
}

static int is_srgb(const JxlColorEncoding *color, int gray) {
    if (color->transfer_function != JXL_TRANSFER_FUNCTION_SRGB) return 0;
    if (color->white_point != JXL_WHITE_POINT_D65) return 0;
    return gray || color->primaries == JXL_PRIMARIES_SRGB;
}

int iw_jxl_probe(const uint8_t *data, size_t size, iw_jxl_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    if (iw_jxl_loaded(message, message_size)) return 1;
    JxlDecoder *decoder = iw_jf.JxlDecoderCreate(NULL);
    if (!decoder) {
        copy_text(message, message_size, "out of memory");
        return 1;
    }
    int result = 2, have_basic = 0;
    iw_jf.JxlDecoderSetKeepOrientation(decoder, JXL_TRUE);
    if (iw_jf.JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_BOX) !=
            JXL_DEC_SUCCESS ||
        iw_jf.JxlDecoderSetInput(decoder, data, size) != JXL_DEC_SUCCESS) {
        copy_text(message, message_size, "libjxl cannot start");
        iw_jf.JxlDecoderDestroy(decoder);
        return 1;
    }
    int have_color = 0;
    for (;;) {
        JxlDecoderStatus status = iw_jf.JxlDecoderProcessInput(decoder);
        if (have_color && status != JXL_DEC_BOX) break; /* past the header: no jbrd box came */
        if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo basic;
            if (iw_jf.JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS) {
                copy_text(message, message_size, "its header cannot be read");
                result = 1;
                break;
            }
            info->width = basic.xsize;
            info->height = basic.ysize;
            info->orientation = (int)basic.orientation;
            info->bits_per_sample = (int)basic.bits_per_sample;
            info->has_alpha = basic.alpha_bits > 0;
            info->is_gray = basic.num_color_channels == 1;
            info->is_animated = basic.have_animation;
            info->is_lossy = !basic.uses_original_profile;
            have_basic = 1;
        } else if (status == JXL_DEC_BOX) {
            /* A container's boxes: a recompressed JPEG's jbrd comes after the codestream's
               first part (its header), before the rest. */
            JxlBoxType type;
            if (iw_jf.JxlDecoderGetBoxType(decoder, type, JXL_FALSE) == JXL_DEC_SUCCESS && memcmp(type, "jbrd", 4) == 0) {
                info->is_recompressed = 1;
                if (have_color) break;
            }
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            JxlColorEncoding color;
            info->is_srgb = iw_jf.JxlDecoderGetColorAsEncodedProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL,
                                                               &color) == JXL_DEC_SUCCESS &&
                            is_srgb(&color, info->is_gray);
            result = 0;
            have_color = 1; /* the header is read; the boxes that follow may say it is a JPEG */
        } else if (status == JXL_DEC_NEED_MORE_INPUT) {
            /* The colour profile lies past the bytes given: the header is all there. */
            result = have_basic ? 0 : 2;
            if (!have_basic) copy_text(message, message_size, "the file ends inside its header");
            break;
        } else {
            copy_text(message, message_size, "corrupt JPEG XL: its header cannot be read");
            result = 1;
            break;
        }
    }
    iw_jf.JxlDecoderDestroy(decoder);
    return result;
}

/* Where the rows libjxl gives are summed into the shrunk image. */
typedef struct {
    uint32_t width, height; /* the stored image */
    uint32_t out_width, out_height;
    int channels, shrink;
    uint32_t *sums;         /* out_width x out_height x channels */
    uint32_t *counts;       /* out_width x out_height */
} accumulator;

static void take_pixels(void *opaque, size_t x, size_t y, size_t count, const void *pixels) {
    accumulator *a = opaque;
    const uint8_t *p = pixels;
    if (y >= a->height) return;
    size_t row = (size_t)(y / a->shrink) * a->out_width;
    for (size_t i = 0; i < count && x + i < a->width; i++, p += a->channels) {
        size_t cell = row + (x + i) / a->shrink;
        uint32_t *sum = a->sums + cell * a->channels;
        for (int c = 0; c < a->channels; c++) sum[c] += p[c];
        a->counts[cell]++;
    }
}

int iw_jxl_decode(FILE *file, int shrink, uint8_t *out, uint32_t width, uint32_t height, int channels,
                  uint8_t **icc, size_t *icc_size, char *message, size_t message_size) {
    *icc = NULL;
    *icc_size = 0;
    if (iw_jxl_loaded(message, message_size)) return 1;
    if (shrink < 1) shrink = 1;
    accumulator a = {0};
    a.channels = channels;
    a.shrink = shrink;
    size_t chunk = 1 << 20, held = 0;
    uint8_t *input = malloc(chunk);
    JxlDecoder *decoder = iw_jf.JxlDecoderCreate(NULL);
    int result = 1, frame_started = 0, ended = 0;
    if (!input || !decoder) {
        copy_text(message, message_size, "out of memory");
        goto done;
    }
    iw_jf.JxlDecoderSetKeepOrientation(decoder, JXL_TRUE);
    iw_jf.JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE);
    if (iw_jf.JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FRAME |
                                               JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS) {
        copy_text(message, message_size, "libjxl cannot start");
        goto done;
    }
    JxlPixelFormat format = {(uint32_t)channels, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    for (;;) {
        JxlDecoderStatus status = iw_jf.JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_NEED_MORE_INPUT) {
            size_t left = iw_jf.JxlDecoderReleaseInput(decoder);
            if (ended) {
                /* The file ends early: what libjxl can render of the frame from the data read (a
                   coarser pass where the rest is missing). Debian's libjxl 0.7 prints a line of
                   its own on stderr when the flush meets the missing data. */
                if (frame_started && a.sums) iw_jf.JxlDecoderFlushImage(decoder);
                result = 2;
                break;
            }
            if (left == chunk) {
                /* A box bigger than the buffer: grow it (a frame's header is never 256 MB). */
                uint8_t *bigger = chunk < (256u << 20) ? realloc(input, chunk * 2) : NULL;
                if (!bigger) {
                    copy_text(message, message_size, "corrupt JPEG XL: a box too big to read");
                    break;
                }
                input = bigger;
                chunk *= 2;
            }
            memmove(input, input + held - left, left);
            size_t count = fread(input + left, 1, chunk - left, file);
            held = left + count;
            if (count == 0) ended = 1; /* told when libjxl asks for more again */
            iw_jf.JxlDecoderSetInput(decoder, input, held);
        } else if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo basic;
            if (iw_jf.JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS || basic.xsize != width ||
                basic.ysize != height) {
                copy_text(message, message_size, "header changed since it was probed");
                break;
            }
            a.width = width;
            a.height = height;
            a.out_width = (width + shrink - 1) / shrink;
            a.out_height = (height + shrink - 1) / shrink;
            a.sums = calloc((size_t)a.out_width * a.out_height * channels, sizeof *a.sums);
            a.counts = calloc((size_t)a.out_width * a.out_height, sizeof *a.counts);
            if (!a.sums || !a.counts) {
                copy_text(message, message_size, "out of memory");
                break;
            }
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            JxlBasicInfo basic;
            iw_jf.JxlDecoderGetBasicInfo(decoder, &basic);
            if (!basic.uses_original_profile) {
                JxlColorEncoding srgb;
                memset(&srgb, 0, sizeof srgb);
                srgb.color_space = basic.num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
                srgb.white_point = JXL_WHITE_POINT_D65;
                srgb.primaries = JXL_PRIMARIES_SRGB;
                srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
                srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
                iw_jf.JxlDecoderSetPreferredColorProfile(decoder, &srgb);
            } else {
                JxlColorEncoding color;
                int gray = basic.num_color_channels == 1;
                int plain = iw_jf.JxlDecoderGetColorAsEncodedProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &color) ==
                                JXL_DEC_SUCCESS &&
                            is_srgb(&color, gray);
                size_t size = 0;
                if (!plain && !gray &&
                    iw_jf.JxlDecoderGetICCProfileSize(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) ==
                        JXL_DEC_SUCCESS &&
                    size > 0 && size <= (64u << 20)) {
                    *icc = malloc(size);
                    if (*icc && iw_jf.JxlDecoderGetColorAsICCProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, *icc,
                                                               size) == JXL_DEC_SUCCESS) {
                        *icc_size = size;
                    } else {
                        free(*icc);
                        *icc = NULL;
                    }
                }
            }
        } else if (status == JXL_DEC_FRAME) {
            frame_started = 1;
        } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            if (iw_jf.JxlDecoderSetImageOutCallback(decoder, &format, take_pixels, &a) != JXL_DEC_SUCCESS) {
                copy_text(message, message_size, "libjxl refused the pixel format");
                break;
            }
        } else if (status == JXL_DEC_FULL_IMAGE) {
            result = 0; /* the first frame: enough */
            break;
        } else if (status == JXL_DEC_SUCCESS) {
            copy_text(message, message_size, "the file holds no frame");
            break;
        } else {
            copy_text(message, message_size, "corrupt JPEG XL: libjxl cannot decode it");
            break;
        }
    }
    if ((result == 0 || result == 2) && a.sums) {
        size_t cells = (size_t)a.out_width * a.out_height, decoded = 0;
        for (size_t cell = 0; cell < cells; cell++) {
            uint32_t n = a.counts[cell];
            for (int c = 0; c < channels; c++)
                out[cell * channels + c] =
                    n ? (uint8_t)((a.sums[cell * channels + c] + n / 2) / n) : (c == 3 ? 255 : 128);
            if (n) decoded++;
        }
        if (result == 2) {
            if (decoded == 0) {
                copy_text(message, message_size, "truncated JPEG XL: the file ends before any pixel");
                result = 1;
            } else if (decoded < cells) {
                snprintf(message, message_size,
                         "truncated JPEG XL: the file ends early; drawn as far as it decodes (%zu%% of the image)",
                         decoded * 100 / cells);
            } else {
                copy_text(message, message_size, "truncated JPEG XL: the file ends early; drawn as far as it decodes");
            }
        }
    } else if (result == 2) {
        copy_text(message, message_size, "truncated JPEG XL: the file ends before its first frame");
        result = 1;
    }
done:
    if (result == 1 && *icc) {
        free(*icc);
        *icc = NULL;
        *icc_size = 0;
    }
    free(a.sums);
    free(a.counts);
    free(input);
    if (decoder) iw_jf.JxlDecoderDestroy(decoder);
    return result;
}

const char *iw_jxl_version(void) {
    static char text[16];
    if (iw_jxl_loaded(NULL, 0)) return "(not loaded)";
    uint32_t v = iw_jf.JxlDecoderVersion();
    snprintf(text, sizeof text, "%u.%u.%u", v / 1000000, v / 1000 % 1000, v % 1000);
    return text;
}

const char *iw_jxl_header_version(void) {
    return IW_TEXT(JPEGXL_MAJOR_VERSION) "." IW_TEXT(JPEGXL_MINOR_VERSION) "." IW_TEXT(JPEGXL_PATCH_VERSION);
}
