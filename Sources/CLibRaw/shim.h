#include <libraw.h>
