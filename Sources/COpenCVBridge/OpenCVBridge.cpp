// extern "C" bridge to OpenCV 4.6 (C++): Haar face/eye detection for selfie mode and the benchmark's reference
// pipeline. Exceptions never cross into Swift: each entry point catches everything and returns an error value.
#include "COpenCVBridge.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cstring>
#include <new>
#include <string>
#include <vector>

extern "C" const char *kyc_opencv_version(void) { return CV_VERSION; }

extern "C" void kyc_opencv_run_on_calling_thread(void) {
    try {
        cv::setNumThreads(1);
    } catch (...) {
    }
}

extern "C" int kyc_opencv_thread_count(void) {
    try {
        return cv::getNumThreads();
    } catch (...) {
        return -1;
    }
}

/* Width (pixels) the main face's upper half is resampled to before the eye search: eyes are then about 20-25 px,
 * just above the eye cascade's 20 px window, whatever the face's size in the frame. Searching a close face's eyes at
 * its own size cost more than the face search itself. */
static const int kEyeSearchFaceWidth = 100;
/* The eye cascade's native window (haarcascade_eye.xml is 20x20). */
static const int kEyeWindow = 20;

struct kyc_face_detector {
    cv::CascadeClassifier face;
    // A second face cascade for a search that asks for it (KYC_FACE_CASCADE_SECOND). Empty when not given.
    cv::CascadeClassifier secondFace;
    cv::CascadeClassifier eye;
    // Tried when `eye` finds nothing in a face: glasses frames hide eyes from the plain eye cascade. Empty when not
    // given.
    cv::CascadeClassifier eyeglasses;
    // Created on the first locally equalised search.
    cv::Ptr<cv::CLAHE> clahe;
    // Buffers reused between frames (reallocated only when a size grows): the (locally) equalised search image,
    // the resampled eye region, and the cascade's output vectors.
    cv::Mat equalized;
    cv::Mat eyeRegion;
    std::vector<cv::Rect> rects;
    std::vector<int> levels;
    std::vector<double> scores;
    std::vector<std::pair<cv::Rect, double>> found;
    std::vector<cv::Rect> eyeRects;
};

static void copy_error(char *error, size_t error_len, const std::string &text) {
    if (error == nullptr || error_len == 0) return;
    size_t n = std::min(error_len - 1, text.size());
    std::memcpy(error, text.data(), n);
    error[n] = '\0';
}

extern "C" kyc_face_detector *kyc_face_detector_create(const char *face_cascade_path,
                                                       const char *second_face_cascade_path,
                                                       const char *eye_cascade_path,
                                                       const char *eyeglasses_cascade_path, char *error,
                                                       size_t error_len) {
    try {
        auto *detector = new (std::nothrow) kyc_face_detector();
        if (detector == nullptr) {
            copy_error(error, error_len, "out of memory");
            return nullptr;
        }
        if (!detector->face.load(face_cascade_path)) {
            copy_error(error, error_len, std::string("cannot load face cascade ") + face_cascade_path);
            delete detector;
            return nullptr;
        }
        if (second_face_cascade_path != nullptr && !detector->secondFace.load(second_face_cascade_path)) {
            copy_error(error, error_len, std::string("cannot load face cascade ") + second_face_cascade_path);
            delete detector;
            return nullptr;
        }
        if (!detector->eye.load(eye_cascade_path)) {
            copy_error(error, error_len, std::string("cannot load eye cascade ") + eye_cascade_path);
            delete detector;
            return nullptr;
        }
        if (eyeglasses_cascade_path != nullptr && !detector->eyeglasses.load(eyeglasses_cascade_path)) {
            copy_error(error, error_len, std::string("cannot load eye cascade ") + eyeglasses_cascade_path);
            delete detector;
            return nullptr;
        }
        return detector;
    } catch (const std::exception &e) {
        copy_error(error, error_len, e.what());
        return nullptr;
    } catch (...) {
        copy_error(error, error_len, "unknown OpenCV error");
        return nullptr;
    }
}

extern "C" void kyc_face_detector_destroy(kyc_face_detector *detector) { delete detector; }

