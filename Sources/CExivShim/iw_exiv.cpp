#include "iw_exiv.h"

// Exiv2 0.27's API hands out std::auto_ptr (its AutoPtr types); 0.28 moved to unique_ptr.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <exiv2/exiv2.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {
std::once_flag setUp;

void copyText(char *to, size_t size, const char *from) {
    if (size) std::snprintf(to, size, "%s", from ? from : "");
}
}  // namespace

extern "C" int iw_exiv_largest_preview(const char *path, size_t max_length, unsigned char **bytes,
                                       iw_exiv_preview *preview, char *message, size_t message_size) {
    std::call_once(setUp, [] {
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::enableBMFF(true);  // CR3 is ISO-BMFF
    });
    *bytes = nullptr;
    std::memset(preview, 0, sizeof *preview);
    preview->orientation = 1;
    try {
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
        if (image.get() == nullptr) {
            copyText(message, message_size, "Exiv2 cannot read it");
            return 1;
        }
        image->readMetadata();
        const Exiv2::ExifData &exif = image->exifData();
        Exiv2::ExifData::const_iterator turned = Exiv2::orientation(exif);
        if (turned != exif.end() && turned->count() > 0) {
            long value = turned->toLong();
            if (value >= 1 && value <= 8) preview->orientation = static_cast<int>(value);
        }
        Exiv2::ExifData::const_iterator make = exif.findKey(Exiv2::ExifKey("Exif.Image.Make"));
        Exiv2::ExifData::const_iterator model = exif.findKey(Exiv2::ExifKey("Exif.Image.Model"));
        std::string camera = model != exif.end() ? model->toString() : "";
        std::string maker = make != exif.end() ? make->toString() : "";
        if (!maker.empty() && camera.compare(0, maker.size(), maker) != 0) camera = maker + " " + camera;
        copyText(preview->camera, sizeof preview->camera, camera.c_str());
        Exiv2::PreviewManager manager(*image);
        Exiv2::PreviewPropertiesList list = manager.getPreviewProperties();
        const Exiv2::PreviewProperties *largest = nullptr;
        for (const Exiv2::PreviewProperties &properties : list) {
            if (properties.mimeType_ != "image/jpeg" || properties.size_ == 0 || properties.size_ > max_length) continue;
            if (!largest || static_cast<long long>(properties.width_) * properties.height_ >
                                static_cast<long long>(largest->width_) * largest->height_)
                largest = &properties;
        }
        if (!largest) {
            copyText(message, message_size, "Exiv2 finds no JPEG preview in it");
            return 1;
        }
        Exiv2::PreviewImage found = manager.getPreviewImage(*largest);
        if (found.size() == 0 || found.size() > max_length) {
            copyText(message, message_size, "Exiv2 cannot read its preview");
            return 1;
        }
        *bytes = static_cast<unsigned char *>(std::malloc(found.size()));
        if (!*bytes) {
            copyText(message, message_size, "out of memory");
            return 1;
        }
        std::memcpy(*bytes, found.pData(), found.size());
        preview->length = found.size();
        preview->width = static_cast<int>(found.width());
        preview->height = static_cast<int>(found.height());
        return 0;
    } catch (const Exiv2::AnyError &error) {
        copyText(message, message_size, error.what());
    } catch (const std::exception &error) {
        copyText(message, message_size, error.what());
    } catch (...) {
        copyText(message, message_size, "Exiv2 failed");
    }
    std::free(*bytes);
    *bytes = nullptr;
    return 1;
}

extern "C" const char *iw_exiv_version(void) { return Exiv2::version(); }
