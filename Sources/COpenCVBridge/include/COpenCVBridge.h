/* A small C face over the OpenCV 4.6 modules the capture engine and its benchmark use (issue #5).
 * Every function catches C++ exceptions and reports failure as a return value: nothing unwinds into Swift. */
#ifndef COPENCVBRIDGE_H
#define COPENCVBRIDGE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Returns the OpenCV version string, e.g. "4.6.0". */
const char *kyc_opencv_version(void);

/* Makes OpenCV run every function on the calling thread (cv::setNumThreads(1): a TBB arena of one), for the whole
 * process. The engine leaves OpenCV's pool on (a face search then spreads over idle cores: ~14 instead of ~22 ms per
 * selfie here); the benchmark turns it off so that every column is one thread's cost. */
void kyc_opencv_run_on_calling_thread(void);

/* OpenCV's thread count (cv::getNumThreads(): 1 when it runs on the calling thread), or -1 on an error. */
int kyc_opencv_thread_count(void);

/* A face Haar cascade (and optionally a second one) with the eye cascades, loaded once. Not thread-safe: one detector
 * per thread. */
typedef struct kyc_face_detector kyc_face_detector;

/* Loads the cascades; `second_face_cascade_path` (may be NULL) is a face cascade a search can ask for instead
 * (KYC_FACE_CASCADE_SECOND), sharing the eye cascades and buffers; `eyeglasses_cascade_path` (may be NULL) is the eye
 * cascade tried in a face where the first finds no eye. NULL on failure with a reason in `error` (NUL-terminated, at
 * most error_len bytes). */
kyc_face_detector *kyc_face_detector_create(const char *face_cascade_path, const char *second_face_cascade_path,
                                            const char *eye_cascade_path, const char *eyeglasses_cascade_path,
                                            char *error, size_t error_len);
/* Frees the detector; NULL is ignored. */
void kyc_face_detector_destroy(kyc_face_detector *detector);

/* One face in the coordinates of the image faces were searched in, with the eyes found inside it (0…2) and the
 * cascade's score for it (its last stage's sum: how clearly it passed the strictest stage). */
typedef struct {
    int x, y, width, height, eyes;
    double score;
} kyc_face;

/* How kyc_face_detect spreads the search image's grey levels first (into a buffer the detector owns). */
enum {
    KYC_FACE_SEARCH_AS_IS = 0,
    /* Histogram-equalised over the whole image: for under-exposed frames. */
    KYC_FACE_SEARCH_EQUALIZED = 1,
    /* Contrast-limited adaptive equalisation (CLAHE, 8x8 tiles, clip limit 2): each region's levels spread on their
     * own, for a dark face before a bright background that whole-image equalisation leaves dark. */
    KYC_FACE_SEARCH_LOCALLY_EQUALIZED = 2,
};

/* Which face cascade kyc_face_detect searches with. */
enum {
    KYC_FACE_CASCADE_FIRST = 0,
    /* The detector's second face cascade (kyc_face_detect returns -1 when it was created without one). */
    KYC_FACE_CASCADE_SECOND = 1,
};

/* Finds faces (at least min_face and, when max_face > 0, at most max_face pixels wide) in `small` (8-bit gray,
 * `small_stride` bytes per row; its grey levels first spread as `equalize`, one of the KYC_FACE_SEARCH_ values),
 * with the face cascade `cascade` (a KYC_FACE_CASCADE_ value), trying face sizes `scale_step` (> 1, e.g. 1.1) apart and keeping groups of at least `min_neighbors` (≥ 1)
 * overlapping hits. Faces scoring below `min_score` are dropped. Eyes are counted in
 * every face written: in the upper half of the face in `large` (the same picture at `large_width / small_width`
 * times the size; pass small again when there is none), resampled to a 100 px wide face.
 * Writes up to max_faces faces, largest first (equal sizes: higher score, then leftmost, then topmost); returns how
 * many were found (≤ max_faces), or -1 on an OpenCV error. Buffers are kept in the detector between calls. */
int kyc_face_detect(kyc_face_detector *detector, const uint8_t *small, int small_width, int small_height,
                    int small_stride, const uint8_t *large, int large_width, int large_height, int large_stride,
                    int min_face, int max_face, double scale_step, int min_neighbors, int equalize, int cascade,
                    double min_score, kyc_face *faces, int max_faces);

/* Writes `src` (8-bit gray, `src_stride` bytes per row) turned by `degrees` about its centre (positive turns the
 * picture counter-clockwise as shown, y down, as cv::getRotationMatrix2D) into `dst` of the same size
 * (`dst_stride` bytes per row), bilinear, the corners beyond the picture filled with its nearest edge pixels.
 * Returns 0, or -1 on an OpenCV error. */
int kyc_rotate_gray(const uint8_t *src, int width, int height, int src_stride, double degrees, uint8_t *dst,
                    int dst_stride);

/* What the reference pipeline computed, returned so the compiler cannot drop any step. */
typedef struct {
    int width, height;       /* decoded size */
    double mean, stddev;     /* meanStdDev of the gray image */
    double laplacian_stddev; /* stddev of the Laplacian (the usual blur measure) */
    int saturated;           /* pixels ≥ 250 (threshold + countNonZero) */
    int contours;            /* external contours of the Canny edge map */
    int quadrilaterals;      /* contours that approxPolyDP reduces to four convex corners */
} kyc_reference_result;

/* The OpenCV baseline for the benchmark, on one JPEG: imdecode (gray, full size) → cvtColor → Laplacian +
 * meanStdDev → threshold count → Canny → findContours → approxPolyDP. Returns 0, or -1 when OpenCV fails or the
 * bytes are not an image. `work_long_side` > 0 resizes to that long side first (INTER_AREA), 0 keeps full size. */
int kyc_reference_pipeline(const uint8_t *jpeg, size_t length, int work_long_side, kyc_reference_result *result);

#ifdef __cplusplus
}
#endif
#endif
