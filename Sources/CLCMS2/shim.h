#include <lcms2.h>
