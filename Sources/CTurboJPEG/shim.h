#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#endif
