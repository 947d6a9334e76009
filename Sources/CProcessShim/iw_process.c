#include "iw_process.h"

#include <stdlib.h> /* defines __GLIBC__ where it applies */

#if defined(__GLIBC__)
#include <malloc.h>
int iw_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
int iw_set_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}
#endif
