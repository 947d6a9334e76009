import WallCodecs

/// Something a render reports as it goes; the command line prints these on stderr.
public enum Diagnostic: Sendable, CustomStringConvertible {
    /// An input was left out (with `--on-error skip`).
    case skipped(source: String, reason: String, stage: CodecStage)
    /// An input rendered, but its decoder complained or it could not be decoded at all.
    case warning(source: String, message: String)
    /// A decoder's remark that changes no pixel (libpng recognising an edited sRGB profile);
    /// the command line shows these only with `--verbose`.
    case note(source: String, message: String)

    /// The line printed on stderr: `warning: FILE: MESSAGE`, `warning: skipped FILE: STAGE:
    /// REASON` or `note: FILE: MESSAGE`.
    public var description: String {
        switch self {
        case .skipped(let source, let reason, let stage):
            return "warning: skipped \(source): \(stage.rawValue): \(reason)"
        case .warning(let source, let message):
            return "warning: \(source): \(message)"
        case .note(let source, let message):
            return "note: \(source): \(message)"
        }
    }
}
