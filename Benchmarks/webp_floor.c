/* The decoder's floor for `make bench`: CPU time libwebp alone spends decoding WebP files
 * scaled to WIDTH pixels wide (its own rescaler, as imagewall and libvips use it), the pixels
 * thrown away: no resampling, no sheet, no encoding.
 *   usage: webp_floor WIDTH FILE...   (prints seconds of CPU time) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <webp/decode.h>
#include "cpu_seconds.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: webp_floor WIDTH FILE...\n");
        return 2;
    }
    int width = atoi(argv[1]);
    double total = 0;
    for (int i = 2; i < argc; i++) {
        FILE *file = fopen(argv[i], "rb");
        if (!file) continue;
        fseek(file, 0, SEEK_END);
        long size = ftell(file);
        rewind(file);
        uint8_t *data = malloc(size);
        size_t got = fread(data, 1, size, file);
        fclose(file);
        WebPDecoderConfig config;
        WebPInitDecoderConfig(&config);
        if (WebPGetFeatures(data, got, &config.input) == VP8_STATUS_OK) {
            config.options.use_scaling = 1;
            config.options.scaled_width = width;
            config.options.scaled_height = (int)((long)width * config.input.height / config.input.width);
            config.output.colorspace = MODE_RGB;
            double start = cpu_seconds();
            WebPDecode(data, got, &config);
            total += cpu_seconds() - start;
            WebPFreeDecBuffer(&config.output);
        }
        free(data);
    }
    printf("%.2f\n", total);
    return 0;
}
