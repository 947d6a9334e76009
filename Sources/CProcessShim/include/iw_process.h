#ifndef IW_PROCESS_H
#define IW_PROCESS_H
/* Process-wide settings and signal handling the command line applies at start. */

/* Serve allocations of at least `mmap_bytes` with their own mappings, returned to the system
   when freed (glibc's mmap threshold, fixed instead of growing), and keep up to `trim_bytes`
   freed at the top of a heap for the next allocations instead of returning it at once (its trim
   threshold). Returns 0 where unsupported. */
int iw_set_malloc_thresholds(int mmap_bytes, int trim_bytes);

/* SIGINT, SIGTERM and SIGHUP: the first sets the interrupted flag (the render stops at its
   next check and removes its temporary files); the second removes every registered temporary
   file from the handler and exits with 128 + the signal number. */
void iw_install_interrupt_handlers(void);
int iw_interrupted(void);

/* Temporary files the second signal must remove; returns a slot, or -1 when full. */
int iw_register_temporary(const char *path);
void iw_unregister_temporary(int slot);

#endif
