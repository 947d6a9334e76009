#include "iw_heif.h"
#include "iw_heif_library.h"
#include "iw_kernels.h"
#include "iw_library.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The library of the ABI the headers describe: libheif.so.1 for every 1.x. */
_Static_assert(LIBHEIF_NUMERIC_VERSION >> 24 == 1, "libheif's headers are of another ABI than libheif.so.1");
#define IW_HEIF_SONAME "libheif.so.1"

struct iw_heif_functions iw_hf;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[256]; /* empty once every function is found */

static void load_heif(void) {
    static const char *const sonames[] = {IW_HEIF_SONAME};
    void *library;
    if (!iw_open_libraries("libheif", sonames, &library, 1, load_failure, sizeof load_failure)) return;
#define IW_LOOKUP(name)                                                                                   \
    if (!iw_find_function(library, #name, (void **)&iw_hf.name, IW_HEIF_SONAME " lacks", load_failure,   \
                          sizeof load_failure))                                                          \
        return;
    IW_HEIF_FUNCTIONS(IW_LOOKUP)
#undef IW_LOOKUP
}

int iw_heif_loaded(char *message, size_t message_size) {
    pthread_once(&load_once, load_heif);
    return iw_library_failure(load_failure, message, message_size);
}

static int fail(struct heif_error error, char *message, size_t size) {
    snprintf(message, size, "%s", error.message ? error.message : "libheif error");
    return 1;
}

/* The file's bytes for libheif, read with pread through a descriptor the caller owns: the
   reading of a file's boxes and items can be kept after the probe without its descriptor, and a
   decode reads through its own. libheif asks for a box header at a time: reads are served from
   a window of the file, and large ones (an item's data) go straight to libheif's buffer. */
enum { window_size = 64 << 10 };

struct iw_heif_file {
    struct heif_context *context;
    int descriptor;             /* -1 while kept: every read fails */
    int64_t size, position;
    uint8_t *window;            /* window_length bytes from window_start, or NULL */
    int64_t window_start;
    size_t window_length;
};

static int64_t source_position(void *userdata) { return ((iw_heif_file *)userdata)->position; }

