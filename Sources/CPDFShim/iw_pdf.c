#include "iw_pdf.h"

#include <errno.h>
#include <hpdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iw_pdf {
    HPDF_Doc doc;
    HPDF_Font latin; /* Helvetica, one of the PDF's standard fonts: nothing embedded */
    char message[256];
};

static void iw_pdf_error(HPDF_STATUS error, HPDF_STATUS detail, void *data) {
    struct iw_pdf *pdf = data;
    if (pdf->message[0] == 0)
        snprintf(pdf->message, sizeof pdf->message, "libharu error 0x%04X (detail %u)", (unsigned)error,
                 (unsigned)detail);
}

iw_pdf *iw_pdf_create(const char *title, const char *producer, char *message, size_t message_size) {
    struct iw_pdf *pdf = calloc(1, sizeof *pdf);
    if (!pdf) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    pdf->doc = HPDF_New(iw_pdf_error, pdf);
    if (!pdf->doc) {
        snprintf(message, message_size, "libharu could not start a document");
        free(pdf);
        return NULL;
    }
    HPDF_SetCompressionMode(pdf->doc, HPDF_COMP_ALL);
    pdf->latin = HPDF_GetFont(pdf->doc, "Helvetica", "WinAnsiEncoding");
    if (!pdf->latin) {
        snprintf(message, message_size, "libharu has no Helvetica");
        iw_pdf_destroy(pdf);
        return NULL;
    }
    if (title && title[0]) {
        /* With UTF-8 as the current encoder, libharu writes the title as UTF-16 (with its byte
           order mark), as the PDF's document information needs any text but ASCII. */
        HPDF_UseUTFEncodings(pdf->doc);
        HPDF_SetCurrentEncoder(pdf->doc, "UTF-8");
        HPDF_SetInfoAttr(pdf->doc, HPDF_INFO_TITLE, title);
    }
    if (producer && producer[0]) HPDF_SetInfoAttr(pdf->doc, HPDF_INFO_PRODUCER, producer);
    if (pdf->message[0]) {
        snprintf(message, message_size, "%s", pdf->message);
        iw_pdf_destroy(pdf);
        return NULL;
    }
    return pdf;
}

/* An ASCII line in Helvetica, centred on the page, its baseline `y` points from the bottom. */
static void iw_pdf_centred(struct iw_pdf *pdf, HPDF_Page page, double size, const char *text, double y,
                           double page_width) {
    if (!text || !text[0]) return;
    HPDF_Page_BeginText(page);
    HPDF_Page_SetFontAndSize(page, pdf->latin, (HPDF_REAL)size);
    double x = (page_width - HPDF_Page_TextWidth(page, text)) / 2;
    HPDF_Page_TextOut(page, (HPDF_REAL)x, (HPDF_REAL)y, text);
    HPDF_Page_EndText(page);
}

/* Draws 8-bit RGB `rgb` (`width` x `height`, deflated) in the box at `x`, `top` (points from the
   page's top left), `box_width` x `box_height` points. Returns 0, 1 on failure. */
static int iw_pdf_picture(struct iw_pdf *pdf, HPDF_Page page, double page_height, const uint8_t *rgb,
                          uint32_t width, uint32_t height, double x, double top, double box_width,
                          double box_height) {
    HPDF_Image image = HPDF_LoadRawImageFromMem(pdf->doc, rgb, width, height, HPDF_CS_DEVICE_RGB, 8);
    if (!image) return 1;
    /* PDF's origin is the bottom left. */
    return HPDF_Page_DrawImage(page, image, (HPDF_REAL)x, (HPDF_REAL)(page_height - top - box_height),
                               (HPDF_REAL)box_width, (HPDF_REAL)box_height) != HPDF_OK;
}

int iw_pdf_add_page(iw_pdf *pdf, const iw_pdf_page *spec) {
    HPDF_Page page = HPDF_AddPage(pdf->doc);
    if (!page) return 1;
    HPDF_Page_SetWidth(page, (HPDF_REAL)spec->width);
    HPDF_Page_SetHeight(page, (HPDF_REAL)spec->height);
    if (spec->jpeg) {
        HPDF_Image image = HPDF_LoadJpegImageFromMem(pdf->doc, spec->jpeg, (HPDF_UINT)spec->jpeg_size);
        if (!image || HPDF_Page_DrawImage(page, image, (HPDF_REAL)spec->x,
                                          (HPDF_REAL)(spec->height - spec->y - spec->picture_height),
                                          (HPDF_REAL)spec->picture_width,
                                          (HPDF_REAL)spec->picture_height) != HPDF_OK)
            return 1;
    } else if (iw_pdf_picture(pdf, page, spec->height, spec->rgb, spec->pixel_width, spec->pixel_height, spec->x,
                              spec->y, spec->picture_width, spec->picture_height)) {
        return 1;
    }
    if (spec->header_rgb &&
        iw_pdf_picture(pdf, page, spec->height, spec->header_rgb, spec->header_pixel_width,
                       spec->header_pixel_height, spec->x, spec->header_top, spec->picture_width,
                       spec->header_height))
        return 1;
    iw_pdf_centred(pdf, page, spec->font_size, spec->footer, spec->height - spec->footer_y, spec->width);
    return pdf->message[0] ? 1 : 0;
}

int iw_pdf_write(iw_pdf *pdf, FILE *file) {
    if (HPDF_SaveToStream(pdf->doc) != HPDF_OK) return 1;
    HPDF_ResetStream(pdf->doc);
    HPDF_BYTE buffer[65536];
    for (;;) {
        HPDF_UINT32 size = sizeof buffer;
        HPDF_STATUS status = HPDF_ReadFromStream(pdf->doc, buffer, &size);
        if (size > 0 && fwrite(buffer, 1, size, file) != size) {
            snprintf(pdf->message, sizeof pdf->message, "%s", strerror(errno ? errno : EIO));
            return 1;
        }
        if (status == HPDF_STREAM_EOF) return 0;
        if (status != HPDF_OK) return 1;
    }
}

const char *iw_pdf_message(const iw_pdf *pdf) { return pdf->message; }

void iw_pdf_destroy(iw_pdf *pdf) {
    if (!pdf) return;
    if (pdf->doc) HPDF_Free(pdf->doc);
    free(pdf);
}
