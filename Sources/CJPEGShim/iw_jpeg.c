#include "iw_jpeg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "iw_jpeg_source.h"

struct iw_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    char first_warning[JMSG_LENGTH_MAX];
    long warnings;
};

struct iw_jpeg_decoder {
    struct jpeg_decompress_struct info;
    struct iw_error_manager errors;
    struct jpeg_progress_mgr progress;
    int max_scans;
    int started;
    int buffered;
    struct iw_source source;
};

static void iw_error_exit(j_common_ptr info) {
    struct iw_error_manager *errors = (struct iw_error_manager *)info->err;
    int failure = errno;
    if (errors->message[0] == 0) {
        /* libjpeg's stdio destination guesses ("out of disk space?"); the system says why. */
        if (info->err->msg_code == JERR_FILE_WRITE && failure != 0)
            snprintf(errors->message, JMSG_LENGTH_MAX, "%s", strerror(failure));
        else
            (*info->err->format_message)(info, errors->message);
    }
    longjmp(errors->jump, 1);
}

static void iw_emit_message(j_common_ptr info, int level) {
    struct iw_error_manager *errors = (struct iw_error_manager *)info->err;
    if (level >= 0) return; /* trace messages */
    if (errors->warnings == 0) (*info->err->format_message)(info, errors->first_warning);
    errors->warnings += 1;
    info->err->num_warnings += 1;
}

static void iw_output_message(j_common_ptr info) { (void)info; }

static void iw_progress(j_common_ptr info) {
    struct iw_jpeg_decoder *decoder = (struct iw_jpeg_decoder *)info->client_data;
    if (decoder->max_scans > 0 && decoder->info.input_scan_number > decoder->max_scans) {
        snprintf(decoder->errors.message, sizeof decoder->errors.message,
                 "more than %d progressive scans; refusing to decode further",
                 decoder->max_scans);
        longjmp(decoder->errors.jump, 1);
    }
}

static void iw_install_errors(struct iw_error_manager *errors) {
    memset(errors, 0, sizeof *errors);
    jpeg_std_error(&errors->base);
    errors->base.error_exit = iw_error_exit;
    errors->base.emit_message = iw_emit_message;
    errors->base.output_message = iw_output_message;
}

