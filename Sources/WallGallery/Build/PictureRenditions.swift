import Foundation
import ImageWall
import WallCodecs
import WallCompositor
import WallCore
import WallFiles
import WallPages

/// The JPEG renditions of a picture its pages show: a cover's (500 px on the long side), the
/// picture page's (1000 px) and its double for high-density screens (2000 px), none larger than
/// the picture, upright, in sRGB (a RAW file from its preview, a video from its frame),
/// flattened on white, by the pages' ``WallPages/RenditionWriter``: each one half the next is
/// that one halved (a 2 × 2 mean), the others resampled as sheets are. They are made from the one
/// decode of the picture that its sheets are drawn from (the render's
/// ``ImageWall/TileSettings/decodeFloor``), or, when the sheets came
/// from the cache, from a decode with the same plan: the same bytes either way. They are named
/// by the picture's content and the settings that shape them, so a picture moved, renamed or
/// copied elsewhere in the tree keeps its renditions.
struct PictureRenditions: Sendable {
    /// The decoder sheets are drawn with.
    var decoder: ImageDecoder
    var quality: Int
    var site: String

    /// The long sides of the renditions, in pixels: a cover's, a picture page's (1x) and its
    /// double (2x).
    static let sides = [500, PictureView.pageSide, 2000]

    /// ``sides`` as the renditions' key writes them, made once (an array's description casts
    /// each element at run time).
    static let sidesText = sides.description

    /// The decode floor that gives renditions up to the largest side: that side, less the
    /// decoder's margin (it decodes to `margin` times the size it is asked for).
    var floor: Int { PictureRenditions.sides.max()! / decoder.margin }

    /// The sides made for a picture whose long side is `long` px: those of ``sides`` below it,
    /// and the picture's own size in place of the ones above.
    static func sides(long: Int) -> [Int] {
        let below = sides.filter { $0 < long }
        return below.count < sides.count ? below + [max(1, long)] : below
    }

    /// The name the renditions of the picture whose content is `content` share.
    func key(content: String) -> String {
        SitePaths.digest(["renditions 2", content, String(quality), PictureRenditions.sidesText])
    }

    /// The size a picture shown `shown` is decoded for: brought to ``floor`` on its long side,
    /// never above its own size (as the render decodes under the floor).
    func floorTarget(_ shown: Size) -> Size {
        let long = max(shown.width, shown.height, 1)
        return floor < long ? RenditionWriter.fitted(shown, side: floor) : shown
    }

    /// Whether a decode the render made for `decodedFor` is the one renditions are made from.
    func isFloorDecode(_ info: ImageInfo, decodedFor: Size) -> Bool {
        decoder.decodePlan(info: info, target: decodedFor)
            == decoder.decodePlan(info: info, target: floorTarget(info.displayedSize))
    }

    /// The files of the renditions at `sides` named after `key`, relative to the site.
    static func files(_ key: String, sides: [Int]) -> [String] {
        sides.map { SitePaths.rendition(key, side: $0) }
    }

    /// Whether every rendition is in the site.
    func exist(_ key: String, sides: [Int]) -> Bool {
        PictureRenditions.files(key, sides: sides).allSatisfy { Folders.exists(site + "/" + $0) }
    }

    /// Writes the renditions at `sides` of `decoded`, the picture shown `shown`, named after
    /// `key`; a `.write` error when one cannot be written. Returns the decode halved
    /// (premultiplied) when a rendition is that, for the tiles to start from.
    @discardableResult
    func write(_ decoded: DecodedImage, shown: Size, sides: [Int], key: String) throws(CodecError) -> Bitmap? {
        let writer = RenditionWriter(quality: quality, optimizedTables: false)
        return try writer.write(decoded.bitmap, shown: shown, sides: sides) { side in
            site + "/" + SitePaths.rendition(key, side: side)
        }
    }

    /// Decodes `source` as the render decodes it under the floor and writes its renditions: for
    /// a picture whose sheets' tiles came from the cache. A file that cannot be decoded is a
    /// `.decode` error (its page then shows no picture and says why).
    func make(source: String, key: String) throws(CodecError) {
        let (shown, decoded) = try ImageDecoder.keepingProbedFiles { () throws(CodecError) in
            let info = try ImageProbe().probe(path: source)
            let shown = info.displayedSize
            guard shown.width > 0, shown.height > 0 else {
                throw CodecError(.decode, path: source, reason: "no pixels")
            }
            return (shown, try decoder.decode(path: source, info: info, target: floorTarget(shown)))
        }
        guard decoded.bitmap.size.width > 0, decoded.bitmap.size.height > 0 else {
            throw CodecError(.decode, path: source, reason: "no pixels decoded")
        }
        try write(decoded, shown: shown, sides: PictureRenditions.sides(long: max(shown.width, shown.height)), key: key)
    }

    /// Makes the folder `path` goes in, and those above it, as a new folder there would be.
    static func makeFolder(of path: String) throws(FileError) {
        let folder = FilePaths.folder(of: path)
        try Folders.make(folder)
    }
}
