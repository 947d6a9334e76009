import ArgumentParser
import Foundation
import WallCodecs

/// Copies `source` over `destination` through a temporary file beside it, so a golden sheet is
/// never seen half-written (`render --check --update`, `check --update`).
func copyAtomically(_ source: String, to destination: String) throws {
    guard let bytes = FileManager.default.contents(atPath: source) else {
        throw ValidationError("cannot read \(source)")
    }
    let file = try AtomicFile(destination: destination)
    guard bytes.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file.handle) }) == bytes.count else {
        throw ValidationError("cannot write \(destination)")
    }
    try file.commit()
}
