#include "iw_raw.h"
#include "iw_raw_internal.h"

#include <libraw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static void copy_text(char *to, size_t size, const char *from) {
    if (!size) return;
    snprintf(to, size, "%s", from ? from : "");
}

/* Whether the `length` bytes at `offset` of the file at `path` are `bytes`. */
static int file_holds(const char *path, long long offset, const unsigned char *bytes, size_t length) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    unsigned char block[65536];
    int same = 1;
    for (size_t done = 0; same && done < length;) {
        size_t want = length - done < sizeof block ? length - done : sizeof block;
        ssize_t got = pread(fd, block, want, (off_t)(offset + (long long)done));
        if (got < 0 && errno == EINTR) continue;
        same = got > 0 && memcmp(block, bytes + done, (size_t)got) == 0;
        if (got > 0) done += (size_t)got;
    }
    close(fd);
    return same;
}

int iw_raw_open(const char *path, iw_raw_info *info, iw_raw_file **file, const unsigned char **preview,
                size_t max_length, int locate_preview, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    info->preview_offset = -1;
    *file = NULL;
    if (preview) *preview = NULL;
    libraw_data_t *raw = libraw_init(LIBRAW_OPIONS_NO_DATAERR_CALLBACK | LIBRAW_OPIONS_NO_MEMERR_CALLBACK);
    if (!raw) {
        copy_text(message, message_size, "out of memory");
        return LIBRAW_UNSUFFICIENT_MEMORY;
    }
    int status = libraw_open_file_ex(raw, path, 0);
    if (status != LIBRAW_SUCCESS) {
        copy_text(message, message_size, libraw_strerror(status));
        libraw_close(raw);
        return status;
    }
    info->width = raw->sizes.width;
    info->height = raw->sizes.height;
    info->raw_width = raw->sizes.raw_width;
    info->raw_height = raw->sizes.raw_height;
    info->flip = raw->sizes.flip;
    copy_text(info->make, sizeof info->make, raw->idata.make);
    copy_text(info->model, sizeof info->model, raw->idata.model);
    copy_text(info->lens, sizeof info->lens, raw->lens.Lens);
    info->iso = raw->other.iso_speed;
    info->shutter = raw->other.shutter;
    info->aperture = raw->other.aperture;
    info->focal_length = raw->other.focal_len;
    info->timestamp = (long long)raw->other.timestamp;
    status = libraw_unpack_thumb(raw);
    if (status == LIBRAW_SUCCESS) {
        info->preview_format = raw->thumbnail.tformat;
        info->preview_width = raw->thumbnail.twidth;
        info->preview_height = raw->thumbnail.theight;
        info->preview_length = raw->thumbnail.tlength;
        info->preview_colors = raw->thumbnail.tcolors;
        /* A bitmap: 8-bit grey or RGB rows, as many bytes as its size says. */
        int bitmap = raw->thumbnail.tformat == LIBRAW_THUMBNAIL_BITMAP &&
                     (raw->thumbnail.tcolors == 1 || raw->thumbnail.tcolors == 3) &&
                     (size_t)raw->thumbnail.tlength ==
                         (size_t)raw->thumbnail.twidth * raw->thumbnail.theight * raw->thumbnail.tcolors;
        int held = raw->thumbnail.thumb && raw->thumbnail.tlength > 0 && raw->thumbnail.tlength <= max_length;
        if (preview && held && (raw->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG || bitmap))
            *preview = (const unsigned char *)raw->thumbnail.thumb;
        /* LibRaw reads most JPEG previews as they lie in the file, but it assembles or mends
           some: only a preview the file holds unchanged is said to lie there. */
        if (locate_preview && held && raw->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG) {
            long long offset = iw_raw_preview_offset(raw);
            if (offset > 0 && file_holds(path, offset, (const unsigned char *)raw->thumbnail.thumb,
                                         raw->thumbnail.tlength))
                info->preview_offset = offset;
        }
    } else {
        /* No preview, or one that cannot be read (past the end of the file): the file is still
           described; the caller says why nothing can be drawn. */
        copy_text(message, message_size, libraw_strerror(status));
        info->preview_status = status == LIBRAW_NO_THUMBNAIL ? IW_RAW_NO_PREVIEW
                               : status == LIBRAW_IO_ERROR   ? IW_RAW_PREVIEW_CUT
                                                             : IW_RAW_PREVIEW_UNREADABLE;
    }
    /* The size LibRaw develops the image at (a Fuji SuperCCD's turned upright, a sensor of other
       than square cells stretched), turned back to before `flip`; last, for it changes the
       sizes it works from. */
    if (libraw_adjust_sizes_info_only(raw) == LIBRAW_SUCCESS) {
        int turned = info->flip & 4;
        info->output_width = turned ? raw->sizes.iheight : raw->sizes.iwidth;
        info->output_height = turned ? raw->sizes.iwidth : raw->sizes.iheight;
    }
    *file = (iw_raw_file *)raw;
    return LIBRAW_SUCCESS;
}

