/* A small C face over the OpenCV 4.6 modules the capture engine and its benchmark use (issue #5). */
#ifndef COPENCVBRIDGE_H
#define COPENCVBRIDGE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Returns the OpenCV version string, e.g. "4.6.0". */
const char *kyc_opencv_version(void);
#ifdef __cplusplus
}
#endif
#endif
