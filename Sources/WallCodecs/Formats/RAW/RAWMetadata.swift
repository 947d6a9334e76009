import CExivShim
import WallCore

/// A RAW file's own EXIF as Exiv2 reads it: the names the camera wrote ("SONY SLT-A55V", where
/// LibRaw says "Sony SLT-A55"), its exposure and when it was taken, for every RAW file, also
/// those LibRaw cannot read (Canon CR3 from bodies after 2019).
struct RAWMetadata {
    /// Body, lens and exposure.
    var camera = CameraInfo()
    /// DateTimeOriginal, "YYYY:MM:DD HH:MM:SS", when the file records a valid one.
    var dateTaken: String?
    /// The size of the camera's picture as the file records it (EXIF's PixelXDimension and
    /// PixelYDimension, a CRW's image record), when it does.
    var pictureSize: Size?
    /// Why Exiv2 stopped reading part-way (a file cut short), when it did: what it read lies
    /// before that.
    var stopped: String?

    init(_ read: iw_exiv_metadata) {
        func named(_ text: String) -> String? { text.isEmpty ? nil : text }
        camera.make = named(cText(read.make))
        camera.model = named(cText(read.model))
        camera.lens = named(cText(read.lens))
        if read.exposure_numerator > 0, read.exposure_denominator > 0 {
            camera.exposureTime = CameraInfo.Fraction(Int(read.exposure_numerator), Int(read.exposure_denominator))
        }
        if read.f_number > 0 { camera.fNumber = (read.f_number * 10).rounded() / 10 }
        if read.iso > 0 { camera.iso = Int(read.iso) }
        if read.focal_length > 0 { camera.focalLength = (read.focal_length * 10).rounded() / 10 }
        if read.rating >= 0 { camera.rating = Int(read.rating) }
        // A lens named from its number in a maker note may be another lens of that number.
        if read.lens_guessed != 0 { camera = camera.lensCheckedAgainstFocalLength }
        // A lens the file does not name (or names wrongly) is known by its focal lengths, as ExifTool shows it.
        if camera.lens == nil, read.lens_shortest > 0 {
            camera.lens = CameraInfo.lensName(shortest: read.lens_shortest, longest: read.lens_longest)
        }
        camera.timeOffset = ExifReader.offset(cText(read.offset))
        let date = cText(read.date)
        let digits = date.utf8.filter { (0x30...0x39).contains($0) }
        dateTaken = date.utf8.count == 19 && digits.count == 14 && !date.hasPrefix("0000") ? date : nil
        stopped = named(cText(read.stopped))
        if read.pixel_width > 0 {
            pictureSize = Size(width: Int(read.pixel_width), height: Int(read.pixel_height))
        }
    }
}
