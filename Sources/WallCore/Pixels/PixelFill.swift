extension UnsafeMutableBufferPointer<UInt8> {
    /// Repeats `pixel` (one pixel's channels) over the first `count` bytes: one pixel written,
    /// then the filled part copied onto what follows, doubling each time.
    public func fill(repeating pixel: [UInt8], count: Int) {
        precondition(count <= self.count)
        guard count > 0, !pixel.isEmpty, let base = baseAddress else { return }
        var filled = Swift.min(pixel.count, count)
        pixel.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: filled) }
        while filled < count {
            let step = Swift.min(filled, count - filled)
            (base + filled).update(from: base, count: step)
            filled += step
        }
    }
}
