/* The decoder's floor for `make bench`: CPU time libpng alone spends decoding PNG files in
 * full (no PNG decoder can shrink while decoding), expanded to 8 bits per sample, rows thrown away: no resampling, no sheet, no encoding.
 * Each file is read through a 256 KB stdio buffer its thread keeps, and zlib's Adler-32 is not
 * checked, as imagewall reads it.
 *   usage: png_floor [--threads T] FILE...   (prints "cpu wall" seconds: see floor.h) */
#include <png.h>
#include "floor.h"

static void quiet(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void failed(png_structp png, png_const_charp message) {
    floor_failed(png_get_error_ptr(png), message);
    png_longjmp(png, 1);
}

static void decode_file(FILE *file, const char *path) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, (png_voidp)path, failed, quiet);
    png_infop info = png_create_info_struct(png);
    png_bytep row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, &info, NULL);
        return;
    }
    png_init_io(png, file);
#if defined(PNG_IGNORE_ADLER32)
    /* As imagewall's decoder: each IDAT chunk's CRC-32 covers the compressed bytes, and zlib's
       Adler-32 of the inflated ones would be checked on top of it. */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, info);
    int color_type = png_get_color_type(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (png_get_bit_depth(png, info) == 16) png_set_scale_16(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    row = malloc(png_get_rowbytes(png, info));
    png_uint_32 height = png_get_image_height(png, info);
    for (int pass = 0; pass < passes; pass++)
        for (png_uint_32 y = 0; y < height; y++) png_read_row(png, row, NULL);
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
}

static void decode(const char *path) {
    static __thread char *buffer = NULL;
    FILE *file = fopen(path, "rb");
    if (!file) {
        floor_failed(path, "cannot be opened");
        return;
    }
    if (!buffer) buffer = malloc(256 << 10);
    if (buffer) setvbuf(file, buffer, _IOFBF, 256 << 10);
    decode_file(file, path);
    fclose(file);
}

int main(int argc, char **argv) {
    int threads = floor_threads(&argc, &argv);
    if (argc < 2) {
        fprintf(stderr, "usage: png_floor [--threads T] FILE...\n");
        return 2;
    }
    return floor_run(argv + 1, argc - 1, threads, decode);
}
