#if canImport(Glibc)
    import Glibc
#endif

/// The only place ImageWall prints: results on stdout, messages on stderr.
enum Console {
    static func output(_ text: String, terminator: String = "\n") {
        print(text, terminator: terminator)
    }

    static func error(_ text: String) {
        let line = text + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