iw_jpeg_decoder *iw_jpeg_decoder_create(FILE *file, int max_scans) {
    iw_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    iw_install_errors(&decoder->errors);
    decoder->info.err = &decoder->errors.base;
    decoder->max_scans = max_scans;
    if (setjmp(decoder->errors.jump)) {
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->info.client_data = decoder;
    decoder->progress.progress_monitor = iw_progress;
    decoder->info.progress = &decoder->progress;
    iw_source_attach(&decoder->source, file, &decoder->info);
    return decoder;
}

void iw_jpeg_decoder_destroy(iw_jpeg_decoder *decoder) {
    if (!decoder) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

int iw_jpeg_read_header(iw_jpeg_decoder *decoder, iw_jpeg_header *header) {
    if (setjmp(decoder->errors.jump)) return 1;
    jpeg_read_header(&decoder->info, TRUE);
    header->width = decoder->info.image_width;
    header->height = decoder->info.image_height;
    header->components = decoder->info.num_components;
    header->color_space = (int)decoder->info.jpeg_color_space;
    header->progressive = decoder->info.progressive_mode ? 1 : 0;
    header->adobe_marker = decoder->info.saw_Adobe_marker ? 1 : 0;
    return 0;
}

int iw_jpeg_start(iw_jpeg_decoder *decoder, unsigned scale_num, int dc_only,
                  uint32_t *width, uint32_t *height, int *channels) {
    if (setjmp(decoder->errors.jump)) return 1;
    struct jpeg_decompress_struct *info = &decoder->info;
    if (info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK)
        info->out_color_space = JCS_CMYK;
    else
        info->out_color_space = JCS_EXT_RGB;
    info->scale_num = scale_num;
    info->scale_denom = 8;
    info->dct_method = JDCT_ISLOW;
    if (dc_only && scale_num == 1 && info->progressive_mode) {
        info->buffered_image = TRUE;
        info->do_block_smoothing = FALSE;
        decoder->buffered = 1;
        jpeg_start_decompress(info);
        for (;;) {
            int complete = 1;
            /* coef_bits[c][0]: -1 before any DC scan, then the bits still missing. */
            for (int c = 0; c < info->num_components; c++)
                if (dc_only == 2 ? info->coef_bits[c][0] < 0 : info->coef_bits[c][0] != 0) complete = 0;
            if (complete) break;
            int status = jpeg_consume_input(info);
            if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
        }
        jpeg_start_output(info, info->input_scan_number);
    } else {
        jpeg_start_decompress(info);
    }
    decoder->started = 1;
    *width = info->output_width;
    *height = info->output_height;
    *channels = info->output_components;
    return 0;
}

int iw_jpeg_read_rows(iw_jpeg_decoder *decoder, uint8_t *dest, size_t stride,
                      uint32_t max_rows, uint32_t *rows_read) {
    *rows_read = 0;
    if (setjmp(decoder->errors.jump)) return 1;
    struct jpeg_decompress_struct *info = &decoder->info;
    while (*rows_read < max_rows && info->output_scanline < info->output_height) {
        JSAMPROW row = dest + (size_t)(*rows_read) * stride;
        JDIMENSION got = jpeg_read_scanlines(info, &row, 1);
        if (got == 0) break;
        *rows_read += got;
    }
    return 0;
}

int iw_jpeg_finish(iw_jpeg_decoder *decoder) {
    if (setjmp(decoder->errors.jump)) return 1;
    if (decoder->buffered) {
        /* The rest of the file is not needed: stop here. */
        jpeg_abort_decompress(&decoder->info);
    } else if (decoder->started && decoder->info.output_scanline >= decoder->info.output_height) {
        jpeg_finish_decompress(&decoder->info);
    } else {
        jpeg_abort_decompress(&decoder->info);
    }
    decoder->started = 0;
    return 0;
}

const char *iw_jpeg_message(const iw_jpeg_decoder *decoder) { return decoder->errors.message; }

long iw_jpeg_warning_count(const iw_jpeg_decoder *decoder) { return decoder->errors.warnings; }

const char *iw_jpeg_first_warning(const iw_jpeg_decoder *decoder) {
    return decoder->errors.first_warning;
}

struct iw_jpeg_encoder {
    struct jpeg_compress_struct info;
    struct iw_error_manager errors;
};

static int iw_start(struct iw_jpeg_encoder *encoder, FILE *file, const iw_jpeg_encode_options *options) {
    struct jpeg_compress_struct *info = &encoder->info;
    if (setjmp(encoder->errors.jump)) return 1;
    jpeg_stdio_dest(info, file);
    info->image_width = options->width;
    info->image_height = options->height;
    info->input_components = options->components;
    info->in_color_space = options->components == 1   ? JCS_GRAYSCALE
                           : options->components == 4 ? JCS_CMYK
                                                      : JCS_RGB;
    jpeg_set_defaults(info);
    if (options->components == 3 && options->keep_rgb) jpeg_set_colorspace(info, JCS_RGB);
    if (options->components == 4 && options->ycck) jpeg_set_colorspace(info, JCS_YCCK);
    jpeg_set_quality(info, options->quality, TRUE);
    info->optimize_coding = options->standard_tables ? FALSE : TRUE;
    if (info->jpeg_color_space == JCS_YCbCr || info->jpeg_color_space == JCS_YCCK) {
        info->comp_info[0].h_samp_factor = options->luma_h_sampling;
        info->comp_info[0].v_samp_factor = options->luma_v_sampling;
        for (int c = 1; c < info->num_components; c++) {
            info->comp_info[c].h_samp_factor = 1;
            info->comp_info[c].v_samp_factor = 1;
        }
        if (info->jpeg_color_space == JCS_YCCK) {
            info->comp_info[3].h_samp_factor = options->luma_h_sampling;
            info->comp_info[3].v_samp_factor = options->luma_v_sampling;
        }
    }
    if (options->app1) info->write_JFIF_header = FALSE;
    if (options->progressive) jpeg_simple_progression(info);
    jpeg_start_compress(info, TRUE);
    if (options->app1)
        jpeg_write_marker(info, JPEG_APP0 + 1, options->app1, (unsigned int)options->app1_size);
    if (options->icc)
        jpeg_write_icc_profile(info, options->icc, (unsigned int)options->icc_size);
    return 0;
}

iw_jpeg_encoder *iw_jpeg_encoder_start(FILE *file, const iw_jpeg_encode_options *options, char *message,
                                       size_t message_size) {
    struct iw_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    iw_install_errors(&encoder->errors);
    encoder->info.err = &encoder->errors.base;
    jpeg_create_compress(&encoder->info);
    if (iw_start(encoder, file, options) != 0) {
        snprintf(message, message_size, "%s", encoder->errors.message);
        iw_jpeg_encoder_destroy(encoder);
        return NULL;
    }
    return encoder;
}

int iw_jpeg_encoder_write_rows(iw_jpeg_encoder *encoder, const uint8_t *pixels, size_t stride, uint32_t count) {
    struct jpeg_compress_struct *info = &encoder->info;
    if (setjmp(encoder->errors.jump)) return 1;
    for (uint32_t y = 0; y < count && info->next_scanline < info->image_height; y++) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)y * stride);
        jpeg_write_scanlines(info, &row, 1);
    }
    return 0;
}

int iw_jpeg_encoder_finish(iw_jpeg_encoder *encoder) {
    if (setjmp(encoder->errors.jump)) return 1;
    if (encoder->info.next_scanline < encoder->info.image_height) {
        snprintf(encoder->errors.message, sizeof encoder->errors.message, "the image ended with rows missing");
        return 1;
    }
    jpeg_finish_compress(&encoder->info);
    return 0;
}

const char *iw_jpeg_encoder_message(const iw_jpeg_encoder *encoder) { return encoder->errors.message; }

void iw_jpeg_encoder_destroy(iw_jpeg_encoder *encoder) {
    if (!encoder) return;
    jpeg_destroy_compress(&encoder->info);
    free(encoder);
}

int iw_jpeg_encode(FILE *file, const iw_jpeg_encode_options *options, const uint8_t *pixels,
                   size_t stride, char *message, size_t message_size) {
    iw_jpeg_encoder *encoder = iw_jpeg_encoder_start(file, options, message, message_size);
    if (!encoder) return 1;
    int status = iw_jpeg_encoder_write_rows(encoder, pixels, stride, options->height) ||
                 iw_jpeg_encoder_finish(encoder);
    if (status != 0) snprintf(message, message_size, "%s", encoder->errors.message);
    iw_jpeg_encoder_destroy(encoder);
    return status;
}

int iw_jpeg_library_version(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
    return LIBJPEG_TURBO_VERSION_NUMBER;
#else
    return JPEG_LIB_VERSION;
#endif
}
