#include "iw_exr.h"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfRgbaFile.h>
#include <ImfThreading.h>
#include <ImfTileDescription.h>
#include <OpenEXRConfig.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

struct iw_exr {
    std::unique_ptr<Imf::InputFile> file;      /* every file but luminance-chroma ones */
    std::unique_ptr<Imf::RgbaInputFile> rgba;  /* luminance-chroma files */
    Imath::Box2i display, data;
    iw_exr_info info;
    std::vector<float> scratch;                /* a band of the data window, RGBA floats */
    std::vector<Imf::Rgba> halves;             /* the same for luminance-chroma files */
    std::string path;
    bool spoilt = false;                       /* a read failed: its buffers may hold the failure */
};

/* OpenEXR's message without the file's path (which the caller says): reasons are kept with
   a decode that may be cached under the file's content, wherever it lies. */
static std::string without_path(std::string text, const std::string &path) {
    for (const std::string &named : {" from image file \"" + path + "\"", " file \"" + path + "\"", " \"" + path + "\"", path}) {
        for (size_t at; !path.empty() && (at = text.find(named)) != std::string::npos;) text.erase(at, named.size());
    }
    return text;
}

static void say(char *message, size_t size, const char *what, const char *reason) {
    if (message && size) snprintf(message, size, "%s%s%s", what, reason && reason[0] ? ": " : "", reason ? reason : "");
}

iw_exr *iw_exr_open(const char *path, iw_exr_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    try {
        /* One thread, the calling one: decodes run side by side already. Headers whose data
           window or tiles are past any real picture's are refused by OpenEXR's own sanity
           check, before it allocates their offset tables or tile buffers. */
        static std::once_flag configured;
        std::call_once(configured, [] {
            Imf::setGlobalThreadCount(0);
            Imf::Header::setMaxImageSize(1 << 20, 1 << 20);
            Imf::Header::setMaxTileSize(1 << 12, 1 << 12);
        });
        std::unique_ptr<iw_exr> exr(new iw_exr());
        exr->path = path;
        exr->file.reset(new Imf::InputFile(path, 0));
        const Imf::Header &header = exr->file->header();
        exr->display = header.displayWindow();
        exr->data = header.dataWindow();
        const Imf::ChannelList &channels = header.channels();
        const Imf::Channel *r = channels.findChannel("R"), *g = channels.findChannel("G"),
                           *b = channels.findChannel("B"), *a = channels.findChannel("A"),
                           *y = channels.findChannel("Y");
        bool chroma = channels.findChannel("RY") || channels.findChannel("BY");
        long long width = (long long)exr->display.max.x - exr->display.min.x + 1;
        long long height = (long long)exr->display.max.y - exr->display.min.y + 1;
        long long data_width = (long long)exr->data.max.x - exr->data.min.x + 1;
        long long data_height = (long long)exr->data.max.y - exr->data.min.y + 1;
        if (width <= 0 || height <= 0 || width > (1 << 30) || height > (1 << 30) || data_width <= 0 ||
            data_height <= 0 || data_width > std::max<long long>(1 << 20, width)) {
            say(message, message_size, "its display or data window is out of range", NULL);
            return NULL;
        }
        if (!r && !g && !b && !y) {
            say(message, message_size, "it has no R, G, B or Y channel", NULL);
            return NULL;
        }
        info->width = (int)width;
        info->height = (int)height;
        info->has_alpha = a != NULL;
        info->tiled = header.hasTileDescription();
        if (info->tiled && (long long)header.tileDescription().ySize * data_width * 4 * (long long)sizeof(float) >
                               (512LL << 20)) {
            say(message, message_size, "its tiles' rows are too big to read", NULL);
            return NULL;
        }
        info->luminance_chroma = y && chroma && !r && !g && !b;
        info->gray = y && !chroma && !r && !g && !b;
        for (const Imf::Channel *c : {r, g, b, a, y})
            if (c && c->type == Imf::UINT) info->integer = 1;
        for (const Imf::Channel *c : {r, g, b, a, y})
            if (c && !info->luminance_chroma && (c->xSampling != 1 || c->ySampling != 1)) {
                say(message, message_size, "its colour channels are subsampled", NULL);
                return NULL;
            }
        if (info->luminance_chroma) {
            exr->file.reset();
            exr->rgba.reset(new Imf::RgbaInputFile(path, 0));
        }
        exr->info = *info;
        return exr.release();
    } catch (const std::exception &error) {
        say(message, message_size, "OpenEXR cannot read it", without_path(error.what(), path).c_str());
    } catch (...) {
        say(message, message_size, "OpenEXR cannot read it", NULL);
    }
    return NULL;
}

size_t iw_exr_row_bytes(const iw_exr *exr) {
    return (size_t)(exr->data.max.x - exr->data.min.x + 1) * 4 * sizeof(float);
}

/* Rows `first` to `last` (file coordinates, within the data window) into the scratch band,
   whose row 0 is `top`. Returns 0, or 1 with the reason. */
