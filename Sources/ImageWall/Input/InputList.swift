import WallCore

/// A list of paths as `--files-from` reads it: one a line (LF or CRLF), or separated by NUL
/// bytes as `find -print0` writes them.
public enum InputList {
    /// How the paths of a list are separated.
    public enum Separator: Sendable {
        /// NUL bytes when the list holds one (no path can), else lines.
        case automatic
        /// One path a line; a carriage return before the line feed is not part of the path.
        case lines
        /// NUL bytes, as `find -print0` and `xargs -0` use; a line feed may be in a name.
        case null
    }

    /// The paths in `bytes`, empty entries left out. A path never holds a NUL byte: a list
    /// with one is read as NUL-separated unless `separator` says lines, and then each NUL
    /// ends the path as well.
    public static func paths(in bytes: [UInt8], separator: Separator = .automatic) -> [String] {
        let byNull: Bool
        switch separator {
        case .automatic: byNull = bytes.contains(0)
        case .lines: byNull = false
        case .null: byNull = true
        }
        let entries = bytes.split(omittingEmptySubsequences: true) { byte in
            byte == 0 || (!byNull && byte == 0x0A)
        }
        return entries.compactMap { entry -> String? in
            var entry = entry[...]
            if !byNull, entry.last == 0x0D { entry = entry.dropLast() }
            return entry.isEmpty ? nil : SystemPath.string(entry)
        }
    }
}
