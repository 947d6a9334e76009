#include "iw_color.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lcms2.h>

static void iw_quiet(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    (void)code;
    (void)text;
}

static cmsContext iw_context(void) {
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (context) cmsSetLogErrorHandlerTHR(context, iw_quiet);
    return context;
}

/* A profile that calls itself sRGB and, where it has colorants (a matrix profile), has sRGB's. */
static int iw_is_srgb(cmsContext context, cmsHPROFILE profile) {
    char text[256] = {0};
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", text, sizeof text);
    if (strstr(text, "sRGB") == NULL) return 0;
    cmsHPROFILE reference = cmsCreate_sRGBProfileTHR(context);
    if (!reference) return 1;
    const cmsTagSignature tags[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    int same = 1;
    for (int i = 0; i < 3 && same; i++) {
        const cmsCIEXYZ *mine = cmsReadTag(profile, tags[i]);
        const cmsCIEXYZ *theirs = cmsReadTag(reference, tags[i]);
        if (!mine || !theirs) break;
        same = fabs(mine->X - theirs->X) < 0.01 && fabs(mine->Y - theirs->Y) < 0.01 && fabs(mine->Z - theirs->Z) < 0.01;
    }
    cmsCloseProfile(reference);
    return same;
}

int iw_icc_to_srgb(const uint8_t *data, size_t size, int kind, const uint8_t *in, uint8_t *out,
                   size_t pixels) {
    cmsContext context = iw_context();
    if (!context) return IW_ICC_FAILED;
    int status = IW_ICC_DONE;
    cmsHPROFILE input = cmsOpenProfileFromMemTHR(context, data, (cmsUInt32Number)size);
    cmsHPROFILE output = NULL;
    cmsHTRANSFORM transform = NULL;
    if (!input) {
        status = IW_ICC_UNREADABLE;
        goto done;
    }
    cmsColorSpaceSignature space = cmsGetColorSpace(input);
    if (space == cmsSigGrayData) {  /* grey data is decoded as RGB; grey gammas are left as they are */
        status = IW_ICC_ALREADY_SRGB;
        goto done;
    }
    int cmyk = kind == IW_ICC_CMYK || kind == IW_ICC_CMYK_INVERTED;
    if ((cmyk && space != cmsSigCmykData) || (!cmyk && space != cmsSigRgbData)) {
        status = IW_ICC_MISMATCH;
        goto done;
    }
    if (!cmyk && iw_is_srgb(context, input)) {
        status = IW_ICC_ALREADY_SRGB;
        goto done;
    }
    output = cmsCreate_sRGBProfileTHR(context);
    cmsUInt32Number in_format, out_format, flags = cmsFLAGS_BLACKPOINTCOMPENSATION;
    switch (kind) {
    case IW_ICC_RGBA:
        in_format = TYPE_RGBA_8;
        out_format = TYPE_RGBA_8;
        flags |= cmsFLAGS_COPY_ALPHA;
        break;
    case IW_ICC_CMYK:
        in_format = TYPE_CMYK_8;
        out_format = TYPE_RGB_8;
        break;
    case IW_ICC_CMYK_INVERTED:
        in_format = TYPE_CMYK_8_REV;
        out_format = TYPE_RGB_8;
        break;
    default:
        in_format = TYPE_RGB_8;
        out_format = TYPE_RGB_8;
        break;
    }
    transform = output ? cmsCreateTransformTHR(context, input, in_format, output, out_format,
                                               INTENT_PERCEPTUAL, flags)
                       : NULL;
    if (!transform) {
        status = IW_ICC_FAILED;
        goto done;
    }
    /* In chunks: cmsDoTransform counts pixels in 32 bits. */
    size_t bytes_in = cmyk || kind == IW_ICC_RGBA ? 4 : 3;
    size_t bytes_out = kind == IW_ICC_RGBA ? 4 : 3;
    for (size_t done_pixels = 0; done_pixels < pixels;) {
        size_t chunk = pixels - done_pixels > 1u << 20 ? 1u << 20 : pixels - done_pixels;
        cmsDoTransform(transform, in + done_pixels * bytes_in, out + done_pixels * bytes_out,
                       (cmsUInt32Number)chunk);
        done_pixels += chunk;
    }
done:
    if (transform) cmsDeleteTransform(transform);
    if (output) cmsCloseProfile(output);
    if (input) cmsCloseProfile(input);
    cmsDeleteContext(context);
    return status;
}

void iw_icc_description(const uint8_t *data, size_t size, char *text, size_t capacity) {
    if (capacity == 0) return;
    text[0] = 0;
    cmsContext context = iw_context();
    if (!context) return;
    cmsHPROFILE profile = cmsOpenProfileFromMemTHR(context, data, (cmsUInt32Number)size);
    if (profile) {
        cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", text,
                               (cmsUInt32Number)capacity);
        cmsCloseProfile(profile);
    }
    cmsDeleteContext(context);
}