static int read_fully(int descriptor, uint8_t *data, size_t size, int64_t offset) {
    size_t done = 0;
    while (done < size) {
        ssize_t got = pread(descriptor, data + done, size - done, (off_t)(offset + (int64_t)done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 1; /* an error, or the file is shorter than it was */
        done += (size_t)got;
    }
    return 0;
}

static int source_read(void *data, size_t size, void *userdata) {
    iw_heif_file *file = userdata;
    if (file->descriptor < 0 || file->position < 0 || (int64_t)size > file->size - file->position) return 1;
    int64_t at = file->position;
    if (size >= window_size / 4) {
        if (read_fully(file->descriptor, data, size, at)) return 1;
    } else {
        if (!file->window || at < file->window_start ||
            at + (int64_t)size > file->window_start + (int64_t)file->window_length) {
            if (!file->window && !(file->window = malloc(window_size))) return 1;
            int64_t left = file->size - at;
            file->window_start = at;
            file->window_length = left < window_size ? (size_t)left : window_size;
            if (read_fully(file->descriptor, file->window, file->window_length, at)) {
                file->window_length = 0;
                return 1;
            }
        }
        memcpy(data, file->window + (at - file->window_start), size);
    }
    file->position = at + (int64_t)size;
    return 0;
}

static int source_seek(int64_t position, void *userdata) {
    iw_heif_file *file = userdata;
    if (position < 0 || position > file->size) return 1;
    file->position = position;
    return 0;
}

static enum heif_reader_grow_status source_wait(int64_t target_size, void *userdata) {
    return target_size <= ((iw_heif_file *)userdata)->size ? heif_reader_grow_status_size_reached
                                                          : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader source = {1, source_position, source_read, source_seek, source_wait};

/* Reads the file's boxes and items with libheif's own limits; decoding stays on the calling
   thread (ImageWall decodes several images at once). */
iw_heif_file *iw_heif_open(int descriptor, int64_t size, char *message, size_t message_size) {
    if (iw_heif_loaded(message, message_size)) return NULL;
    iw_heif_file *file = calloc(1, sizeof *file);
    if (file) file->context = iw_hf.heif_context_alloc();
    if (!file || !file->context) {
        free(file);
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    file->descriptor = descriptor;
    file->size = size;
    iw_hf.heif_context_set_max_decoding_threads(file->context, 0);
    struct heif_error error = iw_hf.heif_context_read_from_reader(file->context, &source, file, NULL);
    if (error.code != heif_error_Ok) {
        fail(error, message, message_size);
        iw_heif_close(file);
        return NULL;
    }
    return file;
}

void iw_heif_read_through(iw_heif_file *file, int descriptor) {
    file->descriptor = descriptor;
    free(file->window);
    file->window = NULL;
    file->window_length = 0;
}

void iw_heif_close(iw_heif_file *file) {
    if (!file) return;
    iw_hf.heif_context_free(file->context);
    free(file->window);
    free(file);
}

int iw_heif_probe(iw_heif_file *file, iw_heif_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    struct heif_context *context = file->context;
    struct heif_image_handle *handle = NULL;
    struct heif_error error = iw_hf.heif_context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) {
        fail(error, message, message_size);
        return 1;
    }
    info->width = iw_hf.heif_image_handle_get_width(handle);
    info->height = iw_hf.heif_image_handle_get_height(handle);
    info->has_alpha = iw_hf.heif_image_handle_has_alpha_channel(handle);
    info->premultiplied_alpha = iw_hf.heif_image_handle_is_premultiplied_alpha(handle);
    info->luma_bits = iw_hf.heif_image_handle_get_luma_bits_per_pixel(handle);
    info->chroma_bits = iw_hf.heif_image_handle_get_chroma_bits_per_pixel(handle);
    info->top_level_images = iw_hf.heif_context_get_number_of_top_level_images(context);
    info->icc_size = (int)iw_hf.heif_image_handle_get_raw_color_profile_size(handle);
    struct heif_color_profile_nclx *nclx = NULL;
    if (iw_hf.heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx) {
        info->has_nclx = 1;
        info->primaries = nclx->color_primaries;
        info->transfer = nclx->transfer_characteristics;
        info->matrix = nclx->matrix_coefficients;
        info->full_range = nclx->full_range_flag;
        iw_hf.heif_nclx_color_profile_free(nclx);
    }
    heif_item_id ids[4];
    int count = iw_hf.heif_image_handle_get_list_of_thumbnail_IDs(handle, ids, 4);
    for (int i = 0; i < count && info->thumbnails < 4; i++) {
        struct heif_image_handle *thumbnail = NULL;
        if (iw_hf.heif_image_handle_get_thumbnail(handle, ids[i], &thumbnail).code != heif_error_Ok) continue;
        info->thumbnail_width[info->thumbnails] = iw_hf.heif_image_handle_get_width(thumbnail);
        info->thumbnail_height[info->thumbnails] = iw_hf.heif_image_handle_get_height(thumbnail);
        info->thumbnails++;
        iw_hf.heif_image_handle_release(thumbnail);
    }
    heif_item_id exif_id;
    if (iw_hf.heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &exif_id, 1) == 1) {
        size_t size = iw_hf.heif_image_handle_get_metadata_size(handle, exif_id);
        uint8_t *data = size >= 4 && size <= (1 << 20) ? malloc(size) : NULL;
        if (data && iw_hf.heif_image_handle_get_metadata(handle, exif_id, data).code == heif_error_Ok) {
            /* The item starts with the offset of the TIFF header after these four bytes. */
            uint32_t offset = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
            if (offset <= size - 4) {
                info->exif_size = size - 4 - offset;
                info->exif = malloc(info->exif_size ? info->exif_size : 1);
                if (info->exif) memcpy(info->exif, data + 4 + offset, info->exif_size);
                else info->exif_size = 0;
            }
        }
        free(data);
    }
    iw_hf.heif_image_handle_release(handle);
    return 0;
}

void iw_heif_free_info(iw_heif_info *info) {
    free(info->exif);
    info->exif = NULL;
    info->exif_size = 0;
}

int iw_heif_sniff(const uint8_t *head, size_t size) {
    int length = size > 4096 ? 4096 : (int)size;
    if (length < 12) return 0;
    /* Every HEIF file starts with its ftyp box: other files never load libheif. */
    if (memcmp(head + 4, "ftyp", 4) != 0) return 0;
    if (iw_heif_loaded(NULL, 0)) {
        /* Without libheif, the brands that name HEIF and AVIF files, so that they are claimed and
           refused with the reason (reading them says libheif cannot be loaded). */
        static const char *const heif[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"};
        if (!memcmp(head + 8, "avif", 4) || !memcmp(head + 8, "avis", 4)) return 2;
        for (size_t i = 0; i < sizeof heif / sizeof *heif; i++)
            if (!memcmp(head + 8, heif[i], 4)) return 1;
        return 0;
    }
    enum heif_filetype_result kind = iw_hf.heif_check_filetype(head, length);
    if (kind != heif_filetype_yes_supported && kind != heif_filetype_yes_unsupported) return 0;
    heif_brand2 main = iw_hf.heif_read_main_brand(head, length);
    if (main == iw_hf.heif_fourcc_to_brand("avif") || main == iw_hf.heif_fourcc_to_brand("avis")) return 2;
    if (main == iw_hf.heif_fourcc_to_brand("mif1") || main == iw_hf.heif_fourcc_to_brand("msf1")) {
        if (iw_hf.heif_has_compatible_brand(head, length, "avif") || iw_hf.heif_has_compatible_brand(head, length, "avis")) return 2;
    }
    return 1;
}

int iw_heif_icc(iw_heif_file *file, uint8_t *buffer, size_t size, char *message, size_t message_size) {
    struct heif_image_handle *handle = NULL;
    struct heif_error error = iw_hf.heif_context_get_primary_image_handle(file->context, &handle);
    if (error.code == heif_error_Ok) {
        if (iw_hf.heif_image_handle_get_raw_color_profile_size(handle) != size) {
            snprintf(message, message_size, "ICC profile changed size");
            error.code = heif_error_Usage_error;
        } else {
            error = iw_hf.heif_image_handle_get_raw_color_profile(handle, buffer);
            if (error.code != heif_error_Ok) fail(error, message, message_size);
        }
        iw_hf.heif_image_handle_release(handle);
    } else {
        fail(error, message, message_size);
    }
    return error.code == heif_error_Ok ? 0 : 1;
}

typedef struct owner {
    uint8_t *icc;
    struct heif_image_handle *handle;
    struct heif_image_handle *thumbnail;
    struct heif_image *image;
    const uint8_t *planes[4];   /* one interleaved plane, or R, G, B and A */
    int strides[4];
    int planar, premultiplied;
} owner;

void iw_heif_release(iw_heif_decoded *decoded) {
    owner *o = decoded->owner;
    if (!o) return;
    if (o->image) iw_hf.heif_image_release(o->image);
    if (o->thumbnail) iw_hf.heif_image_handle_release(o->thumbnail);
    if (o->handle) iw_hf.heif_image_handle_release(o->handle);
    free(o->icc);
    free(o);
    decoded->owner = NULL;
}

/* Decodes `chosen` into o->image, as R, G, B (and A) planes or one interleaved plane, and
   points o->planes at them; none when a plane is missing, of another size or not 8 bits. */
static struct heif_error decode_planes(owner *o, struct heif_image_handle *chosen, int alpha, int planar) {
    if (o->image) iw_hf.heif_image_release(o->image);
    o->image = NULL;
    memset(o->planes, 0, sizeof o->planes);
    o->planar = planar;
    struct heif_decoding_options *options = iw_hf.heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;
    enum heif_chroma chroma = planar ? heif_chroma_444
                              : alpha ? heif_chroma_interleaved_RGBA
                                      : heif_chroma_interleaved_RGB;
    struct heif_error error = iw_hf.heif_decode_image(chosen, &o->image, heif_colorspace_RGB, chroma, options);
    iw_hf.heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) return error;
    static const enum heif_channel channels[4] = {heif_channel_R, heif_channel_G, heif_channel_B, heif_channel_Alpha};
    enum heif_channel first = planar ? channels[0] : heif_channel_interleaved;
    int width = iw_hf.heif_image_get_width(o->image, first), height = iw_hf.heif_image_get_height(o->image, first);
    int count = planar ? 3 + alpha : 1;
    for (int i = 0; i < count; i++) {
        enum heif_channel channel = planar ? channels[i] : heif_channel_interleaved;
        o->planes[i] = iw_hf.heif_image_get_plane_readonly(o->image, channel, &o->strides[i]);
        if (!o->planes[i] || iw_hf.heif_image_get_width(o->image, channel) != width ||
            iw_hf.heif_image_get_height(o->image, channel) != height ||
            iw_hf.heif_image_get_bits_per_pixel(o->image, channel) != (planar ? 8 : 8 * (3 + alpha))) {
            memset(o->planes, 0, sizeof o->planes);
            break;
        }
    }
    return error;
}

int iw_heif_decode(iw_heif_file *file, int min_width, int min_height, iw_heif_decoded *out,
                   char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    owner *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(message, message_size, "out of memory");
        return 1;
    }
    out->owner = o;
    struct heif_error error = iw_hf.heif_context_get_primary_image_handle(file->context, &o->handle);
    if (error.code != heif_error_Ok) {
        fail(error, message, message_size);
        iw_heif_release(out);
        return 1;
    }
    /* The colour is the primary image's, whichever image is decoded. */
    size_t icc_size = iw_hf.heif_image_handle_get_raw_color_profile_size(o->handle);
    if (icc_size > 0 && icc_size <= (16u << 20) && (o->icc = malloc(icc_size)) != NULL &&
        iw_hf.heif_image_handle_get_raw_color_profile(o->handle, o->icc).code == heif_error_Ok) {
        out->icc = o->icc;
        out->icc_size = icc_size;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (iw_hf.heif_image_handle_get_nclx_color_profile(o->handle, &nclx).code == heif_error_Ok && nclx) {
        out->has_nclx = 1;
        out->primaries = nclx->color_primaries;
        out->transfer = nclx->transfer_characteristics;
        iw_hf.heif_nclx_color_profile_free(nclx);
    }
    /* The smallest thumbnail that still covers the size asked for, as libvips chooses. */
    struct heif_image_handle *chosen = o->handle;
    if (min_width > 0 && min_height > 0) {
        heif_item_id ids[8];
        int count = iw_hf.heif_image_handle_get_list_of_thumbnail_IDs(o->handle, ids, 8);
        long best = -1;
        for (int i = 0; i < count; i++) {
            struct heif_image_handle *thumbnail = NULL;
            if (iw_hf.heif_image_handle_get_thumbnail(o->handle, ids[i], &thumbnail).code != heif_error_Ok) continue;
            int w = iw_hf.heif_image_handle_get_width(thumbnail), h = iw_hf.heif_image_handle_get_height(thumbnail);
            long area = (long)w * h;
            if (w >= min_width && h >= min_height && (best < 0 || area < best)) {
                if (o->thumbnail) iw_hf.heif_image_handle_release(o->thumbnail);
                o->thumbnail = thumbnail;
                best = area;
            } else {
                iw_hf.heif_image_handle_release(thumbnail);
            }
        }
        if (o->thumbnail) chosen = o->thumbnail;
    }
    int alpha = iw_hf.heif_image_handle_has_alpha_channel(chosen);
    /* 8 bits are kept in libheif's planes: it converts YCbCr (and assembles a grid's tiles) into
       R, G, B planes, so asking for interleaved pixels would copy the whole image once more (37 MB
       for 12 MP). Deeper images are brought to 8 bits by libheif's interleaving conversion. */
    int eight = iw_hf.heif_image_handle_get_luma_bits_per_pixel(chosen) == 8 &&
                iw_hf.heif_image_handle_get_chroma_bits_per_pixel(chosen) == 8;
    error = decode_planes(o, chosen, alpha, eight);
    if (error.code == heif_error_Ok && !o->planes[0] && eight) error = decode_planes(o, chosen, alpha, 0);
    if (error.code != heif_error_Ok || !o->planes[0]) {
        if (error.code != heif_error_Ok) fail(error, message, message_size);
        else snprintf(message, message_size, "libheif returned no pixels");
        iw_heif_release(out);
        return 1;
    }
    enum heif_channel first = o->planar ? heif_channel_R : heif_channel_interleaved;
    out->width = iw_hf.heif_image_get_width(o->image, first);
    out->height = iw_hf.heif_image_get_height(o->image, first);
    out->channels = alpha ? 4 : 3;
    /* libheif keeps premultiplied alpha as stored: rows are straightened as they are taken. */
    o->premultiplied = alpha && iw_hf.heif_image_handle_is_premultiplied_alpha(chosen);
    return 0;
}

const uint8_t *iw_heif_row(const iw_heif_decoded *decoded, int y, uint8_t *scratch) {
    const owner *o = decoded->owner;
    int width = decoded->width, channels = decoded->channels;
    const uint8_t *row;
    if (o->planar) {
        const uint8_t *planes[4] = {NULL, NULL, NULL, NULL};
        for (int c = 0; c < channels; c++) planes[c] = o->planes[c] + (size_t)y * o->strides[c];
        iw_interleave_row(IW_KERNEL_BEST, planes, (size_t)width, (size_t)channels, scratch);
        row = scratch;
    } else {
        row = o->planes[0] + (size_t)y * o->strides[0];
        if (!o->premultiplied) return row;
        memcpy(scratch, row, (size_t)width * channels);
        row = scratch;
    }
    if (o->premultiplied) {
        for (int x = 0; x < width; x++) {
            unsigned a = scratch[4 * x + 3];
            if (a == 0 || a == 255) continue;
            for (int c = 0; c < 3; c++) {
                unsigned v = (scratch[4 * x + c] * 255u + a / 2) / a;
                scratch[4 * x + c] = v > 255 ? 255 : (uint8_t)v;
            }
        }
    }
    return row;
}

int iw_heif_encode(const char *path, const uint8_t *pixels, int width, int height, int channels,
                   const iw_heif_encode_options *options, char *message, size_t message_size) {
    if (iw_heif_loaded(message, message_size)) return 1;
    struct heif_context *context = iw_hf.heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_encoding_options *encoding = NULL;
    struct heif_error error = iw_hf.heif_context_get_encoder_for_format(
        context, options->av1 ? heif_compression_AV1 : heif_compression_HEVC, &encoder);
    if (error.code != heif_error_Ok) goto done;
    if (options->fast) {
        /* Best effort: each encoder names its speed setting its own way. */
        iw_hf.heif_encoder_set_parameter(encoder, options->av1 ? "speed" : "preset", options->av1 ? "9" : "ultrafast");
    }
    if (options->lossless) {
        error = iw_hf.heif_encoder_set_lossless(encoder, 1);
    } else {
        error = iw_hf.heif_encoder_set_lossy_quality(encoder, options->quality);
    }
    if (error.code != heif_error_Ok) goto done;
    error = iw_hf.heif_image_create(width, height, heif_colorspace_RGB,
                              channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
    if (error.code != heif_error_Ok) goto done;
    error = iw_hf.heif_image_add_plane(image, heif_channel_interleaved, width, height, 8);
    if (error.code != heif_error_Ok) goto done;
    int stride = 0;
    uint8_t *plane = iw_hf.heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < height; y++) {
        memcpy(plane + (size_t)y * stride, pixels + (size_t)y * width * channels, (size_t)width * channels);
    }
    if (options->premultiplied && channels == 4) iw_hf.heif_image_set_premultiplied_alpha(image, 1);
    if (options->icc && options->icc_size) {
        error = iw_hf.heif_image_set_raw_color_profile(image, "prof", options->icc, options->icc_size);
        if (error.code != heif_error_Ok) goto done;
    }
    encoding = iw_hf.heif_encoding_options_alloc();
    struct heif_color_profile_nclx *nclx = NULL;
    if (options->nclx_primaries > 0 && (nclx = iw_hf.heif_nclx_color_profile_alloc()) != NULL) {
        nclx->color_primaries = (enum heif_color_primaries)options->nclx_primaries;
        nclx->transfer_characteristics = (enum heif_transfer_characteristics)options->nclx_transfer;
        nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
        nclx->full_range_flag = 1;
        encoding->output_nclx_profile = nclx;
        error = iw_hf.heif_image_set_nclx_color_profile(image, nclx);
        if (error.code != heif_error_Ok) goto done;
    }
    encoding->image_orientation = (enum heif_orientation)(options->orientation >= 1 && options->orientation <= 8 ? options->orientation : 1);
    struct heif_image_handle *handle = NULL;
    error = iw_hf.heif_context_encode_image(context, image, encoder, encoding, &handle);
    if (error.code != heif_error_Ok) goto done;
    if (options->thumbnail > 0) {
        error = iw_hf.heif_context_encode_thumbnail(context, image, handle, encoder, encoding, options->thumbnail, NULL);
        if (error.code != heif_error_Ok) {
            iw_hf.heif_image_handle_release(handle);
            goto done;
        }
    }
    iw_hf.heif_image_handle_release(handle);
    error = iw_hf.heif_context_write_to_file(context, path);
done:
    if (error.code != heif_error_Ok) fail(error, message, message_size);
    if (encoding) {
        if (encoding->output_nclx_profile) iw_hf.heif_nclx_color_profile_free(encoding->output_nclx_profile);
        iw_hf.heif_encoding_options_free(encoding);
    }
    if (image) iw_hf.heif_image_release(image);
    if (encoder) iw_hf.heif_encoder_release(encoder);
    iw_hf.heif_context_free(context);
    return error.code == heif_error_Ok ? 0 : 1;
}

const char *iw_heif_library_version(void) {
    return iw_heif_loaded(NULL, 0) ? "(not loaded)" : iw_hf.heif_get_version();
}

const char *iw_heif_header_version(void) { return LIBHEIF_VERSION; }
