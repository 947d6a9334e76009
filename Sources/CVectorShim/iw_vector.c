#define _DEFAULT_SOURCE /* realpath */
#include "iw_vector.h"
#include "iw_library.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* librsvg, poppler-glib, cairo and GLib are loaded when the first SVG or PDF is read, not when
   the program starts (they bring GLib, GIO, Pango and poppler's C++ core: 10 ms and 9 MB a run).
   The few functions used are declared here as their public headers declare them (librsvg 2.54,
   poppler-glib 22, cairo 1.16, GLib 2.74: stable C interfaces, looked up in the libraries of the
   sonames below), so that nothing links them. */
typedef struct _GError {
    uint32_t domain;
    int code;
    char *message;
} GError;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
typedef struct {
    double length;
    int unit;
} RsvgLength;
typedef void cairo_t, cairo_surface_t, RsvgHandle, PopplerDocument, PopplerPage;
enum { CAIRO_FORMAT_ARGB32 = 0, CAIRO_STATUS_SUCCESS = 0 };

#define IW_VECTOR_FUNCTIONS(X)                                                                                \
    X(glib, void, g_error_free, (GError *))                                                                    \
    X(glib, char *, g_filename_to_uri, (const char *, const char *, GError **))                               \
    X(glib, void, g_free, (void *))                                                                            \
    X(gobject, void, g_object_unref, (void *))                                                                 \
    X(cairo, cairo_surface_t *, cairo_image_surface_create_for_data,                                          \
      (unsigned char *, int, int, int, int))                                                                   \
    X(cairo, int, cairo_format_stride_for_width, (int, int))                                                  \
    X(cairo, cairo_t *, cairo_create, (cairo_surface_t *))                                                     \
    X(cairo, void, cairo_destroy, (cairo_t *))                                                                 \
    X(cairo, void, cairo_surface_destroy, (cairo_surface_t *))                                                 \
    X(cairo, void, cairo_surface_flush, (cairo_surface_t *))                                                   \
    X(cairo, int, cairo_status, (cairo_t *))                                                                   \
    X(cairo, const char *, cairo_status_to_string, (int))                                                      \
    X(cairo, void, cairo_set_source_rgb, (cairo_t *, double, double, double))                                  \
    X(cairo, void, cairo_paint, (cairo_t *))                                                                   \
    X(cairo, void, cairo_scale, (cairo_t *, double, double))                                                   \
    X(cairo, const char *, cairo_version_string, (void))                                                       \
    X(rsvg, RsvgHandle *, rsvg_handle_new_from_file, (const char *, GError **))                               \
    X(rsvg, void, rsvg_handle_set_dpi, (RsvgHandle *, double))                                                 \
    X(rsvg, int, rsvg_handle_get_intrinsic_size_in_pixels, (RsvgHandle *, double *, double *))                \
    X(rsvg, void, rsvg_handle_get_intrinsic_dimensions,                                                        \
      (RsvgHandle *, int *, RsvgLength *, int *, RsvgLength *, int *, RsvgRectangle *))                       \
    X(rsvg, int, rsvg_handle_render_document, (RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **))   \
    X(poppler, PopplerDocument *, poppler_document_new_from_file, (const char *, const char *, GError **))    \
    X(poppler, int, poppler_document_get_n_pages, (PopplerDocument *))                                         \
    X(poppler, PopplerPage *, poppler_document_get_page, (PopplerDocument *, int))                             \
    X(poppler, void, poppler_page_get_size, (PopplerPage *, double *, double *))                               \
    X(poppler, void, poppler_page_render, (PopplerPage *, cairo_t *))                                          \
    X(poppler, const char *, poppler_get_version, (void))

static struct {
#define IW_POINTER(library, result, name, arguments) result(*name) arguments;
    IW_VECTOR_FUNCTIONS(IW_POINTER)
#undef IW_POINTER
    unsigned (*rsvg_major), (*rsvg_minor), (*rsvg_micro);
} vx;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[256];

static void load_libraries(void) {
    const char *names[] = {"libglib-2.0.so.0", "libgobject-2.0.so.0", "libcairo.so.2", "librsvg-2.so.2",
                           "libpoppler-glib.so.8"};
    void *handles[5];
    if (!iw_open_libraries("librsvg, poppler and cairo", names, handles, 5, load_failure, sizeof load_failure)) return;
    void *glib = handles[0], *gobject = handles[1], *cairo = handles[2], *rsvg = handles[3], *poppler = handles[4];
#define IW_LOOKUP(library, result, name, arguments)                                                            \
    if (!iw_find_function(library, #name, (void **)&vx.name, "the vector libraries lack", load_failure,       \
                          sizeof load_failure))                                                               \
        return;
    IW_VECTOR_FUNCTIONS(IW_LOOKUP)
#undef IW_LOOKUP
    vx.rsvg_major = dlsym(rsvg, "rsvg_major_version");
    vx.rsvg_minor = dlsym(rsvg, "rsvg_minor_version");
    vx.rsvg_micro = dlsym(rsvg, "rsvg_micro_version");
}

static int loaded(char *message, size_t message_size) {
    pthread_once(&load_once, load_libraries);
    return iw_library_failure(load_failure, message, message_size);
}

struct iw_vector {
    RsvgHandle *svg;
    PopplerDocument *pdf;
};

static void take_error(GError *error, const char *what, char *message, size_t message_size) {
    snprintf(message, message_size, "%s%s%s", what, error && error->message ? ": " : "",
             error && error->message ? error->message : "");
    if (error) vx.g_error_free(error);
    size_t length = strlen(message);
    while (length && (message[length - 1] == '\n' || message[length - 1] == ' ')) message[--length] = 0;
}

/* A vector picture holding `svg` or `pdf`, which it releases when it is closed; NULL (and the
   handle released) when there is no memory for it. */
static iw_vector *wrapped(RsvgHandle *svg, PopplerDocument *pdf, char *message, size_t message_size) {
    iw_vector *vector = calloc(1, sizeof *vector);
    if (!vector) {
        vx.g_object_unref(svg ? svg : pdf);
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    vector->svg = svg;
    vector->pdf = pdf;
    return vector;
}

iw_vector *iw_svg_open(const char *path, iw_vector_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    if (loaded(message, message_size)) return NULL;
    GError *error = NULL;
    RsvgHandle *handle = vx.rsvg_handle_new_from_file(path, &error);
    if (!handle) {
        take_error(error, "librsvg cannot read it", message, message_size);
        return NULL;
    }
    vx.rsvg_handle_set_dpi(handle, 96);
    double width = 0, height = 0;
    if (vx.rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) && width > 0 && height > 0) {
        info->sized = 1;
    } else {
        int has_box = 0;
        RsvgRectangle box = {0, 0, 0, 0};
        vx.rsvg_handle_get_intrinsic_dimensions(handle, NULL, NULL, NULL, NULL, &has_box, &box);
        if (has_box && box.width > 0 && box.height > 0)
            width = box.width, height = box.height;
        else
            width = 300, height = 150;
    }
    iw_vector *vector = wrapped(handle, NULL, message, message_size);
    if (!vector) return NULL;
    info->width = width;
    info->height = height;
    info->pages = 1;
    return vector;
}

iw_vector *iw_pdf_open(const char *path, iw_vector_info *info, char *message, size_t message_size) {
    memset(info, 0, sizeof *info);
    if (loaded(message, message_size)) return NULL;
    GError *error = NULL;
    char *absolute = realpath(path, NULL);
    char *uri = absolute ? vx.g_filename_to_uri(absolute, NULL, &error) : NULL;
    free(absolute);
    if (!uri) {
        take_error(error, "its path makes no URI", message, message_size);
        return NULL;
    }
    PopplerDocument *document = vx.poppler_document_new_from_file(uri, NULL, &error);
    vx.g_free(uri);
    if (!document) {
        take_error(error, "poppler cannot read it", message, message_size);
        return NULL;
    }
    iw_vector *vector = wrapped(NULL, document, message, message_size);
    if (!vector) return NULL;
    int pages = vx.poppler_document_get_n_pages(document);
    if (pages < 1 || iw_pdf_page_size(vector, 0, &info->width, &info->height) != 0) {
        iw_vector_close(vector);
        snprintf(message, message_size, "it has no page");
        return NULL;
    }
    info->pages = pages;
    info->sized = 1;
    return vector;
}

int iw_pdf_page_size(iw_vector *vector, int page_index, double *width, double *height) {
    if (!vector->pdf) return 1;
    PopplerPage *page = vx.poppler_document_get_page(vector->pdf, page_index);
    if (!page) return 1;
    double points_wide = 0, points_high = 0;
    vx.poppler_page_get_size(page, &points_wide, &points_high);
    vx.g_object_unref(page);
    *width = points_wide * 96.0 / 72.0;
    *height = points_high * 96.0 / 72.0;
    return 0;
}

int iw_vector_draw(iw_vector *vector, int page_index, int width, int height, unsigned char *rgba, char *message,
                   size_t message_size) {
    int stride = vx.cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
    if (stride != width * 4) {
        snprintf(message, message_size, "cairo cannot draw %dx%d pixels", width, height);
        return 1;
    }
    memset(rgba, 0, (size_t)width * height * 4);
    cairo_surface_t *surface =
        vx.cairo_image_surface_create_for_data(rgba, CAIRO_FORMAT_ARGB32, width, height, stride);
    cairo_t *cr = vx.cairo_create(surface);
    int failed = 0;
    if (vector->svg) {
        RsvgRectangle viewport = {0, 0, width, height};
        GError *error = NULL;
        if (!vx.rsvg_handle_render_document(vector->svg, cr, &viewport, &error)) {
            take_error(error, "librsvg cannot draw it", message, message_size);
            failed = 1;
        }
    } else {
        PopplerPage *page = vx.poppler_document_get_page(vector->pdf, page_index);
        if (!page) {
            snprintf(message, message_size, "it has no page %d", page_index + 1);
            failed = 1;
        } else {
            double page_width = 0, page_height = 0;
            vx.poppler_page_get_size(page, &page_width, &page_height);
            vx.cairo_set_source_rgb(cr, 1, 1, 1);
            vx.cairo_paint(cr);
            if (page_width > 0 && page_height > 0) vx.cairo_scale(cr, width / page_width, height / page_height);
            vx.poppler_page_render(page, cr);
            vx.g_object_unref(page);
        }
    }
    if (!failed && vx.cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "cairo: %s", vx.cairo_status_to_string(vx.cairo_status(cr)));
        failed = 1;
    }
    vx.cairo_destroy(cr);
    vx.cairo_surface_flush(surface);
    vx.cairo_surface_destroy(surface);
    if (failed) return 1;
    /* Cairo's premultiplied native-endian ARGB (B, G, R, A in memory) to straight R, G, B, A. */
    for (size_t i = 0, n = (size_t)width * height; i < n; i++) {
        unsigned char *p = rgba + 4 * i;
        unsigned a = p[3], b = p[0], g = p[1], r = p[2];
        if (a == 0) {
            p[0] = p[1] = p[2] = 0;
        } else if (a == 255) {
            p[0] = (unsigned char)r, p[2] = (unsigned char)b;
        } else {
            p[0] = (unsigned char)((r * 255 + a / 2) / a);
            p[1] = (unsigned char)((g * 255 + a / 2) / a);
            p[2] = (unsigned char)((b * 255 + a / 2) / a);
        }
    }
    return 0;
}

void iw_vector_close(iw_vector *vector) {
    if (!vector) return;
    if (vector->svg) vx.g_object_unref(vector->svg);
    if (vector->pdf) vx.g_object_unref(vector->pdf);
    free(vector);
}

static char versions[128];
static void describe_versions(void) {
    if (loaded(NULL, 0)) {
        snprintf(versions, sizeof versions, "librsvg, poppler, cairo: not loaded");
        return;
    }
    snprintf(versions, sizeof versions, "librsvg %u.%u.%u, poppler %s, cairo %s",
             vx.rsvg_major ? *vx.rsvg_major : 0, vx.rsvg_minor ? *vx.rsvg_minor : 0,
             vx.rsvg_micro ? *vx.rsvg_micro : 0, vx.poppler_get_version(), vx.cairo_version_string());
}

const char *iw_vector_versions(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, describe_versions);
    return versions;
}
