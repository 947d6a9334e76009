/* The decoder's floor for `make bench`: CPU time libwebp alone spends decoding WebP files
 * scaled to WIDTH pixels wide (its own rescaler, as imagewall and libvips use it), the pixels
 * thrown away: no resampling, no sheet, no encoding.
 *   usage: webp_floor [--threads T] WIDTH FILE...   (prints "cpu wall" seconds: see floor.h) */
#include <webp/decode.h>
#include "floor.h"

static int width;

static void decode(const char *path) {
    size_t got;
    const uint8_t *data = floor_read(path, &got);
    if (!data) {
        floor_failed(path, "cannot be read");
        return;
    }
    WebPDecoderConfig config;
    WebPInitDecoderConfig(&config);
    if (WebPGetFeatures(data, got, &config.input) == VP8_STATUS_OK && config.input.width > 0) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = (int)((long)width * config.input.height / config.input.width);
        config.output.colorspace = MODE_RGB;
        if (WebPDecode(data, got, &config) != VP8_STATUS_OK) floor_failed(path, "libwebp cannot decode it");
        WebPFreeDecBuffer(&config.output);
    } else {
        floor_failed(path, "not a WebP file libwebp reads");
    }
}

int main(int argc, char **argv) {
    int threads = floor_threads(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: webp_floor [--threads T] WIDTH FILE...\n");
        return 2;
    }
    width = atoi(argv[1]);
    return floor_run(argv + 2, argc - 2, threads, decode);
}
