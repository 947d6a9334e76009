import WallCodecs
import WallCore

// libFuzzer target: probe + decode of arbitrary bytes (make fuzz). Every input must end in
// an image or a clean error: no crash, no hang, no runaway allocation.
#if canImport(Glibc)
    import Glibc
#endif

/// Where each input is written; `IMAGEWALL_FUZZ_EXTENSION` (e.g. `dng`) names it as a format
/// known by its name (RAW), so that its codec is reached.
nonisolated(unsafe) let scratch: String = {
    let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    let named = getenv("IMAGEWALL_FUZZ_EXTENSION").map { String(cString: $0) } ?? ""
    let ext = named.isEmpty ? "" : "." + named
    return "\(folder)/imagewall-fuzz-\(getpid())\(ext)"
}()

/// libFuzzer's entry: probes `size` bytes and decodes them whole, shrunk, and at 1/8 (to complete DC
/// and, fast, to the first DC scan); returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if deflating { return roundTrip(UnsafeBufferPointer(start: data, count: size)) }
    guard let file = fopen(scratch, "wb") else { return 0 }
    fwrite(data, 1, size, file)
    fclose(file)
    // Keep each run small: 4 MP is plenty to reach every code path.
    let probe = ImageProbe(maxImagePixels: 4_000_000)
    guard let info = try? probe.probe(path: scratch) else { return 0 }
    let decoder = ImageDecoder()
    _ = try? decoder.decode(path: scratch, info: info)
    let target = Size(width: max(1, info.displayedSize.width / 5), height: max(1, info.displayedSize.height / 5))
    _ = try? decoder.decode(path: scratch, info: info, target: target)
    // At 1/8 a progressive file is read only as far as its DC scans: until complete, or with
    // fast decoding until the first.
    let tiny = Size(width: max(1, info.displayedSize.width / 16), height: max(1, info.displayedSize.height / 16))
    _ = try? decoder.decode(path: scratch, info: info, target: tiny)
    var fast = ImageDecoder()
    fast.fast = true
    _ = try? fast.decode(path: scratch, info: info, target: tiny)
    _ = decoder.colorProfile(path: scratch, info: info)
    // As a render reads it: what the probe read kept for the decode (a HEIF file opened once).
    ImageDecoder.keepingProbedFiles {
        guard let kept = try? probe.probe(path: scratch) else { return }
        _ = try? decoder.decode(path: scratch, info: kept, target: target)
    }
    return 0
}

/// `IMAGEWALL_FUZZ_TARGET=deflate`: the input is bytes to deflate, not an image.
let deflating = getenv("IMAGEWALL_FUZZ_TARGET").map { String(cString: $0) } == "deflate"

/// ImageWall's deflater checked by zlib: the input deflated in up to three bands (split where
/// its first bytes say), joined, inflated by zlib, must be the input again; deflating it twice
/// must give the same bytes. Anything else stops the fuzzer.
func roundTrip(_ input: UnsafeBufferPointer<UInt8>) -> Int32 {
    let size = input.count
    let cuts = size < 2 ? [size] : [Int(input[0]) * size / 256, Int(input[1]) * size / 256, size].sorted()
    var stream: [UInt8] = []
    var start = 0
    for (n, cut) in cuts.enumerated() {
        let band = UnsafeBufferPointer(rebasing: input[start..<cut])
        stream += BandDeflate.deflate(band, last: n == cuts.count - 1)
        start = cut
    }
    guard BandDeflate.inflate(stream, size: size) == Array(input) else {
        fatalError("deflate: the stream did not inflate to the input (\(size) bytes, bands ending at \(cuts))")
    }
    guard BandDeflate.deflate(input, last: true) == BandDeflate.deflate(input, last: true) else {
        fatalError("deflate: two deflates of the same input differ")
    }
    return 0
}
