#ifndef IW_EXIV_H
#define IW_EXIV_H
/* A RAW file's own metadata and embedded previews through Exiv2: the camera's EXIF (make, model,
   lens, exposure, when it was taken) of every RAW file, and the previews of files LibRaw 0.20
   cannot read (CR3 bodies after 2019). A file cut short is read as far as Exiv2 got before it
   stopped: the metadata and previews that lie before the cut. Exiv2's exceptions are caught and
   its log is muted: reasons are returned, never printed. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct iw_exiv_metadata {
    int orientation;          /* the EXIF orientation, 1 when absent */
    char make[64];            /* Exif.Image.Make, "NIKON CORPORATION"; empty when absent */
    char model[96];           /* Exif.Image.Model, "NIKON D7100" */
    char lens[96];            /* the lens's model (Exif.Photo.LensModel, else as Exiv2 names it) */
    int lens_guessed;         /* 1 when `lens` is Exiv2's name for a maker note's lens number */
    double lens_shortest, lens_longest; /* the lens's focal lengths in mm, as recorded; 0 when not */
    char date[20];            /* DateTimeOriginal, "YYYY:MM:DD HH:MM:SS" as written; empty when absent */
    char offset[8];           /* OffsetTimeOriginal, "+02:00"; empty when absent */
    int exposure_numerator;   /* ExposureTime as recorded; 0/0 when absent */
    int exposure_denominator;
    double f_number;          /* 0 when absent */
    int iso;                  /* 0 when absent */
    double focal_length;      /* millimetres; 0 when absent */
    int pixel_width, pixel_height; /* EXIF's PixelXDimension and PixelYDimension; 0 when absent */
    int rating;               /* 0-5 stars; -1 when absent */
    int rejected;             /* 1 when XMP's xmp:Rating is -1, a photo organiser's reject */
    char stopped[160];        /* why Exiv2 stopped reading part-way (a file cut short); empty when it did not */
    /* What the photo shows, as its author wrote it: XMP dc:description (x-default), else the IPTC
       caption, else EXIF ImageDescription, as stored (XMP is UTF-8; the others may not be); empty
       when none. Cut at the field's size. */
    char description[1024];
    int description_from;     /* 1 XMP, 2 IPTC, 3 EXIF; 0 when there is none */
    int has_location;         /* 1 when EXIF's GPS latitude and longitude are both there and valid */
    double latitude, longitude; /* degrees, north and east positive */
    int has_altitude;
    double altitude;          /* metres above sea level */
    /* Regions a photo organiser or a phone marked (XMP MWG regions, else Microsoft People Tags), as
       the picture is shown: left, top, width, height as shares of its width and height (0-1). Faces
       first; at most 16. */
    int region_count;
    double regions[16][4];
    int region_is_face[16];
    /* The largest whole JPEG preview, when asked for and found. */
    int preview_width, preview_height; /* as Exiv2 reads them from the metadata; 0 when it does not say */
    size_t preview_length;
} iw_exiv_metadata;

/* Reads the metadata of the file at `path` into `metadata`, and when `bytes` is not NULL its
   largest JPEG preview of at most `max_length` bytes into a malloc'd copy (the caller frees it;
   NULL with the reason in `message` when there is none). Returns 0 when Exiv2 read the file
   (maybe part of it: see `stopped`); 1 when it cannot read it at all, with the reason. */
int iw_exiv_read(const char *path, size_t max_length, unsigned char **bytes, iw_exiv_metadata *metadata,
                 char *message, size_t message_size);

/* "0.27.6". */
const char *iw_exiv_version(void);

#ifdef __cplusplus
}
#endif
#endif
