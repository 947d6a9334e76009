#include "iw_tiff.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

struct iw_tiff {
    TIFF *tif;
    char message[512];
};

struct iw_tiff_reader {
    iw_tiff *tiff;
    TIFFRGBAImage image;
    int raw;
    uint32_t width, height;
    uint16_t samples, bits;
    int tiled;
    uint32_t tile_width, tile_height;
    uint8_t *buffer;        /* a tile (raw reading) */
    uint32_t *raster;       /* a band (RGBA reading) */
    uint32_t raster_rows;
};

static int on_error(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    iw_tiff *tiff = user;
    if (tiff && tiff->message[0] == 0) {
        char text[400];
        vsnprintf(text, sizeof text, format, args);
        snprintf(tiff->message, sizeof tiff->message, "%s%s%s", module ? module : "", module ? ": " : "", text);
    }
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif; (void)user; (void)module; (void)format; (void)args;
    return 1;  /* unknown tags and the like: nothing a picture loses */
}

static void quiet_globals(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

iw_tiff *iw_tiff_open(const char *path, size_t max_alloc, char *message, size_t message_size) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, quiet_globals);
    iw_tiff *tiff = calloc(1, sizeof *tiff);
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!tiff || !options) {
        free(tiff);
        if (options) TIFFOpenOptionsFree(options);
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_alloc);
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, tiff);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, tiff);
    /* "O": strip and tile offsets are read when needed, so a file claiming millions of
       strips costs nothing to open. */
    tiff->tif = TIFFOpenExt(path, "rO", options);
    TIFFOpenOptionsFree(options);
    if (!tiff->tif) {
        snprintf(message, message_size, "%s", tiff->message[0] ? tiff->message : "not a readable TIFF file");
        free(tiff);
        return NULL;
    }
    return tiff;
}

void iw_tiff_close(iw_tiff *tiff) {
    if (!tiff) return;
    TIFFClose(tiff->tif);
    free(tiff);
}

const char *iw_tiff_message(const iw_tiff *tiff) { return tiff->message; }
void iw_tiff_clear_message(iw_tiff *tiff) { tiff->message[0] = 0; }

int iw_tiff_directory_info(iw_tiff *tiff, iw_tiff_directory *d) {
    TIFF *tif = tiff->tif;
    memset(d, 0, sizeof *d);
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &d->width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &d->height)) {
        if (!tiff->message[0]) snprintf(tiff->message, sizeof tiff->message, "no image size in the directory");
        return 1;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &d->bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &d->samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &d->sample_format);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &d->photometric)) d->photometric = 0xFFFF;
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &d->compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &d->planar);
    if (!TIFFGetField(tif, TIFFTAG_ORIENTATION, &d->orientation)) d->orientation = 1;
    TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &d->inkset);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &d->subfile_type);
    uint16_t extra = 0;
    uint16_t *kinds = NULL;
    if (TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &extra, &kinds) && extra > 0 && kinds) {
        if (kinds[0] == EXTRASAMPLE_ASSOCALPHA) d->alpha = 1;
        else if (kinds[0] == EXTRASAMPLE_UNASSALPHA) d->alpha = 2;
        else if (kinds[0] == EXTRASAMPLE_UNSPECIFIED && (d->samples == 2 || d->samples == 4) &&
                 d->photometric != PHOTOMETRIC_SEPARATED) d->alpha = 2;  /* as libtiff reads it */
    }
    d->tiled = TIFFIsTiled(tif);
    if (d->tiled) {
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &d->band_rows);
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &d->band_rows);
    }
    if (d->band_rows == 0 || d->band_rows > d->height) d->band_rows = d->height;
    void *icc = NULL;
    uint32_t icc_size = 0;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_size, &icc) && icc) d->icc_size = icc_size;
    char *datetime = NULL;
    if (TIFFGetField(tif, TIFFTAG_DATETIME, &datetime) && datetime && strlen(datetime) == 19)
        memcpy(d->datetime, datetime, 19);
    char reason[1024] = {0};
    d->readable = TIFFRGBAImageOK(tif, reason);
    snprintf(d->reason, sizeof d->reason, "%s", reason);
    return 0;
}

int iw_tiff_next_directory(iw_tiff *tiff) { return TIFFReadDirectory(tiff->tif) ? 0 : 1; }

int iw_tiff_set_directory(iw_tiff *tiff, int index) { return TIFFSetDirectory(tiff->tif, (tdir_t)index) ? 0 : 1; }

int iw_tiff_icc(iw_tiff *tiff, const uint8_t **profile, uint32_t *size) {
    void *data = NULL;
    uint32_t count = 0;
    if (!TIFFGetField(tiff->tif, TIFFTAG_ICCPROFILE, &count, &data) || !data || count == 0) return 1;
    *profile = data;
    *size = count;
    return 0;
}

