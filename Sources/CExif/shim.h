#ifndef CEXIF_SHIM_H
#define CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>
#endif
