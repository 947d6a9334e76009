import Testing
import WallCodecs
import WallCore
import _WallTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The traps of libpng 1.6.39 and libjpeg-turbo 2.1.5 named in the hostile-input issue, built
/// here, and bad paths.
@Suite("Hostile input")
struct HostileInputTests {
    let folder = TemporaryFolder()

    static func peakMB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    }

    /// A PNG chunk with its CRC-32 (over type and data); `length` can claim more than `data`.
    static func chunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
        let n = length ?? UInt32(data.count)
        let head: [UInt8] = [UInt8(n >> 24), UInt8((n >> 16) & 255), UInt8((n >> 8) & 255), UInt8(n & 255)]
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return head + body + [UInt8(crc >> 24), UInt8((crc >> 16) & 255), UInt8((crc >> 8) & 255), UInt8(crc & 255)]
    }

    @Test("(a) a tiny PNG claiming a 1 GB chunk is refused without allocating it")
    func hugeChunk() throws {
        let ihdr: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png +=
            Self.chunk("IHDR", ihdr)
            + Array(
                Self.chunk("zTXt", Array("Comment\0\0".utf8) + [0x78, 0x9C, 0x63], length: 0x3FFF_FFFF).dropLast(4))
        let path = folder.write(png, to: "bomb-chunk.png")
        #expect(png.count < 64)
        let info = try ImageProbe().probe(path: path)  // the header itself is fine
        let before = Self.peakMB()
        let error = #expect(throws: CodecError.self) { try ImageDecoder().decode(path: path, info: info) }
        #expect(error?.reason.contains("chunk data is too large") == true, "\(error?.reason ?? "")")
        // The high-water mark is the whole test process's (other tests run beside this one, and
        // sanitizers hold freed memory), so only its rise is this decode's.
        #expect(Self.peakMB() - before < 500)
    }

    @Test("(b) a JPEG with 100,000 APP1 markers is refused quickly by the probe")
    func markerFlood() throws {
        let jpeg = Fixtures.read(Fixtures.sample("landscape-baseline-420.jpg"))!
        var flood: [UInt8] = [0xFF, 0xD8]
        flood.reserveCapacity(600_000 + jpeg.count)
        for _ in 0..<100_000 { flood += [0xFF, 0xE1, 0x00, 0x04, 0x61, 0x62] }
        flood += jpeg.dropFirst(2)
        let path = folder.write(flood, to: "markers.jpg")
        do {
            _ = try ImageProbe().probe(path: path)
            Issue.record("probe accepted 100,000 markers")
        } catch {
            #expect(error.reason.contains("marker segments"), "\(error.reason)")
        }
    }

    @Test("(c) a progressive JPEG repeating a scan 2,000 times stops at the scan limit")
    func endlessScans() throws {
        let jpeg = Fixtures.read(Fixtures.sample("portrait-progressive-420.jpg"))!
        // The last scan runs from the last SOS marker to EOI; repeat it.
        var last = jpeg.count - 2
        while last > 2 && !(jpeg[last] == 0xFF && jpeg[last + 1] == 0xDA) { last -= 1 }
        let scan = jpeg[last..<(jpeg.count - 2)]
        var repeated = Array(jpeg[..<(jpeg.count - 2)])
        for _ in 0..<2000 { repeated += scan }
        repeated += [0xFF, 0xD9]
        let path = folder.write(repeated, to: "scans.jpg")
        let info = try ImageProbe().probe(path: path)
        do {
            _ = try ImageDecoder().decode(path: path, info: info)
            Issue.record("2,000 scans decoded")
        } catch {
            #expect(error.reason.contains("progressive scans"), "\(error.reason)")
        }
    }

    @Test("paths with spaces, quotes and bytes that are not UTF-8 are read or reported, never fatal")
    func awkwardPaths() throws {
        let png = Fixtures.read(Fixtures.sample("png-rgb.png"))!
        for name in ["with space.png", "quote\"and'apostrophe.png", "ünïcödé 東京.png"] {
            let path = folder.write(png, to: name)
            #expect(try ImageProbe().probe(path: path).storedSize == Size(width: 420, height: 280))
        }
        // A name with a byte that is not UTF-8, made through the C API.
        var raw = Array(folder.path.utf8) + Array("/bad-".utf8) + [0xFF, 0xFE] + Array(".png".utf8) + [0]
        let fd = raw.withUnsafeMutableBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { creat($0.baseAddress!, 0o644) }
        }
        #expect(fd >= 0)
        _ = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { raw.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { _ = unlink($0.baseAddress!) } } }
        // Whatever the scanner makes of the name, probing it fails cleanly or succeeds.
        for name in Fixtures.files(in: folder.path) where name.hasPrefix("bad-") {
            _ = try? ImageProbe().probe(path: folder.file(name))
        }
    }

    @Test("a file without read permission is reported with the system's reason", .enabled(if: geteuid() != 0))
    func unreadable() throws {
        let path = folder.write(Fixtures.read(Fixtures.sample("png-rgb.png"))!, to: "secret.png")
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        #expect(throws: CodecError(.probe, path: path, reason: "Permission denied")) {
            try ImageProbe().probe(path: path)
        }
    }
}
