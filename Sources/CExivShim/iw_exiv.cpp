#include "iw_exiv.h"

// Exiv2 0.27's API hands out std::auto_ptr (its AutoPtr types); 0.28 moved to unique_ptr.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <exiv2/exiv2.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {
std::once_flag setUp;
std::mutex xmpMutex;

/* Held by Exiv2 while it registers XMP namespaces, which several threads reading files may do. */
void lockXmp(void *, bool lock) {
    if (lock) {
        xmpMutex.lock();
    } else {
        xmpMutex.unlock();
    }
}

void copyText(char *to, size_t size, const char *from) {
    if (size) std::snprintf(to, size, "%s", from ? from : "");
}

/* The first of `keys` the metadata holds with a value, or end(). */
Exiv2::ExifData::const_iterator first(const Exiv2::ExifData &exif, std::initializer_list<const char *> keys) {
    for (const char *key : keys) {
        Exiv2::ExifData::const_iterator found = exif.findKey(Exiv2::ExifKey(key));
        if (found != exif.end() && found->count() > 0) return found;
    }
    return exif.end();
}

/* A text value, trimmed of the NULs and spaces writers pad with. */
std::string text(Exiv2::ExifData::const_iterator entry) {
    std::string value = entry->toString();
    size_t end = value.find('\0');
    if (end != std::string::npos) value.resize(end);
    size_t from = value.find_first_not_of(' '), to = value.find_last_not_of(' ');
    return from == std::string::npos ? "" : value.substr(from, to - from + 1);
}

/* Canon's exposure code in 1/32 stops (its maker note's shot info) as stops, a third of a stop
   coded 12 and two thirds 20, as Canon writes them. */
double canonStops(long code) {
    double sign = code < 0 ? -1 : 1;
    long magnitude = std::labs(code), fraction = magnitude & 0x1f;
    double part = fraction == 0x0c ? 32.0 / 3 : fraction == 0x14 ? 64.0 / 3 : double(fraction);
    return sign * (double(magnitude - fraction) + part) / 32;
}

/* The exposure time Canon's shot info records, in seconds; 0 when it does not. Exiv2 derives a
   CRW's ExposureTime from it as 1/n, so any time of a second or longer comes out as 1 s. */
double canonExposureSeconds(const Exiv2::ExifData &exif) {
    Exiv2::ExifData::const_iterator entry = first(exif, {"Exif.CanonSi.ShutterSpeedValue"});
    if (entry == exif.end()) return 0;
    long code = static_cast<int16_t>(static_cast<uint16_t>(entry->toLong()));  // a signed short, kept as unsigned
    double seconds = std::exp2(-canonStops(code));
    return seconds > 0 && seconds < 100000 ? seconds : 0;
}

/* The shortest and longest focal lengths of the lens, in millimetres, as the file records them:
   EXIF's LensSpecification, else Canon's lens record (longest, shortest, units a millimetre). */
void lensRange(const Exiv2::ExifData &exif, iw_exiv_metadata *metadata) {
    Exiv2::ExifData::const_iterator entry;
    if ((entry = first(exif, {"Exif.Photo.LensSpecification"})) != exif.end() && entry->count() >= 2) {
        Exiv2::Rational shortest = entry->toRational(0), longest = entry->toRational(1);
        if (shortest.first > 0 && shortest.second > 0 && longest.first > 0 && longest.second > 0) {
            metadata->lens_shortest = double(shortest.first) / shortest.second;
            metadata->lens_longest = double(longest.first) / longest.second;
        }
    } else if ((entry = first(exif, {"Exif.CanonCs.Lens"})) != exif.end() && entry->count() >= 3) {
        long longest = entry->toLong(0), shortest = entry->toLong(1), units = entry->toLong(2);
        if (units > 0 && shortest > 0 && longest > 0) {
            metadata->lens_shortest = double(shortest) / units;
            metadata->lens_longest = double(longest) / units;
        }
    }
    if (metadata->lens_shortest > metadata->lens_longest || metadata->lens_longest > 10000)
        metadata->lens_shortest = metadata->lens_longest = 0;
}

