extension Bitmap {
    /// The bitmap as displayed under `orientation` (the stored one, turned and mirrored).
    ///
    /// Each displayed pixel's stored position is an affine function of where it is shown, so
    /// the source is walked with two fixed steps. A mirror reads stored rows whole. A turn reads
    /// the source down its columns: it is walked in squares of 16 × 16 pixels, a column of
    /// squares after another, so that each square reads on along the same 16 stored rows.
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
        let (across, down) = orientation.swapsAxes ? (16, 16) : (displayed.width, 1)
        // Every displayed pixel is written once: the result is not cleared first.
        return Bitmap(size: displayed, alpha: alpha) { target in
            pixels.withUnsafeBufferPointer { source in
                let src = source.baseAddress!, dst = target.baseAddress!
                let lastStored = src + source.count - channels
                for x0 in stride(from: 0, to: displayed.width, by: across) {
                    let x1 = min(x0 + across, displayed.width)
                    for y0 in stride(from: 0, to: displayed.height, by: down) {
                        for y in y0..<min(y0 + down, displayed.height) {
                            var from = src + origin + y * stepY + x0 * stepX
                            var to = dst + (y * displayed.width + x0) * channels
                            if channels == 3 {
                                // A pixel is moved as four bytes, the fourth written over by
                                // the next pixel: all but a run's last, and the stored image's
                                // last (its fourth byte would be past the end), which move as three.
                                for _ in x0..<x1 - 1 {
                                    if from == lastStored {
                                        (to[0], to[1], to[2]) = (from[0], from[1], from[2])
                                    } else {
                                        UnsafeMutableRawPointer(to).storeBytes(
                                            of: UnsafeRawPointer(from).loadUnaligned(as: UInt32.self), as: UInt32.self)
                                    }
                                    from += stepX
                                    to += 3
                                }
                                (to[0], to[1], to[2]) = (from[0], from[1], from[2])
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
