#ifndef IW_TIFF_H
#define IW_TIFF_H
/* TIFF through libtiff: directories (pages and reduced-resolution levels), their tags, and
   pixels read in bands of rows through TIFFRGBAImage (every photometric libtiff converts) or,
   for CMYK that a colour profile should convert, as raw 8-bit CMYK. libtiff's messages are
   caught per file, never printed. */
#include <stddef.h>
#include <stdint.h>

typedef struct iw_tiff iw_tiff;

/* Opens `path` (mapped, read-only), refusing any single allocation over max_alloc bytes.
   NULL on failure, with the reason in `message`. */
iw_tiff *iw_tiff_open(const char *path, size_t max_alloc, char *message, size_t message_size);
void iw_tiff_close(iw_tiff *tiff);
/* The first error libtiff reported, "" when none. */
const char *iw_tiff_message(const iw_tiff *tiff);
void iw_tiff_clear_message(iw_tiff *tiff);

typedef struct iw_tiff_directory {
    uint32_t width, height;
    uint16_t bits, samples, sample_format, photometric, compression, planar, orientation;
    uint16_t inkset, alpha;          /* alpha: 0 none, 1 associated, 2 unassociated */
    uint32_t subfile_type;           /* bit 0: a reduced-resolution version of another image */
    int tiled;
    uint32_t band_rows;              /* rows per strip or tile height */
    uint32_t icc_size;
    char datetime[20];               /* DateTime, "YYYY:MM:DD HH:MM:SS", or "" */
    int readable;                    /* TIFFRGBAImageOK */
    char reason[256];                /* why not readable */
} iw_tiff_directory;

/* Reads the current directory's tags. */
int iw_tiff_directory_info(iw_tiff *tiff, iw_tiff_directory *directory);
/* Moves to the next directory in the chain: 0 moved, 1 at the end (or a loop, or damage). */
int iw_tiff_next_directory(iw_tiff *tiff);
/* Moves to directory `index` (0-based). */
int iw_tiff_set_directory(iw_tiff *tiff, int index);
/* The current directory's ICC profile, pointing into libtiff's memory. */
int iw_tiff_icc(iw_tiff *tiff, const uint8_t **profile, uint32_t *size);

typedef struct iw_tiff_reader iw_tiff_reader;
/* Starts reading the current directory: RGBA through TIFFRGBAImage, or with `raw` set the
   first four samples of each pixel as stored (8 or 16 bits, contiguous; 16-bit samples keep
   their high byte; a pixel with fewer samples is padded with 0), for CMYK and CIE L*a*b*,
   which ImageWall converts itself. The orientation tag is not applied. */
iw_tiff_reader *iw_tiff_begin(iw_tiff *tiff, int raw, char *message, size_t message_size);
/* Reads rows [row, row + rows) into `out` (width x 4 bytes a row): RGBA with straight alpha,
   or the raw samples. 0 on success, 1 on a read error (the rows are then unspecified). */
int iw_tiff_read(iw_tiff_reader *reader, uint32_t row, uint32_t rows, uint8_t *out);
void iw_tiff_end(iw_tiff_reader *reader);

typedef struct iw_tiff_page {
    const uint8_t *pixels;   /* samples, rows packed; 16-bit samples in the machine's byte order */
    uint32_t width, height;
    int channels, bits;      /* channels 1 grey, 3 RGB, 4 RGBA or CMYK */
    int cmyk, palette, tiled;
    uint32_t tile_width, tile_height;
    int compression;         /* a COMPRESSION_* value */
    int orientation;
    const uint16_t *colormap; /* for palette: 3 x 2^bits entries, 16-bit */
    const uint8_t *icc;
    uint32_t icc_size;
} iw_tiff_page;

/* Writes pages to `path` (the sample generator). */
int iw_tiff_write(const char *path, const iw_tiff_page *pages, int count, char *message, size_t message_size);
/* The version of the library this shim was built against (for cache keys). */
const char *iw_tiff_library_version(void);

#endif
