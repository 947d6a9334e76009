#ifndef IW_HEIF_H
#define IW_HEIF_H
/* HEIF and AVIF through libheif: the primary image's header, its decoding (or a thumbnail's)
   with every transformation libheif applies (irot, imir, clap), and encoding for the sample
   generator. Functions return 0 on success or 1, with libheif's message in `message`. */
#include <stddef.h>
#include <stdint.h>

typedef struct iw_heif_info {
    int width, height;          /* displayed: after irot/imir/clap */
    int has_alpha;
    int premultiplied_alpha;
    int luma_bits, chroma_bits;
    int icc_size;               /* bytes of an ICC profile (rICC/prof), 0 when none */
    int has_nclx;               /* nclx colour: the four fields below */
    int primaries, transfer, matrix, full_range;
    int thumbnails;             /* how many of the sizes below are filled */
    int thumbnail_width[4], thumbnail_height[4];
    int top_level_images;
    uint8_t *exif;              /* the first Exif item (TIFF structure), malloc'd; free with iw_heif_free_info */
    size_t exif_size;
} iw_heif_info;

void iw_heif_free_info(iw_heif_info *info);

/* 1 for a HEIF file (HEVC and others), 2 for AVIF, 0 for neither, from its first bytes. */
int iw_heif_sniff(const uint8_t *head, size_t size);

/* A file as libheif read it: its boxes and items (about 15 KB for a phone's photo, though libheif
   reads every item's data to make it). Its bytes are read through a descriptor of the caller's,
   so it can be kept without one between a probe and a decode. */
typedef struct iw_heif_file iw_heif_file;

/* Reads the file open on `descriptor`, `size` bytes long; NULL on failure, with the reason. */
iw_heif_file *iw_heif_open(int descriptor, int64_t size, char *message, size_t message_size);
/* The descriptor the file's bytes are read through from now on (the same file), or -1: none. */
void iw_heif_read_through(iw_heif_file *file, int descriptor);
void iw_heif_close(iw_heif_file *file);

int iw_heif_probe(iw_heif_file *file, iw_heif_info *info, char *message, size_t message_size);

/* Copies the ICC profile into `buffer` (`size` bytes, as iw_heif_probe said). */
int iw_heif_icc(iw_heif_file *file, uint8_t *buffer, size_t size, char *message, size_t message_size);

typedef struct iw_heif_decoded {
    int width, height, channels;
    const uint8_t *icc;         /* the primary image's ICC profile, or NULL */
    size_t icc_size;
    int has_nclx;               /* nclx colour of the primary image: */
    int primaries, transfer;
    void *owner;                /* libheif's image: one interleaved plane or R, G, B (and A) */
} iw_heif_decoded;

/* Decodes the smallest thumbnail at least min_width x min_height, else the primary image,
   to 8-bit RGB(A): an 8-bit image kept in libheif's planes (a phone's grid is assembled in
   them), a deeper one converted to 8 bits by libheif. Take its rows with iw_heif_row; release
   with iw_heif_release, before the file is closed. */
int iw_heif_decode(iw_heif_file *file, int min_width, int min_height, iw_heif_decoded *out,
                   char *message, size_t message_size);
/* Row `y` as interleaved RGB(A) with straight alpha: in libheif's image when it is stored so,
   else written to `scratch` (width * channels bytes). */
const uint8_t *iw_heif_row(const iw_heif_decoded *decoded, int y, uint8_t *scratch);
void iw_heif_release(iw_heif_decoded *decoded);

typedef struct iw_heif_encode_options {
    int av1;                    /* AV1 (AVIF) instead of HEVC */
    int quality;                /* 0-100 */
    int lossless;
    int thumbnail;              /* longest side of an embedded thumbnail, 0 for none */
    int orientation;            /* EXIF numbering 1-8: stored as given, shown turned by irot/imir */
    const uint8_t *icc;
    size_t icc_size;
    int fast;                   /* the encoder's fastest setting (x265 ultrafast, libaom speed 9) */
    int nclx_primaries;         /* nclx colour to record (0: libheif's default) */
    int nclx_transfer;
    int premultiplied;          /* RGBA given premultiplied, and recorded so (prem) */
} iw_heif_encode_options;

/* Writes `pixels` (RGB or RGBA, 8 bits, tightly packed) to `path`. */
int iw_heif_encode(const char *path, const uint8_t *pixels, int width, int height, int channels,
                   const iw_heif_encode_options *options, char *message, size_t message_size);
/* The version of the libheif loaded (loading it), for the decode plans of HEIF files, which
   cache keys hold; "(not loaded)" when it cannot be loaded. */
const char *iw_heif_library_version(void);
/* The version of the headers this shim was built with, without loading libheif. */
const char *iw_heif_header_version(void);

#endif