size_t iw_icc_make_rgb(double white_x, double white_y, double red_x, double red_y,
                       double green_x, double green_y, double blue_x, double blue_y,
                       double gamma, const char *description, uint8_t *out, size_t capacity) {
    double parameters[1] = {gamma};
    return iw_icc_make_rgb_parametric(white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y, 1,
                                      parameters, description, out, capacity);
}

size_t iw_icc_make_rgb_parametric(double white_x, double white_y, double red_x, double red_y,
                                  double green_x, double green_y, double blue_x, double blue_y,
                                  int curve_type, const double *parameters, const char *description,
                                  uint8_t *out, size_t capacity) {
    cmsContext context = iw_context();
    if (!context) return 0;
    cmsCIExyY white = {white_x, white_y, 1.0};
    cmsCIExyYTRIPLE primaries = {{red_x, red_y, 1.0}, {green_x, green_y, 1.0}, {blue_x, blue_y, 1.0}};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(context, curve_type, parameters);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = curve ? cmsCreateRGBProfileTHR(context, &white, &primaries, curves) : NULL;
    cmsUInt32Number needed = 0;
    size_t result = 0;
    if (profile) {
        cmsMLU *mlu = cmsMLUalloc(context, 1);
        if (mlu && cmsMLUsetASCII(mlu, "en", "US", description)) cmsWriteTag(profile, cmsSigProfileDescriptionTag, mlu);
        if (mlu) cmsMLUfree(mlu);
        if (cmsSaveProfileToMem(profile, NULL, &needed) && needed <= capacity &&
            cmsSaveProfileToMem(profile, out, &needed))
            result = needed;
        cmsCloseProfile(profile);
    }
    if (curve) cmsFreeToneCurve(curve);
    cmsDeleteContext(context);
    return result;
}

int iw_lab_to_srgb(const uint8_t *in, int signed_ab, uint8_t *out, size_t pixels) {
    cmsContext context = iw_context();
    if (!context) return 1;
    cmsHPROFILE lab = cmsCreateLab4ProfileTHR(context, NULL);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    cmsHTRANSFORM transform = lab && srgb
        ? cmsCreateTransformTHR(context, lab, TYPE_Lab_8, srgb, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0)
        : NULL;
    int status = 1;
    uint8_t *chunk = transform ? malloc(3 * 4096) : NULL;
    if (chunk) {
        for (size_t done = 0; done < pixels; done += 4096) {
            size_t n = pixels - done < 4096 ? pixels - done : 4096;
            for (size_t i = 0; i < n; i++) {
                const uint8_t *p = in + 4 * (done + i);
                chunk[3 * i] = p[0];
                chunk[3 * i + 1] = signed_ab ? (uint8_t)(p[1] ^ 0x80) : p[1];
                chunk[3 * i + 2] = signed_ab ? (uint8_t)(p[2] ^ 0x80) : p[2];
            }
            cmsDoTransform(transform, chunk, out + 3 * done, (cmsUInt32Number)n);
        }
        status = 0;
    }
    free(chunk);
    if (transform) cmsDeleteTransform(transform);
    if (lab) cmsCloseProfile(lab);
    if (srgb) cmsCloseProfile(srgb);
    cmsDeleteContext(context);
    return status;
}

int iw_color_library_version(void) { return cmsGetEncodedCMMversion(); }