/* Eyes (0…2) in the upper half of `face` (in `image`'s pixels), searched at a fixed face scale. */
static int count_eyes(kyc_face_detector *detector, const cv::Mat &image, const cv::Rect &face) {
    cv::Rect upper(face.x, face.y, face.width, face.height / 2);
    upper &= cv::Rect(0, 0, image.cols, image.rows);
    if (upper.width < kEyeWindow || upper.height < kEyeWindow) return 0;
    cv::Mat region = image(upper);
    if (upper.width > kEyeSearchFaceWidth) {
        double f = (double)kEyeSearchFaceWidth / (double)upper.width;
        int height = std::max(1, (int)(upper.height * f));
        cv::resize(region, detector->eyeRegion, cv::Size(kEyeSearchFaceWidth, height), 0, 0, cv::INTER_AREA);
        region = detector->eyeRegion;
    }
    if (region.rows < kEyeWindow) return 0;
    int minEye = std::max(kEyeWindow, region.cols / 8), maxEye = std::max(minEye, region.cols / 2);
    detector->eye.detectMultiScale(region, detector->eyeRects, 1.1, 3, 0, cv::Size(minEye, minEye),
                                   cv::Size(maxEye, maxEye));
    if (detector->eyeRects.empty() && !detector->eyeglasses.empty()) {
        detector->eyeglasses.detectMultiScale(region, detector->eyeRects, 1.1, 3, 0, cv::Size(minEye, minEye),
                                              cv::Size(maxEye, maxEye));
    }
    return std::min((int)detector->eyeRects.size(), 2);
}

extern "C" int kyc_face_detect(kyc_face_detector *detector, const uint8_t *small, int small_width, int small_height,
                               int small_stride, const uint8_t *large, int large_width, int large_height,
                               int large_stride, int min_face, int max_face, double scale_step, int min_neighbors,
                               int equalize, int cascade, double min_score, kyc_face *faces, int max_faces) {
    if (detector == nullptr || small == nullptr || small_width <= 0 || small_height <= 0 || max_faces < 0) return -1;
    cv::CascadeClassifier &faceCascade = cascade == KYC_FACE_CASCADE_SECOND ? detector->secondFace : detector->face;
    if (faceCascade.empty()) return -1;
    try {
        // The Mats wrap the caller's buffers: no copy.
        cv::Mat smallImage(small_height, small_width, CV_8UC1, const_cast<uint8_t *>(small), (size_t)small_stride);
        cv::Mat largeImage = large != nullptr
            ? cv::Mat(large_height, large_width, CV_8UC1, const_cast<uint8_t *>(large), (size_t)large_stride)
            : smallImage;
        double scale = (double)largeImage.cols / (double)smallImage.cols;
        // An under-exposed face spans a few dozen grey levels and the cascade misses it; equalising spreads them
        // (tile by tile for a dark face before a bright background). Only on request, as a fallback: on a normal
        // frame it turns background texture into faces.
        cv::Mat searchImage = smallImage;
        if (equalize == KYC_FACE_SEARCH_EQUALIZED) {
            cv::equalizeHist(smallImage, detector->equalized);
            searchImage = detector->equalized;
        } else if (equalize == KYC_FACE_SEARCH_LOCALLY_EQUALIZED) {
            if (detector->clahe.empty()) detector->clahe = cv::createCLAHE(2.0, cv::Size(8, 8));
            detector->clahe->apply(smallImage, detector->equalized);
            searchImage = detector->equalized;
        }
        int minSize = std::max(min_face, 16);
        cv::Size maxSize = max_face > 0 ? cv::Size(std::max(max_face, minSize), std::max(max_face, minSize)) : cv::Size();
        // With reject levels the cascade reports, per face, its final stage's sum: how far the face cleared the last
        // (strictest) stage. Texture that just scrapes through scores near or below zero, faces well above.
        faceCascade.detectMultiScale(searchImage, detector->rects, detector->levels, detector->scores,
                                        std::max(scale_step, 1.01), std::max(min_neighbors, 1), 0,
                                        cv::Size(minSize, minSize), maxSize, true);
        auto &found = detector->found;
        found.clear();
        for (size_t i = 0; i < detector->rects.size() && i < detector->scores.size(); i++) {
            if (detector->scores[i] >= min_score) found.emplace_back(detector->rects[i], detector->scores[i]);
        }
        // Largest first; equal sizes by score, then position, so the main face never depends on the cascade's
        // candidate order.
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
            if (a.first.area() != b.first.area()) return a.first.area() > b.first.area();
            if (a.second != b.second) return a.second > b.second;
            if (a.first.x != b.first.x) return a.first.x < b.first.x;
            return a.first.y < b.first.y;
        });
        int count = std::min((int)found.size(), max_faces);
        for (int i = 0; i < count; i++) {
            const cv::Rect &r = found[i].first;
            // Eyes are counted in every face written: the caller uses them to tell faces from face-like texture.
            cv::Rect inLarge((int)(r.x * scale), (int)(r.y * scale), (int)(r.width * scale), (int)(r.height * scale));
            int eyes = count_eyes(detector, largeImage, inLarge);
            faces[i] = kyc_face{r.x, r.y, r.width, r.height, eyes, found[i].second};
        }
        return count;
    } catch (...) {
        return -1;
    }
}

