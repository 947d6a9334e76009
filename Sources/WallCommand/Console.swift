#if canImport(Glibc)
    import Glibc
#endif

/// The only place ImageWall prints: results on stdout, messages on stderr.
enum Console {
    static func output(_ text: String, terminator: String = "\n") {
        print(text, terminator: terminator)
    }

    static func error(_ text: String) {
        raw(text + "\n")
    }

    /// Writes `text` to stderr as it is.
    static func raw(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