void iw_raw_close(iw_raw_file *file) {
    if (file) libraw_close((libraw_data_t *)file);
}

/* Where LibRaw first met damaged or missing sensor data: -1 at the end of the file. */
typedef struct {
    int failed;
    int offset;
} data_errors;

static void note_data_error(void *context, const char *file, const int offset) {
    (void)file;
    data_errors *errors = context;
    if (!errors->failed) {
        errors->failed = 1;
        errors->offset = offset;
    }
}

int iw_raw_develop(const char *path, double min_bits_per_pixel, long long max_pixels, unsigned char **pixels,
                   int *width, int *height, char *message, size_t message_size) {
    *pixels = NULL;
    *width = *height = 0;
    struct stat file;
    if (stat(path, &file) != 0) {
        copy_text(message, message_size, strerror(errno));
        return LIBRAW_IO_ERROR;
    }
    long long file_size = (long long)file.st_size;
    libraw_data_t *raw = libraw_init(LIBRAW_OPIONS_NO_DATAERR_CALLBACK | LIBRAW_OPIONS_NO_MEMERR_CALLBACK);
    if (!raw) {
        copy_text(message, message_size, "out of memory");
        return LIBRAW_UNSUFFICIENT_MEMORY;
    }
    data_errors errors = {0, 0};
    libraw_set_dataerror_handler(raw, note_data_error, &errors);
    int status = libraw_open_file_ex(raw, path, 0);
    if (status != LIBRAW_SUCCESS) {
        copy_text(message, message_size, libraw_strerror(status));
        libraw_close(raw);
        return status;
    }
    long long cells = (long long)raw->sizes.raw_width * raw->sizes.raw_height;
    if (cells <= 0 || cells > max_pixels) {
        snprintf(message, message_size, "its sensor claims %dx%d cells", raw->sizes.raw_width, raw->sizes.raw_height);
        libraw_close(raw);
        return LIBRAW_DATA_ERROR;
    }
    if ((double)file_size * 8 / (double)cells < min_bits_per_pixel) {
        snprintf(message, message_size, "the file is too small to hold its %dx%d sensor's data (cut or stripped)",
                 raw->sizes.raw_width, raw->sizes.raw_height);
        libraw_close(raw);
        return LIBRAW_DATA_ERROR;
    }
    raw->params.half_size = 1;
    raw->params.output_bps = 8;
    raw->params.use_camera_wb = 1;
    raw->params.output_color = 1; /* sRGB */
    raw->params.user_flip = 0;
    status = libraw_unpack(raw);
    if (status == LIBRAW_SUCCESS && errors.failed) status = LIBRAW_DATA_ERROR;
    if (status == LIBRAW_SUCCESS) status = libraw_dcraw_process(raw);
    if (status == LIBRAW_SUCCESS && errors.failed) status = LIBRAW_DATA_ERROR;
    if (status != LIBRAW_SUCCESS) {
        if (errors.failed && errors.offset < 0)
            copy_text(message, message_size, "its sensor data ends before the file says (cut short)");
        else if (errors.failed)
            snprintf(message, message_size, "its sensor data is damaged at byte %d", errors.offset);
        else
            copy_text(message, message_size, libraw_strerror(status));
        libraw_close(raw);
        return status;
    }
    int made = 0;
    libraw_processed_image_t *image = libraw_dcraw_make_mem_image(raw, &made);
    if (!image || made != LIBRAW_SUCCESS || image->type != LIBRAW_IMAGE_BITMAP || image->bits != 8 ||
        image->colors != 3) {
        copy_text(message, message_size, image ? "LibRaw made an image of another kind" : libraw_strerror(made));
        if (image) libraw_dcraw_clear_mem(image);
        libraw_close(raw);
        return made != LIBRAW_SUCCESS ? made : LIBRAW_DATA_ERROR;
    }
    size_t bytes = (size_t)image->width * image->height * 3;
    *pixels = malloc(bytes);
    if (!*pixels) {
        libraw_dcraw_clear_mem(image);
        libraw_close(raw);
        copy_text(message, message_size, "out of memory");
        return LIBRAW_UNSUFFICIENT_MEMORY;
    }
    memcpy(*pixels, image->data, bytes);
    *width = image->width;
    *height = image->height;
    libraw_dcraw_clear_mem(image);
    libraw_close(raw);
    return LIBRAW_SUCCESS;
}

const char *iw_raw_version(void) { return libraw_version(); }
