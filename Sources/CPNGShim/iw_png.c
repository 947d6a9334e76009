#include "iw_png.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <zlib.h>

#define IW_MESSAGE_LENGTH 256
#define IW_KEPT_WARNINGS 8

struct iw_png_messages {
    char message[IW_MESSAGE_LENGTH];
    char kept[IW_KEPT_WARNINGS][IW_MESSAGE_LENGTH]; /* the first distinct warnings */
    int kept_count;
    long warnings;
};

struct iw_png_decoder {
    png_structp png;
    png_infop info;
    struct iw_png_messages messages;
    iw_png_header header;
    int header_ready;
    uint8_t *dest;
    size_t stride;
    uint32_t rows_done;
    int current_pass;
    int finished;
    uint8_t *icc;
    size_t icc_size;
    iw_png_row_sink sink;
    void *sink_context;
};

struct iw_png_encoder {
    png_structp png;
    png_infop info;
    struct iw_png_messages messages;
    int passes;
};

static void iw_png_error(png_structp png, png_const_charp text) {
    struct iw_png_messages *messages = png_get_error_ptr(png);
    if (messages->message[0] == 0) snprintf(messages->message, IW_MESSAGE_LENGTH, "%s", text);
    png_longjmp(png, 1);
}

static void iw_png_warning(png_structp png, png_const_charp text) {
    struct iw_png_messages *messages = png_get_error_ptr(png);
    /* libpng only warns about a chunk that claims more memory than allowed, then allocates
       it anyway on some paths: treat it as the error it is. */
    if (strstr(text, "chunk data is too large") != NULL) {
        iw_png_error(png, text);
        return;
    }
    messages->warnings += 1;
    for (int i = 0; i < messages->kept_count; i++)
        if (strncmp(messages->kept[i], text, IW_MESSAGE_LENGTH - 1) == 0) return;
    if (messages->kept_count < IW_KEPT_WARNINGS)
        snprintf(messages->kept[messages->kept_count++], IW_MESSAGE_LENGTH, "%s", text);
}

static void iw_png_info_ready(png_structp png, png_infop info) {
    iw_png_decoder *decoder = png_get_progressive_ptr(png);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) ? 1 : 0;
    iw_png_header *header = &decoder->header;
    header->width = png_get_image_width(png, info);
    header->height = png_get_image_height(png, info);
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    header->has_trns = has_trns;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    header->channels = png_get_channels(png, info);
    png_charp icc_name;
    int icc_compression;
    png_bytep icc_data;
    png_uint_32 icc_length;
    if (png_get_iCCP(png, info, &icc_name, &icc_compression, &icc_data, &icc_length) &&
        icc_length > 0 && (decoder->icc = malloc(icc_length)) != NULL) {
        memcpy(decoder->icc, icc_data, icc_length);
        decoder->icc_size = icc_length;
    }
    decoder->header_ready = 1;
    png_process_data_pause(png, 1);
}

static void iw_png_row_ready(png_structp png, png_bytep row, png_uint_32 row_number, int pass) {
    iw_png_decoder *decoder = png_get_progressive_ptr(png);
    if (!decoder->dest && !decoder->sink) png_error(png, "no destination for decoded rows");
    if (row_number >= decoder->header.height) png_error(png, "row number out of range");
    decoder->current_pass = pass;
    if (decoder->sink) {
        if (decoder->header.interlaced) png_error(png, "a row sink needs a non-interlaced image");
        if (row) decoder->sink(decoder->sink_context, row, row_number);
        decoder->rows_done = row_number + 1;
        return;
    }
    if (row)
        png_progressive_combine_row(png, decoder->dest + (size_t)row_number * decoder->stride, row);
    if (!decoder->header.interlaced) decoder->rows_done = row_number + 1;
}

static void iw_png_end(png_structp png, png_infop info) {
    (void)info;
    iw_png_decoder *decoder = png_get_progressive_ptr(png);
    decoder->finished = 1;
    decoder->rows_done = decoder->header.height;
    decoder->current_pass = 7;
}

