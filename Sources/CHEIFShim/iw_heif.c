#include "iw_heif.h"

#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(struct heif_error error, char *message, size_t size) {
    snprintf(message, size, "%s", error.message ? error.message : "libheif error");
    return 1;
}

/* A context holding `path`, read with libheif's own limits; decoding stays on the calling
   thread (ImageWall decodes several images at once). */
static struct heif_context *open_context(const char *path, char *message, size_t size) {
    struct heif_context *context = heif_context_alloc();
    if (!context) {
        snprintf(message, size, "out of memory");
        return NULL;
    }
    heif_context_set_max_decoding_threads(context, 0);
    struct heif_error error = heif_context_read_from_file(context, path, NULL);
    if (error.code != heif_error_Ok) {
        fail(error, message, size);
        heif_context_free(context);
        return NULL;
    }
    return context;
}

int iw_heif_probe(const char *path, iw_heif_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    struct heif_context *context = open_context(path, message, message_size);
    if (!context) return 1;
    struct heif_image_handle *handle = NULL;
    struct heif_error error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) {
        fail(error, message, message_size);  /* the message lives in the context */
        heif_context_free(context);
        return 1;
    }
    info->width = heif_image_handle_get_width(handle);
    info->height = heif_image_handle_get_height(handle);
    info->has_alpha = heif_image_handle_has_alpha_channel(handle);
    info->premultiplied_alpha = heif_image_handle_is_premultiplied_alpha(handle);
    info->luma_bits = heif_image_handle_get_luma_bits_per_pixel(handle);
    info->chroma_bits = heif_image_handle_get_chroma_bits_per_pixel(handle);
    info->top_level_images = heif_context_get_number_of_top_level_images(context);
    info->icc_size = (int)heif_image_handle_get_raw_color_profile_size(handle);
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx) {
        info->has_nclx = 1;
        info->primaries = nclx->color_primaries;
        info->transfer = nclx->transfer_characteristics;
        info->matrix = nclx->matrix_coefficients;
        info->full_range = nclx->full_range_flag;
        heif_nclx_color_profile_free(nclx);
    }
    heif_item_id ids[4];
    int count = heif_image_handle_get_list_of_thumbnail_IDs(handle, ids, 4);
    for (int i = 0; i < count && info->thumbnails < 4; i++) {
        struct heif_image_handle *thumbnail = NULL;
        if (heif_image_handle_get_thumbnail(handle, ids[i], &thumbnail).code != heif_error_Ok) continue;
        info->thumbnail_width[info->thumbnails] = heif_image_handle_get_width(thumbnail);
        info->thumbnail_height[info->thumbnails] = heif_image_handle_get_height(thumbnail);
        info->thumbnails++;
        heif_image_handle_release(thumbnail);
    }
    heif_item_id exif_id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &exif_id, 1) == 1) {
        size_t size = heif_image_handle_get_metadata_size(handle, exif_id);
        uint8_t *data = size >= 4 && size <= (1 << 20) ? malloc(size) : NULL;
        if (data && heif_image_handle_get_metadata(handle, exif_id, data).code == heif_error_Ok) {
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
    heif_image_handle_release(handle);
    heif_context_free(context);
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
    enum heif_filetype_result kind = heif_check_filetype(head, length);
    if (kind != heif_filetype_yes_supported && kind != heif_filetype_yes_unsupported) return 0;
    heif_brand2 main = heif_read_main_brand(head, length);
    if (main == heif_fourcc_to_brand("avif") || main == heif_fourcc_to_brand("avis")) return 2;
    if (main == heif_fourcc_to_brand("mif1") || main == heif_fourcc_to_brand("msf1")) {
        if (heif_has_compatible_brand(head, length, "avif") || heif_has_compatible_brand(head, length, "avis")) return 2;
    }
    return 1;
}

int iw_heif_icc(const char *path, uint8_t *buffer, size_t size, char *message, size_t message_size) {
    struct heif_context *context = open_context(path, message, message_size);
    if (!context) return 1;
    struct heif_image_handle *handle = NULL;
    struct heif_error error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code == heif_error_Ok) {
        if (heif_image_handle_get_raw_color_profile_size(handle) != size) {
            snprintf(message, message_size, "ICC profile changed size");
            error.code = heif_error_Usage_error;
        } else {
            error = heif_image_handle_get_raw_color_profile(handle, buffer);
            if (error.code != heif_error_Ok) fail(error, message, message_size);
        }
        heif_image_handle_release(handle);
    } else {
        fail(error, message, message_size);
    }
    heif_context_free(context);
    return error.code == heif_error_Ok ? 0 : 1;
}

