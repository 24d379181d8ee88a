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

struct kyc_face_detector {
    cv::CascadeClassifier face;
    cv::CascadeClassifier eye;
    // The histogram-equalised search image, reused between frames (reallocated only when the size changes).
    cv::Mat equalized;
};

static void copy_error(char *error, size_t error_len, const std::string &text) {
    if (error == nullptr || error_len == 0) return;
    size_t n = std::min(error_len - 1, text.size());
    std::memcpy(error, text.data(), n);
    error[n] = '\0';
}

extern "C" kyc_face_detector *kyc_face_detector_create(const char *face_cascade_path, const char *eye_cascade_path,
                                                       char *error, size_t error_len) {
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
        if (!detector->eye.load(eye_cascade_path)) {
            copy_error(error, error_len, std::string("cannot load eye cascade ") + eye_cascade_path);
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

extern "C" int kyc_face_detect(kyc_face_detector *detector, const uint8_t *small, int small_width, int small_height,
                               int small_stride, const uint8_t *large, int large_width, int large_height,
                               int large_stride, int min_face, int max_face, double scale_step, int equalize,
                               double min_score, kyc_face *faces, int max_faces) {
    if (detector == nullptr || small == nullptr || small_width <= 0 || small_height <= 0 || max_faces < 0) return -1;
    try {
        // The Mats wrap the caller's buffers: no copy.
        cv::Mat smallImage(small_height, small_width, CV_8UC1, const_cast<uint8_t *>(small), (size_t)small_stride);
        cv::Mat largeImage = large != nullptr
            ? cv::Mat(large_height, large_width, CV_8UC1, const_cast<uint8_t *>(large), (size_t)large_stride)
            : smallImage;
        double scale = (double)largeImage.cols / (double)smallImage.cols;
        // An under-exposed face spans a few dozen grey levels and the cascade misses it; equalising spreads them.
        // Only on request (dark frames): on a normal frame it turns background texture into faces.
        cv::Mat searchImage = smallImage;
        if (equalize) {
            cv::equalizeHist(smallImage, detector->equalized);
            searchImage = detector->equalized;
        }
        std::vector<cv::Rect> rects;
        std::vector<int> levels;
        std::vector<double> scores;
        int minSize = std::max(min_face, 16);
        cv::Size maxSize = max_face > 0 ? cv::Size(std::max(max_face, minSize), std::max(max_face, minSize)) : cv::Size();
        // With reject levels the cascade reports, per face, its final stage's sum: how far the face cleared the last
        // (strictest) stage. Texture that just scrapes through scores near or below zero, faces well above.
        detector->face.detectMultiScale(searchImage, rects, levels, scores, std::max(scale_step, 1.01), 4, 0,
                                        cv::Size(minSize, minSize),
                                        maxSize, true);
        std::vector<std::pair<cv::Rect, double>> found;
        for (size_t i = 0; i < rects.size() && i < scores.size(); i++) {
            if (scores[i] >= min_score) found.emplace_back(rects[i], scores[i]);
        }
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first.area() > b.first.area(); });
        int count = std::min((int)found.size(), max_faces);
        for (int i = 0; i < count; i++) {
            const cv::Rect &r = found[i].first;
            // Eyes sit in the upper part of the face; search there only, at the larger scale.
            cv::Rect upper((int)(r.x * scale), (int)(r.y * scale), (int)(r.width * scale), (int)(r.height * scale * 0.6));
            upper &= cv::Rect(0, 0, largeImage.cols, largeImage.rows);
            int eyes = 0;
            if (upper.width >= 24 && upper.height >= 12) {
                std::vector<cv::Rect> eyeRects;
                int minEye = std::max(8, upper.width / 8);
                detector->eye.detectMultiScale(largeImage(upper), eyeRects, 1.1, 3, 0, cv::Size(minEye, minEye),
                                               cv::Size(upper.width / 2, upper.width / 2));
                eyes = std::min((int)eyeRects.size(), 2);
            }
            faces[i] = kyc_face{r.x, r.y, r.width, r.height, eyes, found[i].second};
        }
        return count;
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