iw_png_decoder *iw_png_decoder_create(uint32_t max_width, uint32_t max_height) {
    iw_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->messages,
                                          iw_png_error, iw_png_warning);
    if (decoder->png) decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->png || !decoder->info) {
        png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
        free(decoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
        free(decoder);
        return NULL;
    }
    png_set_user_limits(decoder->png, max_width, max_height);
    png_set_chunk_cache_max(decoder->png, 1000);
    png_set_chunk_malloc_max(decoder->png, 8u * 1024u * 1024u);
#if defined(PNG_IGNORE_ADLER32)
    /* Every IDAT chunk's CRC-32 already covers the compressed bytes (a mismatch is an error);
     * zlib's Adler-32 over the inflated bytes repeats that check at 3% of the decode time. */
    png_set_option(decoder->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_set_progressive_read_fn(decoder->png, decoder, iw_png_info_ready, iw_png_row_ready,
                                iw_png_end);
    return decoder;
}

void iw_png_decoder_destroy(iw_png_decoder *decoder) {
    if (!decoder) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->icc);
    free(decoder);
}

const uint8_t *iw_png_icc_profile(const iw_png_decoder *decoder, size_t *size) {
    *size = decoder->icc_size;
    return decoder->icc;
}

int iw_png_feed(iw_png_decoder *decoder, const uint8_t *data, size_t size) {
    if (setjmp(png_jmpbuf(decoder->png))) return 1;
    png_process_data(decoder->png, decoder->info, (png_bytep)data, size);
    return 0;
}

int iw_png_header_ready(const iw_png_decoder *decoder) { return decoder->header_ready; }

void iw_png_get_header(const iw_png_decoder *decoder, iw_png_header *header) {
    *header = decoder->header;
}

void iw_png_set_destination(iw_png_decoder *decoder, uint8_t *dest, size_t stride) {
    decoder->dest = dest;
    decoder->stride = stride;
}

void iw_png_set_row_sink(iw_png_decoder *decoder, iw_png_row_sink sink, void *context) {
    decoder->sink = sink;
    decoder->sink_context = context;
}

uint32_t iw_png_rows_done(const iw_png_decoder *decoder) { return decoder->rows_done; }

int iw_png_passes_done(const iw_png_decoder *decoder) {
    return decoder->finished ? 7 : decoder->current_pass;
}

int iw_png_finished(const iw_png_decoder *decoder) { return decoder->finished; }

const char *iw_png_decoder_message(const iw_png_decoder *decoder) {
    return decoder->messages.message;
}

long iw_png_decoder_warning_count(const iw_png_decoder *decoder) {
    return decoder->messages.warnings;
}

int iw_png_decoder_kept_warnings(const iw_png_decoder *decoder) {
    return decoder->messages.kept_count;
}

const char *iw_png_decoder_warning(const iw_png_decoder *decoder, int index) {
    if (index < 0 || index >= decoder->messages.kept_count) return "";
    return decoder->messages.kept[index];
}

/* Writes libpng's bytes to its FILE, failing with the system's reason ("No space left on
   device") where libpng's own writer says only "Write Error". */
static void iw_png_write_data(png_structp png, png_bytep data, png_size_t length) {
    FILE *file = png_get_io_ptr(png);
    if (fwrite(data, 1, length, file) != length) png_error(png, strerror(errno ? errno : EIO));
}

static void iw_png_flush_data(png_structp png) {
    FILE *file = png_get_io_ptr(png);
    if (fflush(file) != 0) png_error(png, strerror(errno ? errno : EIO));
}

