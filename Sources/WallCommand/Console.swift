import WallCore

#if canImport(Glibc)
    import Glibc
#endif

/// The only place ImageWall prints: results on stdout, messages on stderr. A byte of a name
/// that is not UTF-8 is shown as U+FFFD (see ``SystemPath``).
enum Console {
    static func output(_ text: String, terminator: String = "\n") {
        print(text.displayed, terminator: terminator)
    }

    /// Sends what was printed on stdout on its way now (stdout to a pipe or a file is
    /// buffered): for lines a watch prints as things happen.
    static func flush() {
        fflush(nil)
    }

    /// Runs `body` with standard output as a C stream (for output written in pieces).
    static func withStandardOutput<T>(_ body: (UnsafeMutablePointer<FILE>) throws -> T) throws -> T {
        guard let handle = fdopen(dup(1), "w") else { throw ExitStatus.failure }
        defer { fclose(handle) }
        return try body(handle)
    }

    static func error(_ text: String) {
        raw(text + "\n")
    }

    /// Writes `text` to stderr as it is.
    static func raw(_ text: String) {
        _ = text.displayed.withCString { write(2, $0, strlen($0)) }
    }
}
