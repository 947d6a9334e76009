#include "iw_faces.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace {
void say(char *message, size_t size, const std::string &text) {
    if (message && size > 0) std::snprintf(message, size, "%s", text.c_str());
}

// OpenCV's threads and CPU-dispatched paths, set once: one thread (the caller's; ImageWall
// runs its own), the plain code (the same sums on every CPU).
void settle() {
    static std::once_flag once;
    std::call_once(once, [] {
        cv::setNumThreads(0);
        cv::setUseOptimized(false);
    });
}
}  // namespace

extern "C" int iw_opencv_read_radiance(const char *path, int width, int height, float *rgb, char *message,
                                       size_t message_size) {
    try {
        settle();
        cv::Mat picture = cv::imread(path, cv::IMREAD_ANYDEPTH | cv::IMREAD_COLOR);
        if (picture.empty()) {
            say(message, message_size, "OpenCV cannot read it");
            return -1;
        }
        if (picture.type() != CV_32FC3 || picture.cols != width || picture.rows != height) {
            say(message, message_size,
                "OpenCV read " + std::to_string(picture.cols) + "x" + std::to_string(picture.rows) +
                    " pixels of another kind than the header's " + std::to_string(width) + "x" +
                    std::to_string(height) + " of light");
            return -1;
        }
        for (int y = 0; y < height; y++) {
            const float *row = picture.ptr<float>(y);
            float *out = rgb + static_cast<size_t>(y) * width * 3;
            for (int x = 0; x < width; x++) {  // OpenCV's order is blue, green, red
                out[3 * x] = row[3 * x + 2];
                out[3 * x + 1] = row[3 * x + 1];
                out[3 * x + 2] = row[3 * x];
            }
        }
        return 0;
    } catch (const std::exception &error) {
        say(message, message_size, std::string("OpenCV: ") + error.what());
        return -1;
    } catch (...) {
        say(message, message_size, "OpenCV failed");
        return -1;
    }
}

extern "C" int iw_faces_detect(const char *cascade, const unsigned char *gray, int width, int height, int stride,
                               int smallest, int *boxes, int capacity, char *message, size_t message_size) {
    try {
        settle();
        // A classifier per thread and cascade: detectMultiScale keeps state in it.
        thread_local std::map<std::string, std::unique_ptr<cv::CascadeClassifier>> classifiers;
        auto &classifier = classifiers[cascade];
        if (!classifier) {
            auto loaded = std::make_unique<cv::CascadeClassifier>();
            if (!loaded->load(cascade)) {
                say(message, message_size, std::string("cannot read the face cascade ") + cascade);
                return -1;
            }
            classifier = std::move(loaded);
        }
        cv::Mat image(height, width, CV_8UC1, const_cast<unsigned char *>(gray), static_cast<size_t>(stride));
        cv::Mat equalized;
        cv::equalizeHist(image, equalized);
        std::vector<cv::Rect> faces;
        // Scales 10 % apart; a face where three neighbouring windows or more agree.
        classifier->detectMultiScale(equalized, faces, 1.1, 3, 0, cv::Size(smallest, smallest));
        std::sort(faces.begin(), faces.end(), [](const cv::Rect &a, const cv::Rect &b) {
            return std::make_tuple(a.y, a.x, a.height, a.width) < std::make_tuple(b.y, b.x, b.height, b.width);
        });
        for (size_t i = 0; i < faces.size() && static_cast<int>(i) < capacity; i++) {
            boxes[4 * i] = faces[i].x;
            boxes[4 * i + 1] = faces[i].y;
            boxes[4 * i + 2] = faces[i].width;
            boxes[4 * i + 3] = faces[i].height;
        }
        return static_cast<int>(faces.size());
    } catch (const cv::Exception &error) {
        say(message, message_size, std::string("OpenCV: ") + error.what());
    } catch (const std::exception &error) {
        say(message, message_size, error.what());
    }
    return -1;
}

extern "C" const char *iw_faces_version(void) {
    static const std::string version = std::string("OpenCV ") + CV_VERSION;
    return version.c_str();
}
