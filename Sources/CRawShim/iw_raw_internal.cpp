// LibRaw keeps where it reads the preview only in its internal data, which the C API does not
// reach: this asks the LibRaw object behind the C API's handle.
#include <libraw.h>

#include "iw_raw_internal.h"

extern "C" long long iw_raw_preview_offset(libraw_data_t *raw) {
    LibRaw *owner = static_cast<LibRaw *>(raw->parent_class);
    return owner ? static_cast<long long>(owner->get_internal_data_pointer()->internal_data.toffset) : -1;
}