typedef struct owner {
    uint8_t *icc;
    struct heif_context *context;
    struct heif_image_handle *handle;
    struct heif_image_handle *thumbnail;
    struct heif_image *image;
} owner;

void iw_heif_release(iw_heif_decoded *decoded) {
    owner *o = decoded->owner;
    if (!o) return;
    if (o->image) heif_image_release(o->image);
    if (o->thumbnail) heif_image_handle_release(o->thumbnail);
    if (o->handle) heif_image_handle_release(o->handle);
    if (o->context) heif_context_free(o->context);
    free(o->icc);
    free(o);
    decoded->owner = NULL;
    decoded->pixels = NULL;
}

int iw_heif_decode(const char *path, int min_width, int min_height, iw_heif_decoded *out,
                   char *message, size_t message_size) {
    memset(out, 0, sizeof *out);
    owner *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(message, message_size, "out of memory");
        return 1;
    }
    out->owner = o;
    o->context = open_context(path, message, message_size);
    if (!o->context) {
        iw_heif_release(out);
        return 1;
    }
    struct heif_error error = heif_context_get_primary_image_handle(o->context, &o->handle);
    if (error.code != heif_error_Ok) {
        fail(error, message, message_size);  /* before the context that holds the message goes */
        iw_heif_release(out);
        return 1;
    }
    /* The colour is the primary image's, whichever image is decoded. */
    size_t icc_size = heif_image_handle_get_raw_color_profile_size(o->handle);
    if (icc_size > 0 && icc_size <= (16u << 20) && (o->icc = malloc(icc_size)) != NULL &&
        heif_image_handle_get_raw_color_profile(o->handle, o->icc).code == heif_error_Ok) {
        out->icc = o->icc;
        out->icc_size = icc_size;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(o->handle, &nclx).code == heif_error_Ok && nclx) {
        out->has_nclx = 1;
        out->primaries = nclx->color_primaries;
        out->transfer = nclx->transfer_characteristics;
        heif_nclx_color_profile_free(nclx);
    }
    /* The smallest thumbnail that still covers the size asked for, as libvips chooses. */
    struct heif_image_handle *chosen = o->handle;
    if (min_width > 0 && min_height > 0) {
        heif_item_id ids[8];
        int count = heif_image_handle_get_list_of_thumbnail_IDs(o->handle, ids, 8);
        long best = -1;
        for (int i = 0; i < count; i++) {
            struct heif_image_handle *thumbnail = NULL;
            if (heif_image_handle_get_thumbnail(o->handle, ids[i], &thumbnail).code != heif_error_Ok) continue;
            int w = heif_image_handle_get_width(thumbnail), h = heif_image_handle_get_height(thumbnail);
            long area = (long)w * h;
            if (w >= min_width && h >= min_height && (best < 0 || area < best)) {
                if (o->thumbnail) heif_image_handle_release(o->thumbnail);
                o->thumbnail = thumbnail;
                best = area;
            } else {
                heif_image_handle_release(thumbnail);
            }
        }
        if (o->thumbnail) chosen = o->thumbnail;
    }
    int alpha = heif_image_handle_has_alpha_channel(chosen);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;
    error = heif_decode_image(chosen, &o->image, heif_colorspace_RGB,
                              alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        fail(error, message, message_size);  /* before the context that holds the message goes */
        iw_heif_release(out);
        return 1;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(o->image, heif_channel_interleaved, &stride);
    if (!plane) {
        snprintf(message, message_size, "libheif returned no pixels");
        iw_heif_release(out);
        return 1;
    }
    out->width = heif_image_get_width(o->image, heif_channel_interleaved);
    out->height = heif_image_get_height(o->image, heif_channel_interleaved);
    out->channels = alpha ? 4 : 3;
    out->stride = stride;
    out->pixels = plane;
    /* libheif keeps premultiplied alpha as stored: straighten it. */
    if (alpha && heif_image_handle_is_premultiplied_alpha(chosen)) {
        uint8_t *p = (uint8_t *)plane;
        for (int y = 0; y < out->height; y++) {
            uint8_t *row = p + (size_t)y * stride;
            for (int x = 0; x < out->width; x++) {
                unsigned a = row[4 * x + 3];
                if (a == 0 || a == 255) continue;
                for (int c = 0; c < 3; c++) {
                    unsigned v = (row[4 * x + c] * 255u + a / 2) / a;
                    row[4 * x + c] = v > 255 ? 255 : (uint8_t)v;
                }
            }
        }
    }
    return 0;
}

