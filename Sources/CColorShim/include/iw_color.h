#ifndef IW_COLOR_H
#define IW_COLOR_H
/* LittleCMS at the edge: embedded ICC profiles to sRGB. */
#include <stddef.h>
#include <stdint.h>

/* What the pixels handed to iw_icc_to_srgb are. */
enum {
    IW_ICC_RGB = 0,           /* 3 bytes a pixel, to 3 */
    IW_ICC_RGBA = 1,          /* 4 bytes a pixel, alpha copied, to 4 */
    IW_ICC_CMYK = 2,          /* 4 bytes a pixel, to 3 RGB */
    IW_ICC_CMYK_INVERTED = 3  /* as Adobe stores it (0 = full ink), to 3 RGB */
};

/* Results. */
enum {
    IW_ICC_DONE = 0,
    IW_ICC_ALREADY_SRGB = 1,  /* nothing to do; `out` untouched */
    IW_ICC_UNREADABLE = 2,
    IW_ICC_MISMATCH = 3,      /* the profile's colour space is not the pixels' */
    IW_ICC_FAILED = 4
};

/* Converts `pixels` pixels from the profile's space to sRGB (relative colorimetric with black
   point compensation, as the perceptual intent falls back to for matrix profiles). `out` may
   be `in` for RGB and RGBA. */
int iw_icc_to_srgb(const uint8_t *profile, size_t size, int kind, const uint8_t *in, uint8_t *out,
                   size_t pixels);

/* Converts `pixels` CIE L*a*b* pixels (4 bytes each: L scaled to 0-255, a, b, unused; a and b
   two's complement when `signed_ab`, else offset by 128) to sRGB, 3 bytes a pixel. 0 on success. */
int iw_lab_to_srgb(const uint8_t *in, int signed_ab, uint8_t *out, size_t pixels);

/* The profile's description ("Adobe RGB (1998)"), or "" when it has none. */
void iw_icc_description(const uint8_t *profile, size_t size, char *text, size_t capacity);

/* Writes an RGB matrix/TRC profile with the given D65-relative white and primaries (CIE xy)
   and a pure gamma; returns its size (0 on failure, or when `capacity` is too small). */
size_t iw_icc_make_rgb(double white_x, double white_y, double red_x, double red_y,
                       double green_x, double green_y, double blue_x, double blue_y,
                       double gamma, const char *description, uint8_t *out, size_t capacity);

/* The same with a parametric tone curve of LittleCMS `type` (1: gamma; 4: the sRGB curve's
   shape) and its parameters, e.g. to express a HEIF file's nclx colour as a profile. */
size_t iw_icc_make_rgb_parametric(double white_x, double white_y, double red_x, double red_y,
                                  double green_x, double green_y, double blue_x, double blue_y,
                                  int curve_type, const double *parameters, const char *description,
                                  uint8_t *out, size_t capacity);

/* The version of the library this shim was built against (for cache keys). */
int iw_color_library_version(void);

#endif
