extension Bitmap {
    /// The bitmap as displayed under `orientation` (the stored one, turned and mirrored).
    ///
    /// Each displayed pixel's stored position is an affine function of where it is shown, so
    /// the source is walked with two fixed steps; a turn reads the source down its columns, so
    /// it is walked in squares of 32 × 32 pixels that stay in the cache.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let displayed = orientation.displayedSize(ofStored: size)
        let channels = self.channels
        guard !displayed.isEmpty else { return Bitmap(size: displayed, alpha: alpha) }
        let storedWidth = size.width
        func offset(_ x: Int, _ y: Int) -> Int {
            let (sx, sy) = orientation.storedPosition(ofDisplayedX: x, y: y, displayed: displayed)
            return (sy * storedWidth + sx) * channels
        }
        let origin = offset(0, 0)
        let stepX = offset(1, 0) - origin, stepY = offset(0, 1) - origin
        let square = 32
        // Every displayed pixel is written once: the result is not cleared first.
        return Bitmap(size: displayed, alpha: alpha) { target in
            pixels.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = target.baseAddress!
                for y0 in stride(from: 0, to: displayed.height, by: square) {
                    for x0 in stride(from: 0, to: displayed.width, by: square) {
                        let x1 = min(x0 + square, displayed.width)
                        for y in y0..<min(y0 + square, displayed.height) {
                            var from = src + origin + y * stepY + x0 * stepX
                            var to = dst + (y * displayed.width + x0) * channels
                            if channels == 3 {
                                for _ in x0..<x1 {
                                    (to[0], to[1], to[2]) = (from[0], from[1], from[2])
                                    from += stepX
                                    to += 3
                                }
                            } else {
                                for _ in x0..<x1 {
                                    UnsafeMutableRawPointer(to).storeBytes(
                                        of: UnsafeRawPointer(from).loadUnaligned(as: UInt32.self), as: UInt32.self)
                                    from += stepX
                                    to += 4
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