static int read_rows(iw_exr *exr, int top, int first, int last, char *reason, size_t reason_size) {
    const size_t data_width = (size_t)(exr->data.max.x - exr->data.min.x + 1);
    try {
        if (exr->spoilt) {
            /* OpenEXR keeps a failed chunk's error in its line buffers: opened afresh. */
            exr->spoilt = false;
            if (exr->rgba)
                exr->rgba.reset(new Imf::RgbaInputFile(exr->path.c_str(), 0));
            else
                exr->file.reset(new Imf::InputFile(exr->path.c_str(), 0));
        }
        if (exr->rgba) {
            Imf::Rgba *base = exr->halves.data() - (ptrdiff_t)exr->data.min.x - (ptrdiff_t)top * (ptrdiff_t)data_width;
            exr->rgba->setFrameBuffer(base, 1, data_width);
            exr->rgba->readPixels(first, last);
            return 0;
        }
        const size_t pixel = 4 * sizeof(float), row = data_width * pixel;
        char *base = (char *)exr->scratch.data() - (ptrdiff_t)exr->data.min.x * (ptrdiff_t)pixel -
                     (ptrdiff_t)top * (ptrdiff_t)row;
        Imf::FrameBuffer frame;
        const char *names[4] = {"R", "G", "B", "A"};
        if (exr->info.gray) names[0] = names[1] = names[2] = "Y";
        for (int c = 0; c < 4; c++) {
            if (c > 0 && exr->info.gray && c < 3) continue; /* grey is copied to G and B after */
            frame.insert(names[c], Imf::Slice(Imf::FLOAT, base + c * sizeof(float), pixel, row, 1, 1, c == 3 ? 1.0 : 0.0));
        }
        exr->file->setFrameBuffer(frame);
        exr->file->readPixels(first, last);
        return 0;
    } catch (const std::exception &error) {
        snprintf(reason, reason_size, "%s", without_path(error.what(), exr->path).c_str());
    } catch (...) {
        snprintf(reason, reason_size, "OpenEXR failed");
    }
    exr->spoilt = true;
    return 1;
}

int iw_exr_band(iw_exr *exr, int y, int rows, float *out, char *message, size_t message_size) {
    const int width = exr->info.width;
    const size_t data_width = (size_t)(exr->data.max.x - exr->data.min.x + 1);
    memset(out, 0, (size_t)rows * width * 4 * sizeof(float));
    if (message && message_size) message[0] = 0;
    /* The band's rows in file coordinates, and those the data window holds. */
    long long top = (long long)exr->display.min.y + y, bottom = top + rows - 1;
    long long first = std::max<long long>(top, exr->data.min.y), last = std::min<long long>(bottom, exr->data.max.y);
    if (first > last) return 0;
    int count = (int)(last - first + 1);
    try {
        if (exr->rgba) {
            exr->halves.assign((size_t)count * data_width, Imf::Rgba(0, 0, 0, 0));
        } else {
            exr->scratch.assign((size_t)count * data_width * 4, 0.0f);
        }
    } catch (const std::bad_alloc &) {
        say(message, message_size, "out of memory for a band", NULL);
        return rows;
    }
    char reason[160] = {0};
    int failed = 0;
    if (read_rows(exr, (int)first, (int)first, (int)last, reason, sizeof reason) != 0) {
        /* Damaged somewhere in the band: what can be read, row by row (a row's chunk is decoded
           again for each of its rows, only in a damaged band). */
        say(message, message_size, reason, NULL);
        if (exr->rgba)
            std::fill(exr->halves.begin(), exr->halves.end(), Imf::Rgba(0, 0, 0, 0));
        else
            std::fill(exr->scratch.begin(), exr->scratch.end(), 0.0f);
        for (int line = (int)first; line <= (int)last; line++) {
            char again[160];
            if (read_rows(exr, (int)first, line, line, again, sizeof again) != 0) {
                failed++;
                size_t at = (size_t)(line - first) * data_width;
                if (exr->rgba)
                    std::fill(exr->halves.begin() + at, exr->halves.begin() + at + data_width, Imf::Rgba(0, 0, 0, 0));
                else
                    std::fill(exr->scratch.begin() + at * 4, exr->scratch.begin() + (at + data_width) * 4, 0.0f);
            }
        }
        if (failed == 0) failed = 1; /* the band's read failed though its rows could each be read */
    }
    /* Into the display window: the data window's columns that fall inside it. */
    long long from = std::max<long long>(exr->display.min.x, exr->data.min.x);
    long long to = std::min<long long>(exr->display.max.x, exr->data.max.x);
    for (long long line = first; line <= last && from <= to; line++) {
        float *row = out + (size_t)(line - top) * width * 4 + (size_t)(from - exr->display.min.x) * 4;
        size_t in = (size_t)(line - first) * data_width + (size_t)(from - exr->data.min.x);
        size_t pixels = (size_t)(to - from + 1);
        if (exr->rgba) {
            for (size_t x = 0; x < pixels; x++) {
                const Imf::Rgba &p = exr->halves[in + x];
                row[4 * x] = p.r;
                row[4 * x + 1] = p.g;
                row[4 * x + 2] = p.b;
                row[4 * x + 3] = exr->info.has_alpha ? (float)p.a : 1.0f;
            }
        } else {
            memcpy(row, exr->scratch.data() + in * 4, pixels * 4 * sizeof(float));
            if (exr->info.gray)
                for (size_t x = 0; x < pixels; x++) row[4 * x + 1] = row[4 * x + 2] = row[4 * x];
        }
    }
    return failed;
}

void iw_exr_close(iw_exr *exr) { delete exr; }

const char *iw_exr_version(void) { return OPENEXR_VERSION_STRING; }
