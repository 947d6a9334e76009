import CExivShim
import WallCore

/// What a picture's own metadata says beyond its pixels, as Exiv2 reads it from any format that
/// carries EXIF, XMP or IPTC (JPEG, PNG, TIFF, WebP, HEIF/AVIF, RAW): the author's description
/// (the text for its `alt`) and where it was taken. Files Exiv2 does not read (GIF, videos) have
/// none.
public struct PictureDetails: Hashable, Sendable, Codable {
    /// The author's description: XMP `dc:description`, else the IPTC caption, else EXIF
    /// `ImageDescription`; `nil` when none is written, or only a camera's stock text ("OLYMPUS
    /// DIGITAL CAMERA", the camera's own name).
    public var description: String?
    /// Where it was taken, from EXIF's GPS latitude and longitude.
    public var location: Location?

    /// A place on the earth.
    public struct Location: Hashable, Sendable, Codable {
        /// Degrees north (negative: south).
        public var latitude: Double
        /// Degrees east (negative: west).
        public var longitude: Double
        /// Metres above sea level, when recorded.
        public var altitude: Double?

        /// The place `latitude`, `longitude`.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// Nothing known.
    public init(description: String? = nil, location: Location? = nil) {
        self.description = description
        self.location = location
    }

    /// The details of the file at `path`; none where Exiv2 cannot read it.
    public static func read(path: String) -> PictureDetails {
        var read = iw_exiv_metadata()
        var reason = [CChar](repeating: 0, count: 256)
        guard iw_exiv_read(path.systemPath, 0, nil, &read, &reason, reason.count) == 0 else { return PictureDetails() }
        var details = PictureDetails()
        let camera = [cText(read.make), cText(read.model)]
        details.description = withUnsafeBytes(of: read.description) { raw in
            described(Array(raw.prefix { $0 != 0 }), from: Int(read.description_from), camera: camera)
        }
        if read.has_location != 0, read.latitude.isFinite, read.longitude.isFinite,
            !(read.latitude == 0 && read.longitude == 0)
        {
            details.location = Location(
                latitude: read.latitude, longitude: read.longitude,
                altitude: read.has_altitude != 0 && read.altitude.isFinite ? read.altitude : nil)
        }
        return details
    }

    /// The description in `bytes` (from XMP, 1, which is UTF-8; IPTC, 2, or EXIF, 3, which may
    /// be Latin-1), as one line of text; `nil` when empty or a camera's stock text.
    static func described(_ bytes: [UInt8], from source: Int, camera: [String]) -> String? {
        guard source != 0 else { return nil }
        let text =
            String(validating: bytes, as: UTF8.self)
            ?? String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)  // Latin-1: each byte its code point
        // One line: control characters (line breaks, tabs) as spaces, runs of spaces as one.
        let words = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let line = String(words).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard !line.isEmpty, !isStockText(line, camera: camera) else { return nil }
        return line
    }

    /// Whether `text` is what a camera writes into every photo rather than what someone wrote
    /// about this one: its maker's or model's name; an upper-case label ending in CAMERA, DSC or
    /// PICTURE ("OLYMPUS DIGITAL CAMERA", "SONY DSC", "EXIF_JPEG_PICTURE"); a file's number
    /// ("DC0003M", "SUNP0001": one upper-case word with digits); a path into the card's DCIM
    /// folder (GoPro's "C:\DCIM\100GOPRO\GOPR0024.GPR"); or a word such as "default".
    static func isStockText(_ text: String, camera: [String]) -> Bool {
        let lowered = text.lowercased()
        if camera.contains(where: { !$0.isEmpty && $0.lowercased() == lowered }) { return true }
        if ["dcim", "default", "image", "picture", "photo", "untitled"].contains(lowered) { return true }
        if lowered.contains("dcim"), text.contains("\\") || text.contains("/") { return true }
        guard text.unicodeScalars.allSatisfy(\.isASCII),
            !text.unicodeScalars.contains(where: { ("a"..."z").contains($0) })
        else { return false }
        let words = text.replacingOccurrences(of: "_", with: " ")
        if ["CAMERA", "DSC", "PICTURE"].contains(where: { words.hasSuffix($0) }) { return true }
        let digits = text.unicodeScalars.contains { ("0"..."9").contains($0) }
        return digits && !text.contains(" ")
            && text.unicodeScalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
