#include "iw_library.h"

#include <dlfcn.h>
#include <stdio.h>

int iw_open_libraries(const char *what, const char *const sonames[], void *handles[], int count, char *failure,
                      size_t failure_size) {
    for (int i = 0; i < count; i++) {
        handles[i] = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *reason = dlerror();
            snprintf(failure, failure_size, "%s cannot be loaded (%s)", what, reason ? reason : sonames[i]);
            return 0;
        }
    }
    return 1;
}

int iw_find_function(void *library, const char *name, void **slot, const char *lacking, char *failure,
                     size_t failure_size) {
    if ((*slot = dlsym(library, name)) != NULL) return 1;
    snprintf(failure, failure_size, "%s %s", lacking, name);
    return 0;
}

int iw_library_failure(const char *failure, char *message, size_t message_size) {
    if (!failure[0]) return 0;
    if (message_size) snprintf(message, message_size, "%s", failure);
    return 1;
}
