/* The JPEG decoder's source of bytes, in a header of its own so that the bench's floor
   (Benchmarks/jpeg_floor.c) feeds libjpeg exactly as ImageWall does. */
#ifndef IW_JPEG_SOURCE_H
#define IW_JPEG_SOURCE_H
#include <stdio.h>

#include <jpeglib.h>
#include <jerror.h>

/* The file's bytes, 256 KB at a time. libjpeg's stdio source reads 4 KB at a time, and its
   Huffman decoder takes its fast path only while an MCU's worst case (512 bytes a block, 3 KB
   for 4:2:0) is in the buffer: after the first fourth of each 4 KB it is not (a 12 MP photo:
   5 % more instructions). Otherwise as that source: an empty file is an error, one that ends
   early is warned of and given an EOI marker. */
enum { source_size = 256 << 10 };

struct iw_source {
    struct jpeg_source_mgr base;
    FILE *file;
    int started;
    JOCTET buffer[source_size];
};

static void init_source(j_decompress_ptr info) { ((struct iw_source *)info->src)->started = 0; }

static boolean fill_source(j_decompress_ptr info) {
    struct iw_source *source = (struct iw_source *)info->src;
    size_t count = fread(source->buffer, 1, source_size, source->file);
    if (count == 0) {
        if (!source->started) ERREXIT(info, JERR_INPUT_EMPTY);
        WARNMS(info, JWRN_JPEG_EOF);
        source->buffer[0] = (JOCTET)0xFF;
        source->buffer[1] = (JOCTET)JPEG_EOI;
        count = 2;
    }
    source->base.next_input_byte = source->buffer;
    source->base.bytes_in_buffer = count;
    source->started = 1;
    return TRUE;
}

static void skip_source(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *source = info->src;
    if (count <= 0) return;
    while (count > (long)source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)(*source->fill_input_buffer)(info);
    }
    source->next_input_byte += count;
    source->bytes_in_buffer -= (size_t)count;
}

static void term_source(j_decompress_ptr info) { (void)info; }

/* `source` reading `file` for `info`, from the file's current position. A source used before
   starts empty: what an earlier file left after its EOI marker is not read as this file's. */
static void iw_source_attach(struct iw_source *source, FILE *file, j_decompress_ptr info) {
    source->file = file;
    source->base.next_input_byte = NULL;
    source->base.bytes_in_buffer = 0;
    source->base.init_source = init_source;
    source->base.fill_input_buffer = fill_source;
    source->base.skip_input_data = skip_source;
    source->base.resync_to_restart = jpeg_resync_to_restart;
    source->base.term_source = term_source;
    info->src = &source->base;
}
#endif
