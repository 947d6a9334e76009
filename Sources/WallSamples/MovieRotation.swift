/// Writes a rotation into an MP4 or MOV file's track header, as a phone held upright records
/// it: FFmpeg 5.1's command line cannot write the display matrix itself.
public enum MovieRotation {
    /// `movie`'s bytes with its first track header's matrix turning the picture `degrees` (90
    /// or 270) clockwise for display; `nil` when the file has no track header.
    public static func rotated(_ movie: [UInt8], clockwise degrees: Int) -> [UInt8]? {
        precondition(degrees == 90 || degrees == 270)
        guard let box = find("tkhd", in: movie), box + 4 < movie.count else { return nil }
        // Version 0 headers keep 32-bit times: the matrix is 48 bytes from the box's start.
        let matrix = box - 4 + (movie[box + 4] == 0 ? 48 : 60)
        guard matrix + 44 <= movie.count else { return nil }
        func read(_ at: Int) -> Int32 {
            Int32(bitPattern: movie[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) })
        }
        let width = read(matrix + 36) >> 16, height = read(matrix + 40) >> 16
        let one: Int32 = 0x10000
        let values: [Int32] =
            degrees == 90
            ? [0, one, 0, -one, 0, 0, height << 16, 0, 0x4000_0000]
            : [0, -one, 0, one, 0, 0, 0, width << 16, 0x4000_0000]
        var bytes = movie
        for (i, value) in values.enumerated() {
            let bits = UInt32(bitPattern: value)
            for b in 0..<4 { bytes[matrix + 4 * i + b] = UInt8(truncatingIfNeeded: bits >> (24 - 8 * b)) }
        }
        return bytes
    }

    /// Where the four-letter box type `type` first occurs in `bytes` from `start`.
    public static func find(_ type: String, in bytes: [UInt8], from start: Int = 0) -> Int? {
        let pattern = Array(type.utf8)
        guard bytes.count >= start + pattern.count else { return nil }
        return (start...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}