void readExif(const Exiv2::ExifData &exif, const Exiv2::XmpData &xmp, iw_exiv_metadata *metadata) {
    Exiv2::ExifData::const_iterator entry;
    if ((entry = Exiv2::orientation(exif)) != exif.end() && entry->count() > 0) {
        long value = entry->toLong();
        if (value >= 1 && value <= 8) metadata->orientation = static_cast<int>(value);
    }
    if ((entry = first(exif, {"Exif.Image.Make"})) != exif.end())
        copyText(metadata->make, sizeof metadata->make, text(entry).c_str());
    if ((entry = first(exif, {"Exif.Image.Model"})) != exif.end())
        copyText(metadata->model, sizeof metadata->model, text(entry).c_str());
    if ((entry = first(exif, {"Exif.Photo.LensModel"})) != exif.end() ||
        (entry = Exiv2::lensName(exif)) != exif.end()) {
        std::string lens = entry->key() == "Exif.Photo.LensModel" ? text(entry) : entry->print(&exif);
        // Exiv2 prints a lens it cannot name as its number ("26", "(65535)"), "n/a" or "Unknown
        // Lens": none of them a name.
        bool letters = std::any_of(lens.begin(), lens.end(), [](unsigned char c) { return std::isalpha(c); });
        if (letters && lens[0] != '(' && lens != "n/a" && lens.find("nknown") == std::string::npos) {
            copyText(metadata->lens, sizeof metadata->lens, lens.c_str());
            metadata->lens_guessed = entry->key() != "Exif.Photo.LensModel";
        }
    }
    if ((entry = first(exif, {"Exif.Photo.DateTimeOriginal", "Exif.Image.DateTimeOriginal", "Exif.Image.DateTime"})) !=
        exif.end())
        copyText(metadata->date, sizeof metadata->date, text(entry).c_str());
    if ((entry = first(exif, {"Exif.Photo.OffsetTimeOriginal", "Exif.Photo.OffsetTime"})) != exif.end())
        copyText(metadata->offset, sizeof metadata->offset, text(entry).c_str());
    if ((entry = first(exif, {"Exif.Photo.ExposureTime", "Exif.Image.ExposureTime"})) != exif.end()) {
        Exiv2::Rational time = entry->toRational();
        if (time.first > 0 && time.second > 0) {
            metadata->exposure_numerator = time.first;
            metadata->exposure_denominator = time.second;
        }
        double seconds = time.first == time.second ? canonExposureSeconds(exif) : 0;
        if (seconds >= 1.05) {
            metadata->exposure_numerator = static_cast<int>(std::lround(seconds * 10));
            metadata->exposure_denominator = 10;
        }
    }
    lensRange(exif, metadata);
    Exiv2::ExifData::const_iterator across = first(exif, {"Exif.Photo.PixelXDimension"}),
                                    down = first(exif, {"Exif.Photo.PixelYDimension"});
    if (across != exif.end() && down != exif.end() && across->toLong() > 0 && down->toLong() > 0 &&
        across->toLong() <= 1000000 && down->toLong() <= 1000000) {
        metadata->pixel_width = static_cast<int>(across->toLong());
        metadata->pixel_height = static_cast<int>(down->toLong());
    }
    if ((entry = first(exif, {"Exif.Photo.FNumber", "Exif.Image.FNumber"})) != exif.end()) {
        Exiv2::Rational number = entry->toRational();
        if (number.first > 0 && number.second > 0) metadata->f_number = double(number.first) / number.second;
    }
    if ((entry = first(exif, {"Exif.Photo.ISOSpeedRatings", "Exif.Image.ISOSpeedRatings"})) != exif.end()) {
        long iso = entry->toLong();
        if (iso > 0 && iso < 10000000) metadata->iso = static_cast<int>(iso);
    } else if ((entry = Exiv2::isoSpeed(exif)) != exif.end()) {
        // A maker note keeps the speed as a code its printed value converts (Canon's shot info
        // holds 160 for ISO 100, as a CRW from an EOS D30 does): the number Exiv2 prints.
        std::string printed = entry->print(&exif);
        auto digit = std::find_if(printed.begin(), printed.end(), [](unsigned char c) { return std::isdigit(c); });
        long iso = digit == printed.end() ? 0 : std::strtol(&*digit, nullptr, 10);
        if (iso > 0 && iso < 10000000) metadata->iso = static_cast<int>(iso);
    }
    if ((entry = first(exif, {"Exif.Photo.FocalLength", "Exif.Image.FocalLength"})) != exif.end()) {
        Exiv2::Rational length = entry->toRational();
        if (length.first > 0 && length.second > 0) metadata->focal_length = double(length.first) / length.second;
    }
    Exiv2::XmpData::const_iterator verdict = xmp.findKey(Exiv2::XmpKey("Xmp.xmp.Rating"));
    if (verdict != xmp.end() && verdict->count() > 0 && verdict->toLong() == -1) metadata->rejected = 1;
    if ((entry = first(exif, {"Exif.Image.Rating"})) != exif.end()) {
        long rating = entry->toLong();
        if (rating >= 0 && rating <= 5) metadata->rating = static_cast<int>(rating);
    } else {
        Exiv2::XmpData::const_iterator stars = xmp.findKey(Exiv2::XmpKey("Xmp.xmp.Rating"));
        if (stars != xmp.end() && stars->count() > 0) {
            long rating = stars->toLong();
            if (rating >= 0 && rating <= 5) metadata->rating = static_cast<int>(rating);
        }
    }
}

