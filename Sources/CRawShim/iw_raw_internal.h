#ifndef IW_RAW_INTERNAL_H
#define IW_RAW_INTERNAL_H
#include <libraw.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Where LibRaw reads the preview from in the file, after libraw_unpack_thumb; -1 if unknown. */
long long iw_raw_preview_offset(libraw_data_t *raw);
#ifdef __cplusplus
}
#endif
#endif
