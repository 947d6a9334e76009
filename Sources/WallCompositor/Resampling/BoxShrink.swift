import CKernels
import WallCore

/// Integer box averaging: each target pixel is the mean of a `byX` × `byY` block. Blocks cut
/// by the right or bottom edge average the pixels they have.
enum BoxShrink {
    static func shrink(_ image: Bitmap, byX kx: Int, y ky: Int) -> Bitmap {
        if kx == 2 && ky == 2 { return halved(image) }
        let channels = image.channels
        let sourceWidth = image.size.width, sourceHeight = image.size.height
        let width = (sourceWidth + kx - 1) / kx
        let height = (sourceHeight + ky - 1) / ky
        let length = sourceWidth * channels
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: length)
        defer { columns.deallocate() }
        return Bitmap(size: Size(width: width, height: height), alpha: image.alpha) { dst in
            image.pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    // Sums down the block's rows (whole rows at a time, which vectorises),
                    // then across each block.
                    let rows = min(ky, sourceHeight - y * ky)
                    var row = src.baseAddress! + y * ky * length
                    for i in 0..<length { columns[i] = UInt32(row[i]) }
                    for _ in 1..<rows {
                        row += length
                        for i in 0..<length { columns[i] &+= UInt32(row[i]) }
                    }
                    let out = dst.baseAddress! + y * width * channels
                    let whole = sourceWidth / kx
                    let mean = ExactDivisor(UInt32(kx * rows))
                    var block = UnsafePointer(columns)
                    var pixel = out
                    for _ in 0..<whole {
                        for c in 0..<channels {
                            var sum: UInt32 = 0
                            var p = block + c
                            for _ in 0..<kx {
                                sum &+= p.pointee
                                p += channels
                            }
                            pixel[c] = UInt8(truncatingIfNeeded: mean.rounded(sum))
                        }
                        block += kx * channels
                        pixel += channels
                    }
                    if whole < width {  // the block cut by the right edge
                        let count = sourceWidth - whole * kx
                        let total = UInt32(count * rows)
                        for c in 0..<channels {
                            var sum: UInt32 = 0
                            for k in 0..<count { sum &+= block[k * channels + c] }
                            pixel[c] = UInt8(truncatingIfNeeded: (sum + total / 2) / total)
                        }
                    }
                }
            }
        }
    }

    /// The 2 × 2 case, the same means at a quarter of the cost: each row made by the C twin
    /// (`iw_halve_row`, plain, SSE2 or AVX2 as the CPU allows) of ``halve(top:bottom:width:channels:into:)``,
    /// the definition the tests hold it to.
    static func halved(_ image: Bitmap) -> Bitmap {
        let size = BoxShrinkStream.shrunk(image.size, by: (2, 2))
        return Bitmap(size: size, alpha: image.alpha) { dst in
            halve(image, rows: 0..<size.height, into: dst.baseAddress!)
        }
    }

    /// Rows `rows` of ``halved(_:)``'s result, made from rows 2 × `rows.lowerBound` up to
    /// 2 × `rows.upperBound` (the last odd row alone) of `image`, into `out` (its first row there).
    static func halve(_ image: Bitmap, rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>) {
        let channels = image.channels
        let sourceWidth = image.size.width, sourceHeight = image.size.height
        let width = (sourceWidth + 1) / 2
        let length = sourceWidth * channels
        precondition(rows.lowerBound >= 0 && rows.upperBound <= (sourceHeight + 1) / 2)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: length + 32)
        defer { scratch.deallocate() }
        image.pixels.withUnsafeBufferPointer { src in
            for y in rows {
                let top = src.baseAddress! + 2 * y * length
                let bottom = 2 * y + 1 < sourceHeight ? top + length : top
                iw_halve_row(
                    IW_KERNEL_BEST, top, bottom, sourceWidth, channels, out + (y - rows.lowerBound) * width * channels,
                    scratch)
            }
        }
    }

    /// One row of ``halved(_:)``, its definition: the two rows summed into one line of 16-bit
    /// sums, then each pair of pixels across; an odd last row or column stands in for its
    /// missing neighbour, which gives the mean of the pixels the block has, rounded as above
    /// ((2a + 2b + 2) / 4 is (a + b + 1) / 2).
    static func halve(
        top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, width sourceWidth: Int, channels: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let length = sourceWidth * channels
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: length + channels)
        defer { sums.deallocate() }
        for i in 0..<length { sums[i] = UInt16(top[i]) &+ UInt16(bottom[i]) }
        if sourceWidth % 2 == 1 {  // the last column stands in for the one missing
            for c in 0..<channels { sums[length + c] = sums[length - channels + c] }
        }
        for x in 0..<(sourceWidth + 1) / 2 {
            let s = sums + 2 * channels * x
            for c in 0..<channels {
                out[channels * x + c] = UInt8(truncatingIfNeeded: (s[c] &+ s[channels + c] &+ 2) &>> 2)
            }
        }
    }
}