iw_tiff_reader *iw_tiff_begin(iw_tiff *tiff, int raw, char *message, size_t message_size) {
    iw_tiff_reader *reader = calloc(1, sizeof *reader);
    if (!reader) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    reader->tiff = tiff;
    reader->raw = raw;
    TIFF *tif = tiff->tif;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &reader->width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &reader->height);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &reader->samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &reader->bits);
    reader->tiled = TIFFIsTiled(tif);
    if (raw) {
        if ((reader->bits != 8 && reader->bits != 16) || reader->samples < 1) {
            snprintf(message, message_size, "unsupported TIFF: %u-bit samples", reader->bits);
            free(reader);
            return NULL;
        }
        if (reader->tiled) {
            TIFFGetField(tif, TIFFTAG_TILEWIDTH, &reader->tile_width);
            TIFFGetField(tif, TIFFTAG_TILELENGTH, &reader->tile_height);
            reader->buffer = _TIFFmalloc(TIFFTileSize(tif));
        } else {
            reader->buffer = _TIFFmalloc(TIFFScanlineSize(tif));
        }
        if (!reader->buffer) {
            snprintf(message, message_size, "%s", tiff->message[0] ? tiff->message : "out of memory");
            free(reader);
            return NULL;
        }
        return reader;
    }
    char reason[1024] = {0};
    if (!TIFFRGBAImageBegin(&reader->image, tif, 0, reason)) {
        snprintf(message, message_size, "%s", reason[0] ? reason : tiff->message);
        free(reader);
        return NULL;
    }
    /* Rows come as stored: ImageWall applies the Orientation tag itself, all eight of them. */
    reader->image.req_orientation = ORIENTATION_TOPLEFT;
    reader->image.orientation = ORIENTATION_TOPLEFT;
    return reader;
}

/* Copies the first four samples of `count` pixels to 4-byte pixels. */
static void copy_samples(const iw_tiff_reader *r, const uint8_t *from, uint8_t *to, uint32_t count) {
    int kept = r->samples < 4 ? r->samples : 4;
    for (uint32_t x = 0; x < count; x++) {
        for (int c = 0; c < 4; c++) {
            uint8_t v = 0;
            if (c < kept) {
                v = r->bits == 16 ? (uint8_t)(((const uint16_t *)(const void *)from)[(size_t)x * r->samples + c] >> 8)
                                  : from[(size_t)x * r->samples + c];
            }
            to[4 * x + c] = v;
        }
    }
}

static int read_raw(iw_tiff_reader *r, uint32_t row, uint32_t rows, uint8_t *out) {
    TIFF *tif = r->tiff->tif;
    size_t out_stride = (size_t)r->width * 4;
    size_t pixel_bytes = (size_t)r->samples * (r->bits / 8);
    if (!r->tiled) {
        for (uint32_t y = 0; y < rows; y++) {
            if (TIFFReadScanline(tif, r->buffer, row + y, 0) < 0) return 1;
            copy_samples(r, r->buffer, out + y * out_stride, r->width);
        }
        return 0;
    }
    int failed = 0;
    for (uint32_t top = row - row % r->tile_height; top < row + rows; top += r->tile_height) {
        for (uint32_t left = 0; left < r->width; left += r->tile_width) {
            if (TIFFReadTile(tif, r->buffer, left, top, 0, 0) < 0) {
                failed = 1;
                continue;
            }
            uint32_t columns = r->width - left < r->tile_width ? r->width - left : r->tile_width;
            for (uint32_t ty = 0; ty < r->tile_height; ty++) {
                uint32_t y = top + ty;
                if (y < row || y >= row + rows) continue;
                copy_samples(r, r->buffer + (size_t)ty * r->tile_width * pixel_bytes, out + (y - row) * out_stride + 4 * left, columns);
            }
        }
    }
    return failed;
}

int iw_tiff_read(iw_tiff_reader *r, uint32_t row, uint32_t rows, uint8_t *out) {
    if (r->raw) return read_raw(r, row, rows, out);
    r->image.row_offset = (int)row;
    r->image.col_offset = 0;
    /* TIFFRGBAImageGet writes whole 32-bit pixels; `out` is exactly that size. */
    int ok = TIFFRGBAImageGet(&r->image, (uint32_t *)(void *)out, r->width, rows);
    /* ABGR words: in memory R, G, B, A on a little-endian machine; alpha is associated. */
    size_t count = (size_t)r->width * rows;
    for (size_t i = 0; i < count; i++) {
        uint32_t v = ((uint32_t *)(void *)out)[i];
        uint8_t a = (uint8_t)TIFFGetA(v);
        uint8_t rgb[3] = {(uint8_t)TIFFGetR(v), (uint8_t)TIFFGetG(v), (uint8_t)TIFFGetB(v)};
        if (a != 0 && a != 255) {
            for (int c = 0; c < 3; c++) {
                unsigned s = (rgb[c] * 255u + a / 2) / a;
                rgb[c] = s > 255 ? 255 : (uint8_t)s;
            }
        }
        out[4 * i] = rgb[0];
        out[4 * i + 1] = rgb[1];
        out[4 * i + 2] = rgb[2];
        out[4 * i + 3] = a;
    }
    return ok ? 0 : 1;
}

