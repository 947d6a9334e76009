/* The decoder's floor for `make bench`: CPU time libjpeg alone spends decoding JPEG files at a
 * DCT scale of N/8, rows thrown away: no resampling, no sheet, no encoding. With `--tile W`,
 * each file at the smallest scale that keeps both sides at least twice those of a W px wide
 * tile of its shape as shown (EXIF orientation 5-8 turns it), the rule imagewall and libvips
 * follow. Each file is given to libjpeg by imagewall's own source (iw_jpeg_source.h), 256 KB at
 * a time from a buffer each thread keeps: its Huffman decoder then nearly always has the bytes
 * its fast path needs (libjpeg's stdio source reads 4 KB at a time), and the buffer stays in the
 * core's cache. Reading each file whole into memory first took 4-5 % longer on the 12 MP photos
 * (both cores).
 *   usage: jpeg_floor [--threads T] N FILE...  |  jpeg_floor [--threads T] --tile W FILE...
 *   (prints "cpu wall" seconds: see floor.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include "floor.h"
#include "../Sources/CJPEGShim/iw_jpeg_source.h"

/* Whether the file's EXIF orientation (APP1, IFD0 tag 0x0112) is 5-8: shown turned a quarter. */
static int turned(j_decompress_ptr info) {
    for (jpeg_saved_marker_ptr m = info->marker_list; m; m = m->next) {
        const unsigned char *d = m->data;
        unsigned n = m->data_length;
        if (m->marker != JPEG_APP0 + 1 || n < 14 || memcmp(d, "Exif\0\0", 6) != 0) continue;
        d += 6, n -= 6;
        int le = d[0] == 'I';
#define U16(p) (le ? (p)[0] | (p)[1] << 8 : (p)[0] << 8 | (p)[1])
#define U32(p) (le ? (unsigned)U16(p) | (unsigned)U16((p) + 2) << 16 : (unsigned)U16(p) << 16 | U16((p) + 2))
        unsigned ifd = U32(d + 4);
        if (ifd + 2 > n) return 0;
        unsigned count = U16(d + ifd);
        for (unsigned k = 0; k < count && ifd + 2 + 12 * k + 12 <= n; k++) {
            const unsigned char *e = d + ifd + 2 + 12 * k;
            if (U16(e) == 0x0112) return U16(e + 8) >= 5 && U16(e + 8) <= 8;
        }
        return 0;
    }
    return 0;
}

/* The numerator over 8 that keeps `width` x `height` at least twice a `tile` px wide tile. */
static int numerator_for_tile(long width, long height, long tile, int quarter_turned) {
    long tile_height = quarter_turned ? (tile * width + height / 2) / height : (tile * height + width / 2) / width;
    if (quarter_turned) {
        long swap = tile;
        tile = tile_height;
        tile_height = swap;
    }
    for (int numerator = 1; numerator < 8; numerator *= 2) {
        long denominator = 8 / numerator;
        long scaled_width = (width + denominator - 1) / denominator;
        long scaled_height = (height + denominator - 1) / denominator;
        if (scaled_width >= 2 * tile && scaled_height >= 2 * tile_height) return numerator;
    }
    return 8;
}

static int tile = 0, numerator = 8;
static __thread const char *decoding;

/* A file libjpeg cannot decode ends the run: the floor would read low without it. */
static void fail(j_common_ptr info) {
    char message[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, message);
    floor_failed(decoding, message);
    exit(1);
}

static void decode(const char *path) {
    static __thread struct iw_source *source = NULL;
    if (!source && !(source = malloc(sizeof *source))) {
        floor_failed(path, "out of memory");
        return;
    }
    FILE *file = fopen(path, "rb");
    if (!file) {
        floor_failed(path, "cannot be opened");
        return;
    }
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    info.err = jpeg_std_error(&errors);
    errors.error_exit = fail;
    decoding = path;
    jpeg_create_decompress(&info);
    iw_source_attach(source, file, &info);
    jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&info, TRUE);
    info.scale_num = tile ? numerator_for_tile(info.image_width, info.image_height, tile, turned(&info)) : numerator;
    info.scale_denom = 8;
    jpeg_start_decompress(&info);
    JSAMPARRAY rows = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE,
                                                info.output_width * info.output_components, 1);
    while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, rows, 1);
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    fclose(file);
}

int main(int argc, char **argv) {
    int threads = floor_threads(&argc, &argv), first = 2;
    if (argc >= 4 && strcmp(argv[1], "--tile") == 0) {
        tile = atoi(argv[2]);
        first = 3;
    } else if (argc >= 3) {
        numerator = atoi(argv[1]);
    } else {
        fprintf(stderr, "usage: jpeg_floor [--threads T] N FILE... | jpeg_floor [--threads T] --tile W FILE...\n");
        return 2;
    }
    return floor_run(argv + first, argc - first, threads, decode);
}