extern "C" int kyc_rotate_gray(const uint8_t *src, int width, int height, int src_stride, double degrees,
                               uint8_t *dst, int dst_stride) {
    if (src == nullptr || dst == nullptr || width <= 0 || height <= 0) return -1;
    try {
        cv::Mat source(height, width, CV_8UC1, const_cast<uint8_t *>(src), (size_t)src_stride);
        cv::Mat target(height, width, CV_8UC1, dst, (size_t)dst_stride);
        cv::Point2f centre((float)(width - 1) / 2.0f, (float)(height - 1) / 2.0f);
        cv::Mat turn = cv::getRotationMatrix2D(centre, degrees, 1.0);
        cv::warpAffine(source, target, turn, target.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
        return target.data == dst ? 0 : -1;
    } catch (...) {
        return -1;
    }
}

extern "C" int kyc_reference_pipeline(const uint8_t *jpeg, size_t length, int work_long_side,
                                      kyc_reference_result *result) {
    if (jpeg == nullptr || length == 0 || result == nullptr) return -1;
    try {
        cv::Mat encoded(1, (int)length, CV_8UC1, const_cast<uint8_t *>(jpeg));
        cv::Mat color = cv::imdecode(encoded, cv::IMREAD_COLOR);
        if (color.empty()) return -1;
        cv::Mat gray;
        cv::cvtColor(color, gray, cv::COLOR_BGR2GRAY);
        if (work_long_side > 0 && std::max(gray.cols, gray.rows) > work_long_side) {
            double f = (double)work_long_side / (double)std::max(gray.cols, gray.rows);
            cv::Mat small;
            cv::resize(gray, small, cv::Size(), f, f, cv::INTER_AREA);
            gray = small;
        }
        cv::Scalar mean, stddev;
        cv::meanStdDev(gray, mean, stddev);
        cv::Mat laplacian;
        cv::Laplacian(gray, laplacian, CV_16S);
        cv::Scalar lapMean, lapStd;
        cv::meanStdDev(laplacian, lapMean, lapStd);
        cv::Mat saturated;
        cv::threshold(gray, saturated, 249, 255, cv::THRESH_BINARY);
        int saturatedCount = cv::countNonZero(saturated);
        cv::Mat edges;
        cv::Canny(gray, edges, 50, 150);
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(edges, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        int quads = 0;
        std::vector<cv::Point> polygon;
        for (const auto &contour : contours) {
            double perimeter = cv::arcLength(contour, true);
            cv::approxPolyDP(contour, polygon, 0.02 * perimeter, true);
            if (polygon.size() == 4 && cv::isContourConvex(polygon)) quads++;
        }
        *result = kyc_reference_result{gray.cols, gray.rows, mean[0], stddev[0], lapStd[0], saturatedCount,
                                       (int)contours.size(), quads};
        return 0;
    } catch (...) {
        return -1;
    }
}
