#ifndef IW_EXIV_H
#define IW_EXIV_H
/* Embedded previews through Exiv2's preview manager: the second reader of RAW files, for
   cameras LibRaw 0.20 does not know (CR3 bodies after 2019) whose previews Exiv2 still finds.
   Exiv2's exceptions are caught and its log is muted: the reason is returned, never printed. */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct iw_exiv_preview {
    int width, height; /* as Exiv2 reads them from the metadata; 0 when it does not say */
    int orientation;   /* the EXIF orientation of the file, 1 when absent */
    size_t length;     /* bytes in the preview */
    char camera[96];   /* "Canon EOS R6", from the EXIF make and model; empty when absent */
} iw_exiv_preview;

/* Finds the largest JPEG preview of the file at `path` (of at most `max_length` bytes) and sets
   `bytes` to a copy of it (malloc'd; the caller frees it). Returns 0; 1 when Exiv2 cannot read
   the file or finds no JPEG preview, with the reason in `message` (the camera named in `preview`
   when Exiv2 could read the metadata). */
int iw_exiv_largest_preview(const char *path, size_t max_length, unsigned char **bytes, iw_exiv_preview *preview,
                            char *message, size_t message_size);

/* "0.27.6". */
const char *iw_exiv_version(void);

#ifdef __cplusplus
}
#endif
#endif