iw_png_encoder *iw_png_encoder_create(FILE *file) {
    iw_png_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) return NULL;
    encoder->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &encoder->messages,
                                           iw_png_error, iw_png_warning);
    if (encoder->png) encoder->info = png_create_info_struct(encoder->png);
    if (!encoder->png || !encoder->info) {
        png_destroy_write_struct(&encoder->png, &encoder->info);
        free(encoder);
        return NULL;
    }
    if (setjmp(png_jmpbuf(encoder->png))) {
        png_destroy_write_struct(&encoder->png, &encoder->info);
        free(encoder);
        return NULL;
    }
    png_set_write_fn(encoder->png, file, iw_png_write_data, iw_png_flush_data);
    /* libpng's default user limit is 1,000,000 px a side; PNG allows 2^31 - 1. */
    png_set_user_limits(encoder->png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    return encoder;
}

void iw_png_encoder_destroy(iw_png_encoder *encoder) {
    if (!encoder) return;
    png_destroy_write_struct(&encoder->png, &encoder->info);
    free(encoder);
}

int iw_png_write_header(iw_png_encoder *encoder, const iw_png_encode_options *options) {
    png_structp png = encoder->png;
    png_infop info = encoder->info;
    if (setjmp(png_jmpbuf(png))) return 1;
    png_set_IHDR(png, info, options->width, options->height, options->bit_depth,
                 options->color_type,
                 options->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, options->compression_level);
    if (options->run_length) png_set_compression_strategy(png, Z_RLE);
    if (options->filters >= 0 && options->filters <= 4) {
        /* libpng takes the filters allowed as a mask (PNG_FILTER_PAETH, …); given a filter's
           number instead (PNG_FILTER_VALUE_PAETH), libpng 1.6.39 writes every row unfiltered. */
        static const int masks[5] = {PNG_FILTER_NONE, PNG_FILTER_SUB, PNG_FILTER_UP, PNG_FILTER_AVG,
                                     PNG_FILTER_PAETH};
        png_set_filter(png, PNG_FILTER_TYPE_BASE, masks[options->filters]);
    }
    if (options->palette && options->palette_count > 0) {
        png_color colors[256];
        int count = options->palette_count > 256 ? 256 : options->palette_count;
        for (int i = 0; i < count; i++) {
            colors[i].red = options->palette[3 * i];
            colors[i].green = options->palette[3 * i + 1];
            colors[i].blue = options->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, count);
    }
    if (options->trns && options->trns_count > 0)
        png_set_tRNS(png, info, options->trns, options->trns_count, NULL);
    if (options->exif && options->exif_size > 0)
        png_set_eXIf_1(png, info, (png_uint_32)options->exif_size, (png_bytep)options->exif);
    if (options->icc && options->icc_size > 0)
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, options->icc,
                     (png_uint_32)options->icc_size);
    if (options->software) {
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_TEXT_COMPRESSION_NONE;
        text.key = "Software";
        text.text = (char *)options->software;
        png_set_text(png, info, &text, 1);
    }
    png_write_info(png, info);
    encoder->passes = options->interlaced ? png_set_interlace_handling(png) : 1;
    return 0;
}

int iw_png_write_rows(iw_png_encoder *encoder, const uint8_t *source, size_t stride,
                      uint32_t count) {
    if (setjmp(png_jmpbuf(encoder->png))) return 1;
    for (uint32_t row = 0; row < count; row++)
        png_write_row(encoder->png, source + (size_t)row * stride);
    return 0;
}

int iw_png_write_image(iw_png_encoder *encoder, const uint8_t *source, size_t stride) {
    if (setjmp(png_jmpbuf(encoder->png))) return 1;
    uint32_t height = png_get_image_height(encoder->png, encoder->info);
    for (int pass = 0; pass < encoder->passes; pass++)
        for (uint32_t row = 0; row < height; row++)
            png_write_row(encoder->png, source + (size_t)row * stride);
    return 0;
}

int iw_png_write_end(iw_png_encoder *encoder) {
    if (setjmp(png_jmpbuf(encoder->png))) return 1;
    png_write_end(encoder->png, NULL);
    return 0;
}

const char *iw_png_encoder_message(const iw_png_encoder *encoder) {
    return encoder->messages.message;
}

unsigned iw_png_library_version(void) { return png_access_version_number(); }
