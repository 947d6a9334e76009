/* The decoder's floor for `make bench`: CPU time libjpeg alone spends decoding JPEG files at a
 * DCT scale of N/8, rows thrown away: no resampling, no sheet, no encoding.
 *   usage: jpeg_floor N FILE...   (prints seconds of CPU time) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <jpeglib.h>

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: jpeg_floor N FILE...\n");
        return 2;
    }
    int numerator = atoi(argv[1]);
    double start = cpu_seconds();
    for (int i = 2; i < argc; i++) {
        FILE *file = fopen(argv[i], "rb");
        if (!file) continue;
        struct jpeg_decompress_struct info;
        struct jpeg_error_mgr errors;
        info.err = jpeg_std_error(&errors);
        jpeg_create_decompress(&info);
        jpeg_stdio_src(&info, file);
        jpeg_read_header(&info, TRUE);
        info.scale_num = numerator;
        info.scale_denom = 8;
        jpeg_start_decompress(&info);
        JSAMPARRAY rows = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE,
                                                    info.output_width * info.output_components, 1);
        while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, rows, 1);
        jpeg_finish_decompress(&info);
        jpeg_destroy_decompress(&info);
        fclose(file);
    }
    printf("%.2f\n", cpu_seconds() - start);
    return 0;
}
