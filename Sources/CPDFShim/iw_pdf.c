#include "iw_pdf.h"

#include <errno.h>
#include <hpdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct iw_pdf {
    HPDF_Doc doc;
    HPDF_Font latin;   /* Helvetica, one of the PDF's standard fonts: nothing embedded */
    HPDF_Font unicode; /* the TrueType font, embedded, for any other text; loaded when first needed */
    char font_path[1024];
    char message[256];
};

static void iw_pdf_error(HPDF_STATUS error, HPDF_STATUS detail, void *data) {
    struct iw_pdf *pdf = data;
    if (pdf->message[0] == 0)
        snprintf(pdf->message, sizeof pdf->message, "libharu error 0x%04X (detail %u)", (unsigned)error,
                 (unsigned)detail);
}

iw_pdf *iw_pdf_create(const char *font_path, char *message, size_t message_size) {
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
    HPDF_UseUTFEncodings(pdf->doc);
    snprintf(pdf->font_path, sizeof pdf->font_path, "%s", font_path);
    pdf->latin = HPDF_GetFont(pdf->doc, "Helvetica", "WinAnsiEncoding");
    if (!pdf->latin) {
        snprintf(message, message_size, "libharu has no Helvetica");
        iw_pdf_destroy(pdf);
        return NULL;
    }
    return pdf;
}

/* Helvetica for ASCII text; the TrueType font (embedded once) for anything else. */
static HPDF_Font iw_pdf_font(struct iw_pdf *pdf, const char *text) {
    int ascii = 1;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) ascii &= *c < 0x80;
    if (ascii) return pdf->latin;
    if (!pdf->unicode) {
        const char *name = HPDF_LoadTTFontFromFile(pdf->doc, pdf->font_path, HPDF_TRUE);
        if (name) pdf->unicode = HPDF_GetFont(pdf->doc, name, "UTF-8");
        if (!pdf->unicode && pdf->message[0] == 0)
            snprintf(pdf->message, sizeof pdf->message, "%s: libharu cannot use this font", pdf->font_path);
    }
    return pdf->unicode;
}

static void iw_pdf_text(struct iw_pdf *pdf, HPDF_Page page, double size, const char *text, double x, double y,
                        int centred, double page_width) {
    if (!text || !text[0]) return;
    HPDF_Font font = iw_pdf_font(pdf, text);
    if (!font) return;
    HPDF_Page_BeginText(page);
    HPDF_Page_SetFontAndSize(page, font, (HPDF_REAL)size);
    if (centred) x = (page_width - HPDF_Page_TextWidth(page, text)) / 2;
    HPDF_Page_TextOut(page, (HPDF_REAL)x, (HPDF_REAL)y, text);
    HPDF_Page_EndText(page);
}

int iw_pdf_add_page(iw_pdf *pdf, const iw_pdf_page *spec) {
    HPDF_Page page = HPDF_AddPage(pdf->doc);
    if (!page) return 1;
    HPDF_Page_SetWidth(page, (HPDF_REAL)spec->width);
    HPDF_Page_SetHeight(page, (HPDF_REAL)spec->height);
    HPDF_Image image =
        spec->jpeg ? HPDF_LoadJpegImageFromMem(pdf->doc, spec->jpeg, (HPDF_UINT)spec->jpeg_size)
                   : HPDF_LoadRawImageFromMem(pdf->doc, spec->rgb, spec->pixel_width, spec->pixel_height,
                                              HPDF_CS_DEVICE_RGB, 8);
    if (!image) return 1;
    /* PDF's origin is the bottom left. */
    if (HPDF_Page_DrawImage(page, image, (HPDF_REAL)spec->x,
                            (HPDF_REAL)(spec->height - spec->y - spec->picture_height),
                            (HPDF_REAL)spec->picture_width, (HPDF_REAL)spec->picture_height) != HPDF_OK)
        return 1;
    iw_pdf_text(pdf, page, spec->font_size, spec->header, spec->x, spec->height - spec->header_y, 0, spec->width);
    iw_pdf_text(pdf, page, spec->font_size, spec->footer, 0, spec->height - spec->footer_y, 1, spec->width);
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
