#include "iw_gif.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records (extensions) read before giving up on finding the first image. */
#define IW_GIF_MAX_RECORDS 100000

struct iw_gif {
    GifFileType *file;
    ColorMapObject *map;
};

static void describe(int code, char *message, size_t size) {
    const char *text = GifErrorString(code);
    snprintf(message, size, "%s", text ? text : "GIF error");
}

iw_gif *iw_gif_open(const char *path, iw_gif_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    info->transparent = -1;
    int error = 0;
    GifFileType *file = DGifOpenFileName(path, &error);
    if (!file) {
        describe(error, message, message_size);
        return NULL;
    }
    info->screen_width = file->SWidth;
    info->screen_height = file->SHeight;
    for (int records = 0; records < IW_GIF_MAX_RECORDS; records++) {
        GifRecordType type;
        if (DGifGetRecordType(file, &type) == GIF_ERROR) break;
        if (type == TERMINATE_RECORD_TYPE) {
            snprintf(message, message_size, "the GIF holds no image");
            DGifCloseFile(file, &error);
            return NULL;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(file, &code, &block) == GIF_ERROR) break;
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
                GraphicsControlBlock control;
                if (DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK) info->transparent = control.TransparentColor;
            }
            while (block) {
                if (DGifGetExtensionNext(file, &block) == GIF_ERROR) { block = NULL; records = IW_GIF_MAX_RECORDS; }
            }
            continue;
        }
        if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(file) == GIF_ERROR) {
                const char *text = GifErrorString(file->Error);
                snprintf(message, message_size, "the first image cannot be read (%s)", text ? text : "giflib error");
                DGifCloseFile(file, &error);
                return NULL;
            }
            info->left = file->Image.Left;
            info->top = file->Image.Top;
            info->width = file->Image.Width;
            info->height = file->Image.Height;
            info->interlaced = file->Image.Interlace;
            iw_gif *gif = malloc(sizeof *gif);
            if (!gif) break;
            gif->file = file;
            gif->map = file->Image.ColorMap ? file->Image.ColorMap : file->SColorMap;
            info->colors = gif->map ? gif->map->ColorCount : 0;
            return gif;
        }
    }
    describe(file->Error ? file->Error : D_GIF_ERR_NO_IMAG_DSCR, message, message_size);
    DGifCloseFile(file, &error);
    return NULL;
}

void iw_gif_palette(const iw_gif *gif, uint8_t *rgb) {
    if (!gif->map) return;
    for (int i = 0; i < gif->map->ColorCount; i++) {
        rgb[3 * i] = gif->map->Colors[i].Red;
        rgb[3 * i + 1] = gif->map->Colors[i].Green;
        rgb[3 * i + 2] = gif->map->Colors[i].Blue;
    }
}

int iw_gif_read_row(iw_gif *gif, uint8_t *indices, char *message, size_t message_size) {
    if (DGifGetLine(gif->file, indices, gif->file->Image.Width) == GIF_ERROR) {
        describe(gif->file->Error, message, message_size);
        return 1;
    }
    return 0;
}

void iw_gif_close(iw_gif *gif) {
    if (!gif) return;
    int error = 0;
    DGifCloseFile(gif->file, &error);
    free(gif);
}

int iw_gif_write(const char *path, int width, int height, const uint8_t *palette, int colors,
                 const uint8_t *indices, int frames, int transparent, int interlaced,
                 char *message, size_t message_size) {
    int error = 0;
    GifFileType *file = EGifOpenFileName(path, 0, &error);
    if (!file) {
        describe(error, message, message_size);
        return 1;
    }
    int bits = 1;
    while ((1 << bits) < colors) bits++;
    ColorMapObject *map = GifMakeMapObject(1 << bits, NULL);
    int ok = map != NULL;
    for (int i = 0; ok && i < (1 << bits); i++) {
        map->Colors[i].Red = i < colors ? palette[3 * i] : 0;
        map->Colors[i].Green = i < colors ? palette[3 * i + 1] : 0;
        map->Colors[i].Blue = i < colors ? palette[3 * i + 2] : 0;
    }
    EGifSetGifVersion(file, 1);
    ok = ok && EGifPutScreenDesc(file, width, height, bits, 0, map) != GIF_ERROR;
    for (int f = 0; ok && f < frames; f++) {
        GraphicsControlBlock control = {.DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = 0, .DelayTime = 10,
                                        .TransparentColor = transparent};
        GifByteType extension[4];
        size_t length = EGifGCBToExtension(&control, extension);
        ok = EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) != GIF_ERROR;
        ok = ok && EGifPutImageDesc(file, 0, 0, width, height, interlaced, NULL) != GIF_ERROR;
        const uint8_t *frame = indices + (size_t)f * width * height;
        static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
        for (int pass = 0; ok && pass < (interlaced ? 4 : 1); pass++) {
            int start = interlaced ? starts[pass] : 0, step = interlaced ? steps[pass] : 1;
            for (int y = start; ok && y < height; y += step) {
                ok = EGifPutLine(file, (GifPixelType *)(frame + (size_t)y * width), width) != GIF_ERROR;
            }
        }
    }
    if (!ok) describe(file->Error, message, message_size);
    if (map) GifFreeMapObject(map);
    if (EGifCloseFile(file, &error) == GIF_ERROR && ok) {
        describe(error, message, message_size);
        ok = 0;
    }
    return ok ? 0 : 1;
}

int iw_gif_library_version(void) { return GIFLIB_MAJOR * 10000 + GIFLIB_MINOR * 100 + GIFLIB_RELEASE; }
