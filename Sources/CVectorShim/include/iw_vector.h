#ifndef IW_VECTOR_H
#define IW_VECTOR_H
/* Vector pictures: SVG through librsvg, PDF (and Illustrator files, which are PDF inside) through
   poppler, both drawn by cairo at the size asked, never rasterised large and shrunk. The libraries
   (librsvg with GLib and cairo, poppler) load on the first such file, as FFmpeg's do on the first
   video. An SVG is read as librsvg reads a file: its references reach only files in its own
   folder or below and data: URLs, never the network. */
#include <stddef.h>

typedef struct iw_vector iw_vector;

typedef struct iw_vector_info {
    double width, height; /* the picture's size in CSS pixels (96 a inch; a PDF page's points x 4/3) */
    int pages;            /* a PDF's pages; 1 for an SVG */
    int sized;            /* an SVG: 1 when its width and height are absolute, 0 when taken from its
                             viewBox (or 300 x 150 when it has neither, as browsers take it) */
} iw_vector_info;

/* Opens the SVG at `path` (SVGZ too). Returns it, or NULL with the reason in `message`. */
iw_vector *iw_svg_open(const char *path, iw_vector_info *info, char *message, size_t message_size);

/* Opens the PDF at `path` (not one that needs a password). */
iw_vector *iw_pdf_open(const char *path, iw_vector_info *info, char *message, size_t message_size);

/* The size of a PDF's page `page` (from 0) in CSS pixels (points x 4/3); 1 when it has no such page. */
int iw_pdf_page_size(iw_vector *vector, int page, double *width, double *height);

/* Draws the picture (a PDF's page `page`, from 0) filling width x height into `rgba` (straight
   alpha, 4 bytes a pixel); a PDF page on white. Returns 0, or 1 with the reason in `message`. */
int iw_vector_draw(iw_vector *vector, int page, int width, int height, unsigned char *rgba, char *message,
                   size_t message_size);

void iw_vector_close(iw_vector *vector);

/* "librsvg 2.54.7, poppler 22.12.0, cairo 1.16.0" (loading them). */
const char *iw_vector_versions(void);
#endif
