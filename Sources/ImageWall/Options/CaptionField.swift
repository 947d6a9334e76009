import WallCodecs
import WallCore
import WallFiles

/// A field a caption shows (`{name}` in a ``CaptionTemplate``), in the order the help lists
/// them. The caption, the help's list and the gallery's facts all take their text from here.
public enum CaptionField: String, CaseIterable, Sendable, Hashable {
    case name, stem, path, index, width, height, format, size, date, mtime, duration, camera, lens, exposure,
        aperture, iso, focal, rating, page

    /// What the help says after `{field}`: an example of its text, or where it comes from;
    /// `nil` when the name says enough.
    public var note: String? {
        switch self {
        case .size: "3.1 MB"
        case .date:
            "taken: EXIF, else a date in the file name, else the modification time in UTC; {date:%d %B %Y} formats it as strftime does"
        case .duration: "a video's length, 0:07"
        case .exposure: "1/250 s"
        case .aperture: "f/2.8"
        case .iso: "ISO 400"
        case .focal: "35 mm"
        case .rating: "★★★"
        case .page: "a PDF page, with --pages all"
        default: nil
        }
    }

    /// Whether the field takes a `strftime` format after a colon (`{date:%d %B %Y}`).
    public var takesFormat: Bool { self == .date || self == .mtime }

    /// Every field as the help lists it: `{name} {stem} … {size} (3.1 MB) …`.
    public static var helpList: String {
        allCases.map { field in "{\(field.rawValue)}" + (field.note.map { " (\($0))" } ?? "") }
            .joined(separator: " ")
    }

    /// The field's text for `image`, the `index`-th (0-based) tile of the sheet, dates in
    /// `format` when given; empty when it has none.
    func value(of image: ProbedImage, index: Int, format: String?) -> String {
        let fileName = FilePaths.name(of: image.path)
        let info = image.info
        switch self {
        case .name: return fileName
        case .stem: return fileName.lastIndex(of: ".").map { String(fileName[..<$0]) } ?? fileName
        case .path: return image.path
        case .index: return String(index + 1)
        case .width: return String(info.displayedSize.width)
        case .height: return String(info.displayedSize.height)
        case .format: return info.format.rawValue.uppercased()
        case .size: return CaptionTemplate.readableBytes(image.fileSize)
        case .date: return CaptureDate(of: image).formatted(format ?? "%Y-%m-%d %H:%M")
        case .mtime: return CaptureDate(modified: image.modified).formatted(format ?? "%Y-%m-%d %H:%M")
        case .duration: return info.duration.map(CaptionTemplate.readableDuration) ?? ""
        case .page: return info.page.map { String($0) } ?? ""
        case .camera, .lens, .exposure, .aperture, .iso, .focal, .rating:
            return info.camera.flatMap { text(of: $0) } ?? ""
        }
    }

    /// The field's text from what a camera recorded (`camera`, `lens`, `exposure`, `aperture`,
    /// `iso`, `focal`, `rating`); `nil` when the camera did not record it or the field is not
    /// the camera's.
    public func text(of camera: CameraInfo) -> String? {
        switch self {
        case .camera: camera.name
        case .lens: camera.lens
        case .exposure: camera.exposureTime.map(CaptionTemplate.readableExposure)
        case .aperture: camera.fNumber.map { "f/" + CaptionTemplate.decimal($0) }
        case .iso: camera.iso.map { "ISO \($0)" }
        case .focal: camera.focalLength.map { CaptionTemplate.decimal($0) + " mm" }
        case .rating: camera.rating.map { String(repeating: "★", count: $0) }
        default: nil
        }
    }
}
