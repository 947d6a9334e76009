import WallCore

/// Integer box averaging: each target pixel is the mean of a `byX` × `byY` block. Blocks cut
/// by the right or bottom edge average the pixels they have.
enum BoxShrink {
    static func shrink(_ image: Bitmap, byX kx: Int, y ky: Int) -> Bitmap {
        let channels = image.channels
        let sourceWidth = image.size.width, sourceHeight = image.size.height
        let width = (sourceWidth + kx - 1) / kx
        let height = (sourceHeight + ky - 1) / ky
        var result = Bitmap(size: Size(width: width, height: height), alpha: image.alpha)
        let length = sourceWidth * channels
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: length)
        defer { columns.deallocate() }
        image.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
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
        return result
    }
}