/* Degrees from EXIF's three rationals (degrees, minutes, seconds) and its reference letter; false
   when a part is missing, a denominator is 0 or the value is out of range. */
bool degrees(const Exiv2::ExifData &exif, const char *key, const char *reference, char negative, double limit,
             double *value) {
    Exiv2::ExifData::const_iterator parts = exif.findKey(Exiv2::ExifKey(key));
    Exiv2::ExifData::const_iterator side = exif.findKey(Exiv2::ExifKey(reference));
    if (parts == exif.end() || parts->count() < 3 || side == exif.end()) return false;
    double sum = 0, scale = 1;
    for (long i = 0; i < 3; i++, scale *= 60) {
        Exiv2::Rational part = parts->toRational(i);
        if (part.second <= 0 || part.first < 0) return false;
        sum += double(part.first) / part.second / scale;
    }
    std::string letter = text(side);
    if (sum > limit || letter.empty()) return false;
    *value = std::toupper(static_cast<unsigned char>(letter[0])) == negative ? -sum : sum;
    return true;
}

void readLocation(const Exiv2::ExifData &exif, iw_exiv_metadata *metadata) {
    double latitude = 0, longitude = 0;
    if (!degrees(exif, "Exif.GPSInfo.GPSLatitude", "Exif.GPSInfo.GPSLatitudeRef", 'S', 90, &latitude) ||
        !degrees(exif, "Exif.GPSInfo.GPSLongitude", "Exif.GPSInfo.GPSLongitudeRef", 'W', 180, &longitude))
        return;
    metadata->has_location = 1;
    metadata->latitude = latitude;
    metadata->longitude = longitude;
    Exiv2::ExifData::const_iterator height = exif.findKey(Exiv2::ExifKey("Exif.GPSInfo.GPSAltitude"));
    if (height != exif.end() && height->count() > 0) {
        Exiv2::Rational metres = height->toRational();
        if (metres.second > 0) {
            Exiv2::ExifData::const_iterator below = exif.findKey(Exiv2::ExifKey("Exif.GPSInfo.GPSAltitudeRef"));
            bool under = below != exif.end() && below->count() > 0 && below->toLong() == 1;
            metadata->has_altitude = 1;
            metadata->altitude = (under ? -1 : 1) * double(metres.first) / metres.second;
        }
    }
}

/* A number of an XMP key, when it is there. */
bool xmpNumber(const Exiv2::XmpData &xmp, const std::string &key, double *value) {
    Exiv2::XmpData::const_iterator found = xmp.findKey(Exiv2::XmpKey(key));
    if (found == xmp.end() || found->count() == 0) return false;
    *value = found->toFloat();
    return std::isfinite(*value);
}

/* The regions marked on the picture: MWG's (centre, width and height, normalised) or, when it has
   none, Microsoft's People Tags (left, top, width, height, normalised, as "x, y, w, h"). */
void readRegions(const Exiv2::XmpData &xmp, iw_exiv_metadata *metadata) {
    for (int i = 1; i <= 64 && metadata->region_count < 16; i++) {
        std::string item = "Xmp.mwg-rs.Regions/mwg-rs:RegionList[" + std::to_string(i) + "]/mwg-rs:";
        double x, y, w, h;
        if (!xmpNumber(xmp, item + "Area/stArea:x", &x)) break;
        if (!xmpNumber(xmp, item + "Area/stArea:y", &y) || !xmpNumber(xmp, item + "Area/stArea:w", &w) ||
            !xmpNumber(xmp, item + "Area/stArea:h", &h))
            continue;
        Exiv2::XmpData::const_iterator unit = xmp.findKey(Exiv2::XmpKey(item + "Area/stArea:unit"));
        if (unit != xmp.end() && unit->toString() != "normalized") continue;
        Exiv2::XmpData::const_iterator type = xmp.findKey(Exiv2::XmpKey(item + "Type"));
        int n = metadata->region_count++;
        double box[4] = {x - w / 2, y - h / 2, w, h};
        std::memcpy(metadata->regions[n], box, sizeof box);
        metadata->region_is_face[n] = type == xmp.end() || type->toString() == "Face";
    }
    if (metadata->region_count > 0) return;
    for (int i = 1; i <= 64 && metadata->region_count < 16; i++) {
        Exiv2::XmpData::const_iterator rectangle = xmp.findKey(Exiv2::XmpKey(
            "Xmp.MP.RegionInfo/MPRI:Regions[" + std::to_string(i) + "]/MPReg:Rectangle"));
        if (rectangle == xmp.end()) break;
        double box[4];
        if (std::sscanf(rectangle->toString().c_str(), "%lf , %lf , %lf , %lf", &box[0], &box[1], &box[2], &box[3]) != 4)
            continue;
        int n = metadata->region_count++;
        std::memcpy(metadata->regions[n], box, sizeof box);
        metadata->region_is_face[n] = 1;
    }
}

