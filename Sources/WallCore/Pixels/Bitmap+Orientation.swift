extension Bitmap {
    /// The picture as it should be displayed, for a bitmap stored with `orientation`.
    public func oriented(_ orientation: Orientation) -> Bitmap {
        if orientation == .up { return self }
        let displayed = orientation.displayedSize(ofStored: size)
        let channels = self.channels
        var result = Bitmap(size: displayed, alpha: alpha)
        let storedWidth = size.width
        pixels.withUnsafeBufferPointer { source in
            result.pixels.withUnsafeMutableBufferPointer { target in
                var out = 0
                for y in 0..<displayed.height {
                    for x in 0..<displayed.width {
                        let (sx, sy) = orientation.storedPosition(
                            ofDisplayedX: x, y: y, displayed: displayed)
                        let start = (sy * storedWidth + sx) * channels
                        for c in 0..<channels { target[out + c] = source[start + c] }
                        out += channels
                    }
                }
            }
        }
        return result
    }
}
