import WallCore

/// Integer box averaging: each target pixel is the mean of a `byX` × `byY` block. Blocks cut
/// by the right or bottom edge average the pixels they have.
enum BoxShrink {
    static func shrink(_ image: Bitmap, byX kx: Int, y ky: Int) -> Bitmap {
        let channels = image.channels
        let width = (image.size.width + kx - 1) / kx
        let height = (image.size.height + ky - 1) / ky
        var result = Bitmap(size: Size(width: width, height: height), alpha: image.alpha)
        let sourceWidth = image.size.width
        var sums = [UInt32](repeating: 0, count: width * channels)
        image.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { acc in
                    for y in 0..<height {
                        for i in 0..<acc.count { acc[i] = 0 }
                        let firstRow = y * ky
                        let rows = min(ky, image.size.height - firstRow)
                        for r in 0..<rows {
                            let row = src.baseAddress! + (firstRow + r) * sourceWidth * channels
                            var x = 0
                            var outX = 0
                            while x < sourceWidth {
                                let end = min(x + kx, sourceWidth)
                                let a = outX * channels
                                for sx in x..<end {
                                    for c in 0..<channels { acc[a + c] &+= UInt32(row[sx * channels + c]) }
                                }
                                x = end
                                outX += 1
                            }
                        }
                        let out = dst.baseAddress! + y * width * channels
                        for outX in 0..<width {
                            let columns = min(kx, sourceWidth - outX * kx)
                            let count = UInt32(columns * rows)
                            for c in 0..<channels {
                                out[outX * channels + c] = UInt8((acc[outX * channels + c] + count / 2) / count)
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
