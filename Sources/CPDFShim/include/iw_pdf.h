#ifndef IW_PDF_H
#define IW_PDF_H
/* PDF documents through libharu: pages of a given size in points, each with one picture (a
   JPEG embedded as it is, or 8-bit RGB deflated), a header band drawn as a picture too (its text
   set as the sheet's is, in any script) and an ASCII footer line in Helvetica (a standard font:
   nothing embedded). Every entry point returns 0 on success or 1 on failure, whose text
   iw_pdf_message() then holds. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct iw_pdf iw_pdf;

/* A new document whose information names `title` (UTF-8; none when NULL or empty) and
   `producer` (libharu's own name when NULL or empty); NULL on failure (message set). */
iw_pdf *iw_pdf_create(const char *title, const char *producer, char *message, size_t message_size);

typedef struct iw_pdf_page {
    double width, height;            /* the page, in points */
    const uint8_t *jpeg;             /* the picture as a JPEG, embedded as it is, or NULL */
    size_t jpeg_size;
    const uint8_t *rgb;              /* or as 8-bit RGB rows, deflated (lossless) */
    uint32_t pixel_width, pixel_height;
    double x, y, picture_width, picture_height; /* where the picture goes, in points from the top left */
    const uint8_t *header_rgb;       /* the header band above the picture, 8-bit RGB, or NULL */
    uint32_t header_pixel_width, header_pixel_height;
    double header_top, header_height; /* where it goes, as wide as the picture, in points from the top */
    const char *footer;              /* ASCII, centred below the picture, or NULL */
    double font_size;                /* points */
    double footer_y;                 /* the footer's baseline, in points from the top */
} iw_pdf_page;

int iw_pdf_add_page(iw_pdf *pdf, const iw_pdf_page *page);
/* Writes the whole document to `file`. */
int iw_pdf_write(iw_pdf *pdf, FILE *file);
const char *iw_pdf_message(const iw_pdf *pdf);
void iw_pdf_destroy(iw_pdf *pdf);

#endif
