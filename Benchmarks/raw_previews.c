/* For `make bench`: writes the largest embedded JPEG preview of each RAW file, as LibRaw finds
 * it, to DEST/NAME.jpg, so that the decoder's floor (libjpeg alone decoding the same previews)
 * can be measured beside ImageWall drawing the RAW files. Files without a JPEG preview are
 * left out.
 *   usage: raw_previews DEST FILE...   (prints the previews written, one a line) */
#include <libraw.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: raw_previews DEST FILE...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        libraw_data_t *raw = libraw_init(0);
        if (!raw) return 1;
        if (libraw_open_file(raw, argv[i]) == LIBRAW_SUCCESS && libraw_unpack_thumb(raw) == LIBRAW_SUCCESS &&
            raw->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG) {
            const char *name = strrchr(argv[i], '/');
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.jpg", argv[1], name ? name + 1 : argv[i]);
            FILE *out = fopen(path, "wb");
            if (out && fwrite(raw->thumbnail.thumb, 1, raw->thumbnail.tlength, out) == raw->thumbnail.tlength)
                printf("%s\n", path);
            if (out) fclose(out);
        }
        libraw_close(raw);
    }
    return 0;
}
