import CXXHash

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A 128-bit key (XXH3): what a cache entry is found by.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The hash's high 64 bits.
    public let high: UInt64
    /// The hash's low 64 bits.
    public let low: UInt64

    /// 32 hexadecimal digits.
    public var description: String {
        String(unsafeUninitializedCapacity: 32) { text in
            for (n, half) in [high, low].enumerated() {
                for digit in 0..<16 {
                    let value = UInt8(truncatingIfNeeded: half >> (60 - 4 * digit)) & 15
                    text[16 * n + digit] = value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
                }
            }
            return 32
        }
    }

    /// The key of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) {
        let hash = XXH3_128bits(bytes.baseAddress, bytes.count)
        self.init(high: hash.high64, low: hash.low64)
    }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The key whose ``description`` is `hex` (32 hexadecimal digits), or `nil`.
    public init?(hex: String) {
        guard hex.utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16),
            let low = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.init(high: high, low: low)
    }

    /// The key of the whole content of the file at `path`, read in 1 MiB blocks: a file rewritten
    /// in place keeps no key of its old content, whatever its size and times say.
    public static func ofFile(atPath path: String) -> CacheKey? {
        let fd = open(path.systemPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var hasher = KeyHasher()
        let size = 1 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { block.deallocate() }
        while true {
            let count = read(fd, block, size)
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            hasher.add(UnsafeRawBufferPointer(start: block, count: count))
        }
        return hasher.finish()
    }
}

/// Builds a ``CacheKey`` from parts added one after another (XXH3-128, streaming). Each text
/// and byte run is added with its length, so that parts cannot run into each other.
public struct KeyHasher: ~Copyable {
    private let state: OpaquePointer

    /// A hasher with nothing added yet.
    public init() {
        state = XXH3_createState()
        XXH3_128bits_reset(state)
    }

    deinit { XXH3_freeState(state) }

    /// Adds raw bytes (no length).
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        XXH3_128bits_update(state, bytes.baseAddress, bytes.count)
    }

    /// Adds an integer.
    public mutating func add(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { add($0) }
    }

    /// Adds a text and its length.
    public mutating func add(_ text: String) {
        var text = text
        add(text.utf8.count)
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// Adds another key.
    public mutating func add(_ key: CacheKey) {
        add(Int(bitPattern: UInt(key.high)))
        add(Int(bitPattern: UInt(key.low)))
    }

    /// The key of everything added.
    public consuming func finish() -> CacheKey {
        let hash = XXH3_128bits_digest(state)
        return CacheKey(high: hash.high64, low: hash.low64)
    }
}
