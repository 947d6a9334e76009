import CExivShim
import WallCore

/// A part of a picture a photo organiser or a phone marked: a face, or another subject.
public struct PictureRegion: Sendable, Hashable {
    /// Left, top, width and height as shares (0–1) of the picture as shown (its orientation applied).
    public var box: Region
    /// Whether it is a face.
    public var isFace: Bool

    /// A region of `box` (shares of the picture as shown).
    public init(box: Region, isFace: Bool) {
        self.box = box
        self.isFace = isFace
    }

    /// The regions marked on the file at `path`: XMP's MWG regions (Lightroom, digiKam, Picasa,
    /// phones), else Microsoft's People Tags, read through Exiv2; none where it has none or Exiv2
    /// cannot read it. Their coordinates are taken as of the picture as stored (the orientation
    /// not applied: how Thumbor's maintainers read the MWG regions; writers are known to differ)
    /// and are turned by `orientation`.
    public static func read(path: String, orientation: Orientation) -> [PictureRegion] {
        var read = iw_exiv_metadata()
        var reason = [CChar](repeating: 0, count: 256)
        guard iw_exiv_read(path.systemPath, 0, nil, &read, &reason, reason.count) == 0 else { return [] }
        let count = min(Int(read.region_count), 16)
        let boxes = withUnsafeBytes(of: read.regions) { Array($0.bindMemory(to: Double.self).prefix(count * 4)) }
        let faces = withUnsafeBytes(of: read.region_is_face) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        return (0..<count).compactMap { i in
            let (x, y, w, h) = (boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3])
            guard w > 0, h > 0, w <= 1, h <= 1 else { return nil }
            let stored = Region(x: min(max(x, 0), 1 - w), y: min(max(y, 0), 1 - h), width: w, height: h)
            return PictureRegion(box: shown(stored, orientation), isFace: faces[i] != 0)
        }
    }

    /// A box of shares of the stored picture as shares of the picture shown with `orientation`.
    public static func shown(_ b: Region, _ orientation: Orientation) -> Region {
        switch orientation.rawValue {
        case 2: return Region(x: 1 - b.x - b.width, y: b.y, width: b.width, height: b.height)
        case 3: return Region(x: 1 - b.x - b.width, y: 1 - b.y - b.height, width: b.width, height: b.height)
        case 4: return Region(x: b.x, y: 1 - b.y - b.height, width: b.width, height: b.height)
        case 5: return Region(x: b.y, y: b.x, width: b.height, height: b.width)
        case 6: return Region(x: 1 - b.y - b.height, y: b.x, width: b.height, height: b.width)
        case 7: return Region(x: 1 - b.y - b.height, y: 1 - b.x - b.width, width: b.height, height: b.width)
        case 8: return Region(x: b.y, y: 1 - b.x - b.width, width: b.height, height: b.width)
        default: return b
        }
    }
}
