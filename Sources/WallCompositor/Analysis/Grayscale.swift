import WallCore

extension Grayscale {
    /// `picture` averaged down to at most `longSide` pixels on its long side (never enlarged),
    /// in Rec. 601 brightness, transparent parts black: integer arithmetic, the same on every CPU.
    public init(_ picture: Bitmap, longSide: Int) {
        let size = picture.size.fitted(withinLongSide: longSide)
        let means = PictureFingerprint.means(of: picture, width: size.width, height: size.height)
        self.init(size: size, levels: PictureFingerprint.brightness(means).map { UInt8(min(255, $0 >> 8)) })
    }
}
