#include "iw_process.h"

#include <stdlib.h> /* defines __GLIBC__ where it applies */

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
int iw_set_malloc_thresholds(int mmap_bytes, int trim_bytes) {
    return mallopt(M_MMAP_THRESHOLD, mmap_bytes) && mallopt(M_TRIM_THRESHOLD, trim_bytes);
}
#else
int iw_set_malloc_thresholds(int mmap_bytes, int trim_bytes) {
    (void)mmap_bytes;
    (void)trim_bytes;
    return 0;
}
#endif

#define IW_SLOTS 64
#define IW_PATH 4096

static volatile sig_atomic_t iw_signals = 0;
static char iw_paths[IW_SLOTS][IW_PATH];
static volatile sig_atomic_t iw_used[IW_SLOTS];
static pthread_mutex_t iw_lock = PTHREAD_MUTEX_INITIALIZER;

static void iw_handle(int signal_number) {
    iw_signals += 1;
    if (iw_signals == 1) {
        static const char text[] = "\ninterrupted: stopping and removing partial output (again to quit at once)\n";
        (void)!write(2, text, sizeof text - 1);
        return;
    }
    for (int i = 0; i < IW_SLOTS; i++)
        if (iw_used[i]) unlink(iw_paths[i]);
    _exit(128 + signal_number);
}

void iw_install_interrupt_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = iw_handle;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    /* A parent may have started us with these blocked (the mask is inherited across exec):
       unblock them, or the handlers would never run. */
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGINT);
    sigaddset(&handled, SIGTERM);
    sigaddset(&handled, SIGHUP);
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
}

int iw_interrupted(void) { return iw_signals > 0; }

int iw_register_temporary(const char *path) {
    if (strlen(path) >= IW_PATH) return -1;
    pthread_mutex_lock(&iw_lock);
    int slot = -1;
    for (int i = 0; i < IW_SLOTS && slot < 0; i++) {
        if (!iw_used[i]) {
            strcpy(iw_paths[i], path);
            iw_used[i] = 1;
            slot = i;
        }
    }
    pthread_mutex_unlock(&iw_lock);
    return slot;
}

void iw_unregister_temporary(int slot) {
    if (slot < 0 || slot >= IW_SLOTS) return;
    pthread_mutex_lock(&iw_lock);
    iw_used[slot] = 0;
    pthread_mutex_unlock(&iw_lock);
}