/* The author's description: XMP's dc:description in its default language, else IPTC's caption,
   else EXIF's ImageDescription. */
void readDescription(const Exiv2::Image &image, iw_exiv_metadata *metadata) {
    const Exiv2::XmpData &xmp = image.xmpData();
    Exiv2::XmpData::const_iterator described = xmp.findKey(Exiv2::XmpKey("Xmp.dc.description"));
    if (described != xmp.end() && described->count() > 0) {
        std::string value;
        if (const Exiv2::LangAltValue *languages = dynamic_cast<const Exiv2::LangAltValue *>(&described->value())) {
            Exiv2::LangAltValue::ValueType::const_iterator preferred = languages->value_.find("x-default");
            if (preferred == languages->value_.end()) preferred = languages->value_.begin();
            if (preferred != languages->value_.end()) value = preferred->second;
        } else {
            value = described->toString();
        }
        if (value.find_first_not_of(" \t\r\n") != std::string::npos) {
            copyText(metadata->description, sizeof metadata->description, value.c_str());
            metadata->description_from = 1;
            return;
        }
    }
    const Exiv2::IptcData &iptc = image.iptcData();
    Exiv2::IptcData::const_iterator caption = iptc.findKey(Exiv2::IptcKey("Iptc.Application2.Caption"));
    if (caption != iptc.end() && caption->count() > 0) {
        std::string value = caption->toString();
        if (value.find_first_not_of(" \t\r\n") != std::string::npos) {
            copyText(metadata->description, sizeof metadata->description, value.c_str());
            metadata->description_from = 2;
            return;
        }
    }
    Exiv2::ExifData::const_iterator entry = first(image.exifData(), {"Exif.Image.ImageDescription"});
    if (entry != image.exifData().end()) {
        std::string value = text(entry);
        if (!value.empty()) {
            copyText(metadata->description, sizeof metadata->description, value.c_str());
            metadata->description_from = 3;
        }
    }
}

/* The largest JPEG preview whose bytes are all there, copied; 0, or 1 with the reason. */
int readPreview(Exiv2::Image &image, size_t max_length, unsigned char **bytes, iw_exiv_metadata *metadata,
                char *message, size_t message_size) {
    Exiv2::PreviewManager manager(image);
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
    metadata->preview_length = found.size();
    metadata->preview_width = static_cast<int>(found.width());
    metadata->preview_height = static_cast<int>(found.height());
    return 0;
}
}  // namespace

extern "C" int iw_exiv_read(const char *path, size_t max_length, unsigned char **bytes, iw_exiv_metadata *metadata,
                            char *message, size_t message_size) {
    std::call_once(setUp, [] {
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::enableBMFF(true);  // CR3 is ISO-BMFF
        // The XMP toolkit is set up once, here, before any thread reads XMP: left to the first
        // XmpParser::decode, two threads set it up at once and corrupt its tables (a crash
        // seen one render in twenty on a folder of NEFs).
        Exiv2::XmpParser::initialize(lockXmp, nullptr);
    });
    if (bytes) *bytes = nullptr;
    std::memset(metadata, 0, sizeof *metadata);
    metadata->orientation = 1;
    metadata->rating = -1;
    if (message_size) message[0] = 0;
    try {
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
        if (image.get() == nullptr) {
            copyText(message, message_size, "Exiv2 cannot read it");
            return 1;
        }
        // Exiv2 reads boxes and directories in the file's order and throws where one lies past
        // the end: what it read before (a cut CR3's metadata and previews) is kept.
        try {
            image->readMetadata();
        } catch (const Exiv2::AnyError &error) {
            if (image->exifData().empty()) throw;
            copyText(metadata->stopped, sizeof metadata->stopped, error.what());
        }
        readExif(image->exifData(), image->xmpData(), metadata);
        readLocation(image->exifData(), metadata);
        readDescription(*image, metadata);
        readRegions(image->xmpData(), metadata);
        if (bytes) {
            try {
                readPreview(*image, max_length, bytes, metadata, message, message_size);
            } catch (const Exiv2::AnyError &error) {
                copyText(message, message_size, error.what());
                std::free(*bytes);
                *bytes = nullptr;
            }
        }
        return 0;
    } catch (const Exiv2::AnyError &error) {
        copyText(message, message_size, error.what());
    } catch (const std::exception &error) {
        copyText(message, message_size, error.what());
    } catch (...) {
        copyText(message, message_size, "Exiv2 failed");
    }
    if (bytes) {
        std::free(*bytes);
        *bytes = nullptr;
    }
    return 1;
}

extern "C" const char *iw_exiv_version(void) { return Exiv2::version(); }
