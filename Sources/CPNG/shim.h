#ifndef SCLM_CPNG_SHIM_H
#define SCLM_CPNG_SHIM_H

#include <string.h>

#include <png.h>

/// libpng's simplified-API constants as plain values (the `PNG_*` macros are expressions Swift does not import).
enum {
    SCLM_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION,
    SCLM_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA,
    SCLM_PNG_IMAGE_FLAG_FAST = PNG_IMAGE_FLAG_FAST,
};

/// A zeroed `png_image` of the current version, as the simplified API asks before a read or a write.
static inline png_image sclm_png_image(void) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    return image;
}

/// Whether the last call on `image` failed (`PNG_IMAGE_FAILED`: an error, not a warning).
static inline int sclm_png_failed(const png_image *image) { return PNG_IMAGE_FAILED(*image); }

#endif
