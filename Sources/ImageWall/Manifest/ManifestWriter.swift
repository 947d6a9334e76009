import Foundation
import WallCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a manifest as pretty, key-sorted JSON, atomically.
public enum ManifestWriter {
    /// The JSON text of `manifest`, identical for identical manifests.
    public static func encode(_ manifest: Manifest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(manifest)
        data.append(0x0A)
        return data
    }

    /// Writes `manifest` to `path`.
    public static func write(_ manifest: Manifest, to path: String) throws {
        let data = try encode(manifest)
        let file = try AtomicFile(destination: path)
        let written = data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file.handle) }
        guard written == data.count else {
            throw CodecError(.write, path: path, reason: "short write")
        }
        try file.commit()
    }

    /// Reads a manifest file.
    public static func read(_ path: String) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
