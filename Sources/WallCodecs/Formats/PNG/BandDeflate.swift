import CDeflate
import CPNGShim

/// ImageWall's own deflater (the `CDeflate` target), the PNG sheets' by default: literals and runs
/// of the byte before, as zlib's `Z_RLE` codes them, with Huffman tables built per block, about
/// four times zlib's speed on filtered rows and no larger. Each band ends on a byte boundary and
/// refers to nothing before it, so bands join into one stream. zlib stays the reference that
/// reads it back (`inflate`), in the tests and `make fuzz`.
public enum BandDeflate {
    /// `bytes` as raw deflate, a band of a longer stream unless `last` ends it.
    public static func deflate(_ bytes: UnsafeBufferPointer<UInt8>, last: Bool) -> [UInt8] {
        let bound = iw_deflate_bound(bytes.count)
        return [UInt8](unsafeUninitializedCapacity: bound) { out, made in
            made = iw_deflate_band(bytes.baseAddress, bytes.count, last ? 1 : 0, out.baseAddress!)
        }
    }

    /// `bytes` as ``deflate(_:last:)`` writes them, always by the deflater's plain code, which
    /// it takes only on a CPU without BMI2: the same bytes, as the tests check.
    static func deflatePlain(_ bytes: UnsafeBufferPointer<UInt8>, last: Bool) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: iw_deflate_bound(bytes.count)) { out, made in
            made = iw_deflate_band_plain(bytes.baseAddress, bytes.count, last ? 1 : 0, out.baseAddress!)
        }
    }

    /// Whether ``deflate(_:last:)`` takes the BMI2 version of the deflater on this CPU.
    static var usesBMI2: Bool { iw_deflate_uses_bmi2() != 0 }

    /// The bytes of a whole raw deflate stream, as zlib inflates it, when it holds exactly
    /// `size` of them and ends; `nil` otherwise.
    public static func inflate(_ stream: [UInt8], size: Int) -> [UInt8]? {
        var ended: Int32 = 0
        var made = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { out, count in
            made = stream.withUnsafeBufferPointer { input in
                iw_inflate_raw(input.baseAddress, input.count, out.baseAddress!, size + 1, &ended)
            }
            count = min(made, size + 1)
        }
        return ended == 1 && made == size ? Array(bytes.prefix(size)) : nil
    }
}