int iw_heif_encode(const char *path, const uint8_t *pixels, int width, int height, int channels,
                   const iw_heif_encode_options *options, char *message, size_t message_size) {
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_encoding_options *encoding = NULL;
    struct heif_error error = heif_context_get_encoder_for_format(
        context, options->av1 ? heif_compression_AV1 : heif_compression_HEVC, &encoder);
    if (error.code != heif_error_Ok) goto done;
    if (options->fast) {
        /* Best effort: each encoder names its speed setting its own way. */
        heif_encoder_set_parameter(encoder, options->av1 ? "speed" : "preset", options->av1 ? "9" : "ultrafast");
    }
    if (options->lossless) {
        error = heif_encoder_set_lossless(encoder, 1);
    } else {
        error = heif_encoder_set_lossy_quality(encoder, options->quality);
    }
    if (error.code != heif_error_Ok) goto done;
    error = heif_image_create(width, height, heif_colorspace_RGB,
                              channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
    if (error.code != heif_error_Ok) goto done;
    error = heif_image_add_plane(image, heif_channel_interleaved, width, height, 8);
    if (error.code != heif_error_Ok) goto done;
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < height; y++) {
        memcpy(plane + (size_t)y * stride, pixels + (size_t)y * width * channels, (size_t)width * channels);
    }
    if (options->icc && options->icc_size) {
        error = heif_image_set_raw_color_profile(image, "prof", options->icc, options->icc_size);
        if (error.code != heif_error_Ok) goto done;
    }
    encoding = heif_encoding_options_alloc();
    struct heif_color_profile_nclx *nclx = NULL;
    if (options->nclx_primaries > 0 && (nclx = heif_nclx_color_profile_alloc()) != NULL) {
        nclx->color_primaries = (enum heif_color_primaries)options->nclx_primaries;
        nclx->transfer_characteristics = (enum heif_transfer_characteristics)options->nclx_transfer;
        nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
        nclx->full_range_flag = 1;
        encoding->output_nclx_profile = nclx;
        error = heif_image_set_nclx_color_profile(image, nclx);
        if (error.code != heif_error_Ok) goto done;
    }
    encoding->image_orientation = (enum heif_orientation)(options->orientation >= 1 && options->orientation <= 8 ? options->orientation : 1);
    struct heif_image_handle *handle = NULL;
    error = heif_context_encode_image(context, image, encoder, encoding, &handle);
    if (error.code != heif_error_Ok) goto done;
    if (options->thumbnail > 0) {
        error = heif_context_encode_thumbnail(context, image, handle, encoder, encoding, options->thumbnail, NULL);
        if (error.code != heif_error_Ok) {
            heif_image_handle_release(handle);
            goto done;
        }
    }
    heif_image_handle_release(handle);
    error = heif_context_write_to_file(context, path);
done:
    if (error.code != heif_error_Ok) fail(error, message, message_size);
    if (encoding) {
        if (encoding->output_nclx_profile) heif_nclx_color_profile_free(encoding->output_nclx_profile);
        heif_encoding_options_free(encoding);
    }
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return error.code == heif_error_Ok ? 0 : 1;
}

const char *iw_heif_library_version(void) { return heif_get_version(); }
