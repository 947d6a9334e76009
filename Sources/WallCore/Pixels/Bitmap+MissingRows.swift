extension Bitmap {
    /// Fills rows from `firstRow` on with opaque mid-grey: the part of a damaged file that
    /// never arrived.
    public mutating func fillMissingRows(from firstRow: Int) {
        guard firstRow < size.height else { return }
        let channels = self.channels
        pixels.withUnsafeMutableBufferPointer { p in
            var i = max(0, firstRow) * size.width * channels
            while i < p.count {
                p[i] = 128
                p[i + 1] = 128
                p[i + 2] = 128
                if channels == 4 { p[i + 3] = 255 }
                i += channels
            }
        }
    }
}
