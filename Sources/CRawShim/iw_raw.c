#define _GNU_SOURCE
#include "iw_raw.h"

#include <libraw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

static void copy_text(char *to, size_t size, const char *from) {
    if (!size) return;
    snprintf(to, size, "%s", from ? from : "");
}

/* A file in memory holding `length` bytes, its offset at 0; -1 with errno on failure. */
static int memory_file(const void *bytes, size_t length) {
    int fd = memfd_create("imagewall-raw-preview", MFD_CLOEXEC);
    if (fd < 0) return -1;
    size_t written = 0;
    while (written < length) {
        ssize_t count = write(fd, (const char *)bytes + written, length - written);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            int saved = errno ? errno : EIO;
            close(fd);
            errno = saved;
            return -1;
        }
        written += (size_t)count;
    }
    if (lseek(fd, 0, SEEK_SET) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int iw_raw_open(const char *path, iw_raw_info *info, int *preview, size_t max_length, char *message,
                size_t message_size) {
    memset(info, 0, sizeof *info);
    if (preview) *preview = -1;
    libraw_data_t *raw = libraw_init(LIBRAW_OPIONS_NO_DATAERR_CALLBACK | LIBRAW_OPIONS_NO_MEMERR_CALLBACK);
    if (!raw) {
        copy_text(message, message_size, "out of memory");
        return LIBRAW_UNSUFFICIENT_MEMORY;
    }
    int status = libraw_open_file(raw, path);
    if (status != LIBRAW_SUCCESS) {
        copy_text(message, message_size, libraw_strerror(status));
        libraw_close(raw);
        return status;
    }
    info->width = raw->sizes.width;
    info->height = raw->sizes.height;
    info->flip = raw->sizes.flip;
    copy_text(info->make, sizeof info->make, raw->idata.make);
    copy_text(info->model, sizeof info->model, raw->idata.model);
    status = libraw_unpack_thumb(raw);
    if (status == LIBRAW_SUCCESS) {
        info->preview_format = raw->thumbnail.tformat;
        info->preview_width = raw->thumbnail.twidth;
        info->preview_height = raw->thumbnail.theight;
        info->preview_length = raw->thumbnail.tlength;
        if (preview && raw->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG && raw->thumbnail.thumb &&
            raw->thumbnail.tlength > 0 && raw->thumbnail.tlength <= max_length) {
            *preview = memory_file(raw->thumbnail.thumb, raw->thumbnail.tlength);
            if (*preview < 0) {
                copy_text(message, message_size, strerror(errno));
                libraw_close(raw);
                return LIBRAW_UNSUFFICIENT_MEMORY;
            }
        }
    } else {
        /* No preview, or one that cannot be read (past the end of the file): the file is still
           described; the caller says why nothing can be drawn. */
        copy_text(message, message_size, libraw_strerror(status));
        info->preview_status = status == LIBRAW_NO_THUMBNAIL ? IW_RAW_NO_PREVIEW
                               : status == LIBRAW_IO_ERROR   ? IW_RAW_PREVIEW_CUT
                                                             : IW_RAW_PREVIEW_UNREADABLE;
    }
    libraw_close(raw);
    return LIBRAW_SUCCESS;
}

const char *iw_raw_version(void) { return libraw_version(); }
