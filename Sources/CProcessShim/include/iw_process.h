#ifndef IW_PROCESS_H
#define IW_PROCESS_H
/* Process-wide settings the command line applies at start. */

/* Serve allocations of at least `bytes` with their own mappings, returned to the system when
   freed (glibc's mmap threshold, fixed instead of growing). Returns 0 where unsupported. */
int iw_set_mmap_threshold(int bytes);

#endif