void iw_tiff_end(iw_tiff_reader *r) {
    if (!r) return;
    if (r->raw) {
        if (r->buffer) _TIFFfree(r->buffer);
    } else {
        TIFFRGBAImageEnd(&r->image);
    }
    free(r);
}

int iw_tiff_write(const char *path, const iw_tiff_page *pages, int count, char *message, size_t message_size) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, quiet_globals);
    iw_tiff holder = {0};
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, &holder);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, &holder);
    TIFF *tif = TIFFOpenExt(path, "w", options);
    TIFFOpenOptionsFree(options);
    if (!tif) {
        snprintf(message, message_size, "%s", holder.message[0] ? holder.message : "cannot create the file");
        return 1;
    }
    int ok = 1;
    for (int p = 0; ok && p < count; p++) {
        const iw_tiff_page *page = &pages[p];
        int alpha = !page->cmyk && (page->channels == 4 || page->channels == 2);
        TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, page->width);
        TIFFSetField(tif, TIFFTAG_IMAGELENGTH, page->height);
        TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, (uint16_t)page->bits);
        TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)page->channels);
        TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tif, TIFFTAG_COMPRESSION, (uint16_t)page->compression);
        TIFFSetField(tif, TIFFTAG_ORIENTATION, (uint16_t)(page->orientation ? page->orientation : 1));
        uint16_t photometric = page->cmyk ? PHOTOMETRIC_SEPARATED
                             : page->palette ? PHOTOMETRIC_PALETTE
                             : page->channels <= 2 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB;
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, photometric);
        if (page->cmyk) TIFFSetField(tif, TIFFTAG_INKSET, INKSET_CMYK);
        if (alpha) {
            uint16_t kind = EXTRASAMPLE_UNASSALPHA;
            TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &kind);
        }
        if (page->palette) {
            size_t entries = (size_t)1 << page->bits;
            TIFFSetField(tif, TIFFTAG_COLORMAP, page->colormap, page->colormap + entries, page->colormap + 2 * entries);
        }
        if (page->icc && page->icc_size) TIFFSetField(tif, TIFFTAG_ICCPROFILE, page->icc_size, page->icc);
        if (count > 1) {
            TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
            TIFFSetField(tif, TIFFTAG_PAGENUMBER, (uint16_t)p, (uint16_t)count);
        }
        size_t row_bytes = ((size_t)page->width * page->channels * page->bits + 7) / 8;
        if (page->tiled) {
            TIFFSetField(tif, TIFFTAG_TILEWIDTH, page->tile_width);
            TIFFSetField(tif, TIFFTAG_TILELENGTH, page->tile_height);
            tmsize_t tile_size = TIFFTileSize(tif);
            uint8_t *tile = _TIFFmalloc(tile_size);
            size_t pixel_bits = (size_t)page->channels * page->bits;
            for (uint32_t y = 0; ok && tile && y < page->height; y += page->tile_height) {
                for (uint32_t x = 0; ok && x < page->width; x += page->tile_width) {
                    memset(tile, 0, tile_size);
                    size_t tile_row = (size_t)page->tile_width * pixel_bits / 8;
                    for (uint32_t ty = 0; ty < page->tile_height && y + ty < page->height; ty++) {
                        uint32_t columns = page->width - x < page->tile_width ? page->width - x : page->tile_width;
                        memcpy(tile + ty * tile_row, page->pixels + (y + ty) * row_bytes + x * pixel_bits / 8,
                               columns * pixel_bits / 8);
                    }
                    ok = TIFFWriteTile(tif, tile, x, y, 0, 0) >= 0;
                }
            }
            if (tile) _TIFFfree(tile); else ok = 0;
        } else {
            TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
            for (uint32_t y = 0; ok && y < page->height; y++) {
                ok = TIFFWriteScanline(tif, (void *)(page->pixels + y * row_bytes), y, 0) >= 0;
            }
        }
        ok = ok && TIFFWriteDirectory(tif);
    }
    TIFFClose(tif);
    if (!ok) snprintf(message, message_size, "%s", holder.message[0] ? holder.message : "libtiff could not write the file");
    return ok ? 0 : 1;
}

const char *iw_tiff_library_version(void) { return TIFFGetVersion(); }
