import ArgumentParser

/// Every exit status the commands use, and the text the root help shows for them.
enum ExitStatus {
    /// An input or output failed (with --on-error fail, or no readable image); for `diff` and
    /// `render --check`, the sheets differ.
    static let failure = ExitCode(1)
    /// `diff` and `render --check`: the sheets differ.
    static let differ = ExitCode(1)
    /// `diff` and `render --check`: the sheets cannot be compared (one is missing, unreadable,
    /// of several pages), or the render to compare failed.
    static let cannotCompare = ExitCode(2)
    /// The command line is invalid (ArgumentParser's validation failure).
    static let usage = ExitCode.validationFailure
    /// Interrupted by SIGINT or SIGTERM: nothing was left half-written.
    static let interrupted = ExitCode(128 + 2)

    /// The root help's list of statuses.
    static let described = """
        EXIT STATUS:
          0   success; diff and render --check: the sheets match; check: every fixture passed
          1   an input or output failed; diff and render --check: the sheets differ; check: a fixture changed or is new
          2   diff, render --check and check: the sheets cannot be compared
          64  invalid command line
          130 interrupted (SIGINT, SIGTERM); no output is left half-written
        """
}
