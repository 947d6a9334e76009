extension Bitmap {
    /// Fills rows from `firstRow` on with opaque mid-grey: the part of a damaged file that
    /// never arrived.
    public mutating func fillMissingRows(from firstRow: Int) {
        guard firstRow < size.height else { return }
        let grey: [UInt8] = channels == 4 ? [128, 128, 128, 255] : [128, 128, 128]
        let start = max(0, firstRow) * rowBytes
        pixels.withUnsafeMutableBufferPointer { p in
            UnsafeMutableBufferPointer(rebasing: p[start...]).fill(repeating: grey, count: p.count - start)
        }
    }
}
