import WallCache

/// The checksum of a part file's header and records: the low half of XXH3-128.
enum PartChecksum {
    static func of(_ parts: [UInt8]...) -> UInt64 {
        var hasher = KeyHasher()
        for part in parts { part.withUnsafeBytes { hasher.add($0) } }
        return hasher.finish().low
    }

    /// `checksum` chained onto the checksums before it.
    static func chain(_ before: UInt64, _ checksum: UInt64) -> UInt64 {
        of(BigEndian.bytes(before), BigEndian.bytes(checksum))
    }
}
