/* The decoder's floor for `make bench`: CPU time libheif alone spends decoding HEIF files to
 * 8-bit RGB (RGBA where the image has alpha): an 8-bit image in libheif's own R, G, B planes (a
 * grid is assembled in them: the least libheif can do), a deeper one interleaved at 8 bits.
 * libheif cannot shrink while decoding, so the primary image is decoded whole unless a stored
 * thumbnail is at least as large as a TILE px wide tile of its shape (the rule imagewall and
 * libvips follow); the pixels are thrown away: no resampling, no sheet, no encoding.
 *   usage: heif_floor [--threads T] TILE FILE...   (prints "cpu wall" seconds: see floor.h) */
#include <libheif/heif.h>
#include "floor.h"

static long tile;

static void decode(const char *path) {
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL, *chosen = NULL;
    if (heif_context_read_from_file(context, path, NULL).code == heif_error_Ok &&
        heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok) {
        long width = heif_image_handle_get_width(handle), height = heif_image_handle_get_height(handle);
        long tile_height = width > 0 ? (tile * height + width / 2) / width : 0;
        heif_item_id ids[8];
        int count = heif_image_handle_get_list_of_thumbnail_IDs(handle, ids, 8);
        long best = -1;
        for (int k = 0; k < count; k++) { /* the smallest thumbnail that covers the tile */
            struct heif_image_handle *thumbnail = NULL;
            if (heif_image_handle_get_thumbnail(handle, ids[k], &thumbnail).code != heif_error_Ok) continue;
            long w = heif_image_handle_get_width(thumbnail), h = heif_image_handle_get_height(thumbnail);
            if (w >= tile && h >= tile_height && (best < 0 || w * h < best)) {
                if (chosen) heif_image_handle_release(chosen);
                chosen = thumbnail;
                best = w * h;
            } else {
                heif_image_handle_release(thumbnail);
            }
        }
        struct heif_image_handle *decoded = chosen ? chosen : handle;
        int alpha = heif_image_handle_has_alpha_channel(decoded);
        int planar = heif_image_handle_get_luma_bits_per_pixel(decoded) == 8 &&
                     heif_image_handle_get_chroma_bits_per_pixel(decoded) == 8;
        struct heif_image *image = NULL;
        struct heif_decoding_options *options = heif_decoding_options_alloc();
        options->convert_hdr_to_8bit = 1;
        heif_decode_image(decoded, &image, heif_colorspace_RGB,
                          planar  ? heif_chroma_444
                          : alpha ? heif_chroma_interleaved_RGBA
                                  : heif_chroma_interleaved_RGB,
                          options);
        heif_decoding_options_free(options);
        if (image) heif_image_release(image);
        else floor_failed(path, "libheif cannot decode it");
        if (chosen) heif_image_handle_release(chosen);
        heif_image_handle_release(handle);
    } else {
        floor_failed(path, "libheif cannot read it");
    }
    heif_context_free(context);
}

int main(int argc, char **argv) {
    int threads = floor_threads(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: heif_floor [--threads T] TILE FILE...\n");
        return 2;
    }
    tile = atol(argv[1]);
    return floor_run(argv + 2, argc - 2, threads, decode);
}
