import ArgumentParser

/// The exit codes `imagewall` documents.
enum ExitStatus {
    /// An input or output failed.
    static let failure = ExitCode(1)
}
