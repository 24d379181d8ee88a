// extern "C" bridge to OpenCV (C++). Functions are added here by the capture engine work (issue #5).
#include "COpenCVBridge.h"

#include <opencv2/core.hpp>

extern "C" const char *kyc_opencv_version(void) { return CV_VERSION; }
