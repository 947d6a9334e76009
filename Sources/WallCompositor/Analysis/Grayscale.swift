import WallCore

extension Grayscale {
    /// `picture` averaged down to at most `longSide` pixels on its long side (never enlarged),
    /// in Rec. 601 brightness, transparent parts black: integer arithmetic, the same on every CPU.
    public init(_ picture: Bitmap, longSide: Int) {
        let w = picture.size.width, h = picture.size.height
        let long = max(1, w, h)
        let side = min(long, longSide)
        let size = Size(width: max(1, (w * side + long / 2) / long), height: max(1, (h * side + long / 2) / long))
        let means = PictureFingerprint.means(of: picture, width: size.width, height: size.height)
        self.init(size: size, levels: PictureFingerprint.brightness(means).map { UInt8(min(255, $0 >> 8)) })
    }
}
