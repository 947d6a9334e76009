/* OpenEXR's C header (its C++ ones are used by CEXRShim): here for pkg-config's flags. */
#include <ImfCRgbaFile.h>
