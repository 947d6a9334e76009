#ifndef IW_STILL_H
#define IW_STILL_H
/* Still images through FFmpeg's image decoders (BMP, TGA, PSD, OpenEXR, DDS, QOI, PCX, SGI, PNM,
   XBM, XWD, FITS, JPEG-LS, and JPEG 2000 through OpenJPEG): a whole file decoded as one picture
   on one thread, then converted to 8-bit RGB or RGBA the same way on every CPU (libswscale's
   bit-exact conversions at the same size; floating-point samples by the table below). FFmpeg's
   log is silenced: its messages are returned, never printed. */
#include <stddef.h>

typedef struct iw_still_info {
    int width, height;      /* the decoded picture */
    int has_alpha;          /* its pixel format carries alpha */
    int is_float;           /* its samples are floating point (OpenEXR, PFM) */
    int damaged;            /* the decoder reported damaged data but gave a picture */
    char problem[160];      /* what it reported, when it did */
    char pixel_format[32];  /* FFmpeg's name for it: "rgb24", "gbrpf32le", "pal8" */
} iw_still_info;

typedef struct iw_still iw_still;

/* Decodes the picture in `data` (a whole file, followed by 64 zero bytes the decoders may read
   past its end) with FFmpeg's decoder named `decoder` ("bmp", "psd", "libopenjpeg"). Pictures
   over `max_pixels` are refused from their size, before their pixels are allocated; `lowres`
   halves each side that many times where the decoder can (JPEG 2000). Returns the picture (free
   it with iw_still_close) or NULL with the reason in `message`. */
iw_still *iw_still_decode(const unsigned char *data, size_t size, const char *decoder, long long max_pixels,
                          int lowres, iw_still_info *info, char *message, size_t message_size);

/* Converts the picture to 8-bit a band of rows at a time, so that no whole 8-bit copy of it is
   held: iw_still_convert_start prepares the conversion to `channels` (3 RGB, 4 RGBA with straight
   alpha; alpha dropped or made opaque as `channels` asks) and surveys floating-point samples (see
   iw_still_float_samples). Floating-point samples are clipped to 0...1; with `linear` they are
   taken as linear light and encoded as sRGB, without it as already encoded. `samples_as`, when
   not NULL, is FFmpeg's name for the layout the picture's bytes really have where the decoder
   names them wrongly ("ya8" for a 16-bit grey TGA, which `targa` calls rgb555le); it must take
   as many bytes a pixel in one plane. iw_still_convert_rows then writes rows `first` to
   `first + rows - 1` into `out` (rows x width x `channels` bytes), called for consecutive bands
   from the top; iw_still_band_height gives the rows a band may have, `wanted` or, where
   libswscale needs the rows below a row to convert it (chroma subsampled vertically), the whole
   picture. Every band height gives the same bytes. Return 0, or 1 with the reason in `message`. */
int iw_still_convert_start(iw_still *still, int channels, int linear, const char *samples_as, char *message,
                           size_t message_size);
int iw_still_band_height(const iw_still *still, int wanted);
int iw_still_convert_rows(iw_still *still, int first, int rows, unsigned char *out, char *message,
                          size_t message_size);

/* What the floating-point samples of a picture iw_still_convert_start surveyed held: 8-bit codes in
   floats (whole numbers from 0 to 255, some past 1), drawn as those codes; else the share of
   colour samples past 1 (white), clipped. All zero for a picture of integer samples. */
typedef struct iw_still_floats {
    int codes;
    float largest;
    double clipped;
} iw_still_floats;

iw_still_floats iw_still_float_samples(const iw_still *still);

/* Encodes `count` samples of linear light as sRGB codes (0...1 clipped), the same way as the
   floating-point pictures above and on every CPU: for formats read by other libraries
   (Radiance HDR through OpenCV). Needs no FFmpeg. */
void iw_encode_linear_light(const float *samples, size_t count, unsigned char *codes);

/* The survey behind iw_still_floats, for pictures read a band at a time by other libraries
   (OpenEXR): every colour sample added, then the result taken. */
typedef struct iw_float_survey {
    long long samples, bright;
    float largest;
    int not_codes;
} iw_float_survey;

void iw_float_survey_add(iw_float_survey *survey, float value);
iw_still_floats iw_float_survey_result(const iw_float_survey *survey);

/* The colour samples of `pixels` RGBA floats added to `survey`. */
void iw_survey_rgba_floats(const float *rgba, size_t pixels, iw_float_survey *survey);

/* `pixels` RGBA floats of linear light as `channels` (3 or 4) 8-bit codes each, as
   iw_still_convert_rows converts floating-point pictures (`codes`: the samples are 8-bit codes). */
void iw_encode_rgba_floats(const float *rgba, size_t pixels, int channels, int codes, unsigned char *out);

void iw_still_close(iw_still *still);
#endif
