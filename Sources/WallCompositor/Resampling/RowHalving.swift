/// Halves images two rows at a time: each output pixel the mean of a 2 × 2 block (the last
/// column of an odd width, or the last row of an odd height, paired with itself), as an
/// image pyramid's next level down. RGB is averaged as stored; straight RGBA by its alpha, so
/// a transparent pixel lends no colour to its neighbours.
public enum RowHalving {
    /// The row of the level below made from rows `upper` and `lower` (`width` pixels of
    /// `channels` bytes each, 3 or 4); its width is `(width + 1) / 2`.
    public static func halve(_ upper: [UInt8], _ lower: [UInt8], width: Int, channels: Int) -> [UInt8] {
        precondition(upper.count == width * channels && lower.count == upper.count && (channels == 3 || channels == 4))
        let half = (width + 1) / 2
        var out = [UInt8](repeating: 0, count: half * channels)
        upper.withUnsafeBufferPointer { a in
            lower.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { o in
                    for x in 0..<half {
                        let p = 2 * x * channels
                        let q = min(2 * x + 1, width - 1) * channels
                        let t = x * channels
                        if channels == 3 {
                            for c in 0..<3 {
                                let sum = UInt32(a[p + c]) + UInt32(a[q + c]) + UInt32(b[p + c]) + UInt32(b[q + c])
                                o[t + c] = UInt8((sum + 2) / 4)
                            }
                        } else {
                            let (ap, aq) = (UInt32(a[p + 3]), UInt32(a[q + 3]))
                            let (bp, bq) = (UInt32(b[p + 3]), UInt32(b[q + 3]))
                            let alpha = ap + aq + bp + bq
                            o[t + 3] = UInt8((alpha + 2) / 4)
                            guard alpha > 0 else { continue }
                            for c in 0..<3 {
                                let weighted =
                                    UInt32(a[p + c]) * ap + UInt32(a[q + c]) * aq + UInt32(b[p + c]) * bp
                                    + UInt32(b[q + c]) * bq
                                o[t + c] = UInt8((weighted + alpha / 2) / alpha)
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
